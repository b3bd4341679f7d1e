// What tests hold: a running fake Bot API with simulated users (send a message, a command,
// a reply, a photo, a file, a voice note, an album; tap a button), views of what the bot sent
// as a person would see it now, the call log, fault injection, and waits instead of sleeps.
import { appendFileSync } from "node:fs";
import { relative } from "node:path";
import process from "node:process";
import { expect } from "vitest";
import { BotApiServer, type Arrival, type Fault, type FaultOptions } from "./server.js";
import {
  FakeWorld,
  type BotIdentity,
  type CallbackAnswer,
  type CallRecord,
  type ChatType,
  type Entity,
  type FakeUser,
} from "./state.js";
import { matcher, view, type MessageMatch, type MessageView } from "./message-view.js";
import { blockBot, restrictBot, setBotRole } from "./bot-membership.js";
import { FakeTopics } from "./topics.js";
import { describeWorld, transcriptOf } from "./transcript.js";
import { forwardOrigin, quoteOf, sentAsChat, userEntities, type SentAs } from "./user-text.js";
import {
  sendUserMedia,
  type AlbumItem,
  type AudioInput,
  type DocumentInput,
  type PhotoInput,
  type VideoInput,
  type VideoNoteInput,
  type VoiceInput,
} from "./user-media.js";

export type FakeBotApiOptions = {
  token?: string;
  bot?: Partial<BotIdentity>;
  /** Longest a getUpdates call waits for updates, whatever timeout the client asks (default 1000 ms). */
  maxPollWaitMs?: number;
  now?: () => number;
};

export type { MessageMatch, MessageView };

export type WaitOptions = { timeoutMs?: number; what?: string };

type From = { from?: number };

type MediaOptions = From & { caption?: string | undefined; replyTo?: number };
type TextOptions = From & {
  replyTo?: number;
  quote?: string;
  formatting?: readonly Entity[];
  /** The message is forwarded, from someone of this name. */
  forwardedFrom?: string;
  /** Sent as the group itself (an anonymous admin) or as a channel, not as the person. */
  sentAs?: SentAs;
  /** Sent in this forum topic (its thread id, from `topics.create`); a reply goes in its target's. */
  topic?: number;
};

export async function startFakeBotApi(options: FakeBotApiOptions = {}): Promise<FakeBotApi> {
  const bot: BotIdentity = { id: 7_000_000_001, firstName: "Telecode", username: "telecode_test_bot", ...options.bot };
  const token = options.token ?? `${bot.id}:AAtest-token-for-the-fake-bot-api`;
  const world = new FakeWorld(bot, options.now ?? Date.now);
  const server = new BotApiServer(world, token, options.maxPollWaitMs ?? 1000);
  const port = await server.listen();
  return new FakeBotApi(world, server, token, `http://127.0.0.1:${port}`);
}

export class FakeBotApi {
  /** Forum topics: people create, close, reopen and delete them; what is in each. */
  readonly topics: FakeTopics;

  constructor(
    private readonly world: FakeWorld,
    private readonly server: BotApiServer,
    readonly token: string,
    /** Pass as grammY's `client.apiRoot`. */
    readonly apiRoot: string,
  ) {
    this.topics = new FakeTopics(world, (chatId, from) => this.sender(chatId, from));
  }

  get botInfo(): BotIdentity {
    return this.world.bot;
  }

  /**
   * With TELECODE_TEST_TRANSCRIPT=FILE, every chat is appended to FILE as a person reads it (see
   * transcript()), under the name of the test file (files running at once may use the same chats);
   * with TELECODE_TEST_TRANSCRIPT_EDITS=1 too, each edited message's earlier texts as well.
   */
  close(): Promise<void> {
    const file = process.env["TELECODE_TEST_TRANSCRIPT"];
    if (file !== undefined && file !== "") {
      const edits = process.env["TELECODE_TEST_TRANSCRIPT_EDITS"] === "1";
      appendFileSync(file, `\n=== ${testFileName()}\n${this.transcript({ edits })}`);
    }
    return this.server.close();
  }

  // --- the simulated people ---

  /** A person who has started the bot: their private chat has the same id as they do. */
  addUser(user: { id: number; firstName?: string; username?: string }): FakeUser {
    const stored: FakeUser = {
      id: user.id,
      firstName: user.firstName ?? `User${user.id}`,
      ...(user.username === undefined ? {} : { username: user.username }),
    };
    this.world.users.set(user.id, stored);
    this.world.addChat(user.id, "private", undefined, [user.id]);
    return stored;
  }

  addGroup(group: { id: number; title?: string; type?: Exclude<ChatType, "private">; memberIds: number[] }): void {
    for (const member of group.memberIds) if (!this.world.users.has(member)) this.addUser({ id: member });
    this.world.addChat(group.id, group.type ?? "supergroup", group.title ?? "Group", group.memberIds);
  }

  /**
   * A person sends a text message (optionally as a reply, quoting part of the message it
   * replies to), or forwarded; returns its message id. `formatting` is what the app's formatting
   * menu marks (links, code, quotes), beside the commands and mentions Telegram finds by itself.
   */
  sendText(chatId: number, text: string, options: TextOptions = {}): number {
    const chat = this.requireChat(chatId);
    const from = this.sender(chatId, options.from);
    const target = options.replyTo === undefined ? undefined : chat.messages.get(options.replyTo);
    if (options.replyTo !== undefined && target === undefined) {
      throw new Error(`fake Bot API: chat ${chatId} has no message ${options.replyTo} to reply to`);
    }
    const other = {
      ...(options.quote === undefined ? {} : { quote: quoteOf(target, options.quote) }),
      ...(options.forwardedFrom === undefined ? {} : { forward_origin: forwardOrigin(options.forwardedFrom) }),
      ...(options.sentAs === undefined ? {} : sentAsChat(options.sentAs, this.world.chatJson(chat))),
    };
    const message = this.world.newMessage(chat, {
      fromUserId: from,
      text,
      entities: [...userEntities(text), ...(options.formatting ?? [])].sort((a, b) => a.offset - b.offset),
      replyToMessageId: options.replyTo,
      other: Object.keys(other).length === 0 ? undefined : other,
      ...(options.topic === undefined ? {} : { threadId: options.topic }),
    });
    this.world.enqueueUpdate("message", this.world.messageJson(message));
    return message.messageId;
  }

  /** The person edits the text of a message they sent, as Telegram's apps let them. */
  editText(chatId: number, messageId: number, text: string): void {
    const message = this.requireChat(chatId).messages.get(messageId);
    if (message?.fromUserId === undefined || message.text === undefined)
      throw new Error(`fake Bot API: chat ${chatId} has no text message ${messageId} from a person to edit`);
    message.text = text;
    message.entities = userEntities(text);
    message.editDateS = Math.floor(this.world.now() / 1000);
    message.revisions.push(this.world.revision(message));
    this.world.enqueueUpdate("edited_message", this.world.messageJson(message));
  }

  /** A person sends `/command args`. */
  sendCommand(
    chatId: number,
    command: string,
    args = "",
    options: Pick<TextOptions, "from" | "replyTo" | "topic"> = {},
  ): number {
    const name = command.startsWith("/") ? command : `/${command}`;
    return this.sendText(chatId, args === "" ? name : `${name} ${args}`, options);
  }

  /** A person sends a photo (several sizes, or one image) with an optional caption; returns its message id. */
  sendPhoto(chatId: number, photo: PhotoInput, options: MediaOptions = {}): number {
    return this.sendMedia(chatId, { photo }, options);
  }

  /** A person sends a file, named and typed as their app reports it. */
  sendDocument(chatId: number, document: DocumentInput, options: MediaOptions = {}): number {
    return this.sendMedia(chatId, { document }, options);
  }

  /** A person records a voice note (OGG/Opus unless `mimeType` says otherwise). */
  sendVoice(chatId: number, voice: VoiceInput, options: MediaOptions = {}): number {
    return this.sendMedia(chatId, { voice }, options);
  }

  /** A person sends a music/audio file. */
  sendAudio(chatId: number, audio: AudioInput, options: MediaOptions = {}): number {
    return this.sendMedia(chatId, { audio }, options);
  }

  /** A video (caption in `options`); `mimeType` and `fileName` are left out as Telegram may. */
  sendVideo(chatId: number, video: VideoInput, options: MediaOptions = {}): number {
    return this.sendMedia(chatId, { video }, options);
  }

  /** A round video message: no caption, no name, no MIME type. */
  sendVideoNote(chatId: number, videoNote: VideoNoteInput, options: From & { replyTo?: number } = {}): number {
    return this.sendMedia(chatId, { videoNote }, options);
  }

  /** A person sends what is neither text nor media: `{ sticker: {...} }`, `{ location: {...} }`, as Telegram's JSON. */
  sendOther(chatId: number, json: Record<string, unknown>, options: From = {}): number {
    const message = this.world.newMessage(this.requireChat(chatId), {
      fromUserId: this.sender(chatId, options.from),
      other: json,
    });
    this.world.enqueueUpdate("message", this.world.messageJson(message));
    return message.messageId;
  }

  /** A person sends several photos or files at once: one message per item sharing a media_group_id. */
  sendMediaGroup(chatId: number, items: readonly AlbumItem[], options: From & { replyTo?: number } = {}): number[] {
    if (items.length < 2 || items.length > 10) throw new Error("fake Bot API: an album has 2 to 10 items");
    const mediaGroupId = this.world.newMediaGroupId();
    return items.map((item) => {
      const media = "photo" in item ? { photo: item.photo } : { document: item.document };
      return this.sendMedia(chatId, media, { ...options, caption: item.caption, mediaGroupId });
    });
  }

  private sendMedia(
    chatId: number,
    media: Parameters<typeof sendUserMedia>[2],
    options: MediaOptions & { mediaGroupId?: string },
  ): number {
    const chat = this.requireChat(chatId);
    const from = this.sender(chatId, options.from);
    if (options.replyTo !== undefined && !chat.messages.has(options.replyTo)) {
      throw new Error(`fake Bot API: chat ${chatId} has no message ${options.replyTo} to reply to`);
    }
    return sendUserMedia(this.world, chat, media, {
      from,
      caption: options.caption,
      replyTo: options.replyTo,
      mediaGroupId: options.mediaGroupId,
    });
  }

  /**
   * A person taps the button whose callback data (or else text) is `dataOrText` on message
   * `messageId` as it is now; fails if no such button is there. Returns the callback query id.
   */
  tapButton(chatId: number, messageId: number, dataOrText: string, options: From = {}): string {
    const message = this.requireChat(chatId).messages.get(messageId);
    if (message === undefined) throw new Error(`fake Bot API: chat ${chatId} has no message ${messageId}`);
    const buttons = (message.keyboard?.inline_keyboard ?? []).flat();
    const button = buttons.find((b) => b.callback_data === dataOrText) ?? buttons.find((b) => b.text === dataOrText);
    if (button?.callback_data === undefined) {
      const shown = buttons.map((b) => `${b.text} (${b.callback_data ?? b.url ?? "?"})`).join(", ") || "no buttons";
      throw new Error(
        `fake Bot API: message ${messageId} in chat ${chatId} has no button "${dataOrText}"; it has: ${shown}`,
      );
    }
    const id = this.forgeCallback(chatId, messageId, button.callback_data, options);
    const query = this.world.callbackQueries.get(id);
    if (query !== undefined) query.label = button.text;
    return id;
  }

  /** A callback query with any data, as an old or forged client could send: no button check. */
  forgeCallback(chatId: number, messageId: number, data: string, options: From = {}): string {
    const chat = this.requireChat(chatId);
    const from = this.sender(chatId, options.from);
    const message = chat.messages.get(messageId);
    const id = this.world.newQueryId();
    const afterMessageId = chat.nextMessageId - 1;
    this.world.callbackQueries.set(id, {
      id,
      chatId,
      messageId,
      fromUserId: from,
      data,
      answer: undefined,
      afterMessageId,
    });
    this.world.enqueueUpdate("callback_query", {
      id,
      from: this.world.userJson(from),
      message:
        message === undefined
          ? { message_id: messageId, chat: this.world.chatJson(chat), date: 0 } // InaccessibleMessage
          : this.world.messageJson(message),
      chat_instance: `${chatId}`,
      data,
    });
    return id;
  }

  /** The person deletes a message (e.g. the bot's progress message) in their app. */
  userDeletesMessage(chatId: number, messageId: number): void {
    const chat = this.requireChat(chatId);
    if (!chat.messages.delete(messageId)) throw new Error(`fake Bot API: chat ${chatId} has no message ${messageId}`);
    chat.deletedMessageIds.push(messageId);
    this.world.changed();
  }

  /**
   * The group becomes a supergroup (someone made it public, or turned on topics): it has id
   * `newId` from now on, and writes to the old id are refused with the new one. With `notices`
   * Telegram tells the bot in both chats, as it does; without, the bot learns only from a refusal.
   */
  upgradeGroup(groupId: number, newId: number, options: { notices?: boolean } = {}): void {
    this.world.upgradeGroup(this.requireChat(groupId), newId, options.notices ?? true);
  }

  /** Someone in the group adds the bot to it as a member or an admin, or makes it an admin (or no longer one). */
  setBotRole(groupId: number, role: "member" | "admin", options: From = {}): void {
    setBotRole(this.world, this.requireChat(groupId), this.sender(groupId, options.from), role);
  }

  /**
   * The person blocks the bot (writes to the chat answer 403), or unblocks it; Telegram tells
   * the bot with a my_chat_member update either way.
   */
  blockBot(chatId: number, blocked = true): void {
    blockBot(this.world, this.requireChat(chatId), blocked);
  }

  /** A group's admin takes the bot's right to send messages (every send answers 400), or gives it back. */
  restrictBot(groupId: number, restricted = true, options: From = {}): void {
    restrictBot(this.world, this.requireChat(groupId), restricted, this.sender(groupId, options.from));
  }

  // --- what the bot did ---

  /** The bot's messages in a chat as they are now, oldest first (deleted ones gone). */
  botMessages(chatId: number): MessageView[] {
    return this.allMessages(chatId).filter((m) => m.fromBot);
  }

  /** Every message in a chat (the people's too), oldest first. */
  allMessages(chatId: number): MessageView[] {
    return [...this.requireChat(chatId).messages.values()].map(view);
  }

  message(chatId: number, messageId: number): MessageView | undefined {
    const message = this.requireChat(chatId).messages.get(messageId);
    return message === undefined ? undefined : view(message);
  }

  lastBotMessage(chatId: number): MessageView | undefined {
    return this.botMessages(chatId).at(-1);
  }

  deletedMessageIds(chatId: number): readonly number[] {
    return this.requireChat(chatId).deletedMessageIds;
  }

  callbackAnswer(queryId: string): CallbackAnswer | undefined {
    return this.world.callbackQueries.get(queryId)?.answer;
  }

  chatActions(chatId: number): readonly { action: string; atMs: number; threadId?: number }[] {
    return this.requireChat(chatId).actions;
  }

  commands(): readonly { command: string; description: string }[] {
    return this.world.commands;
  }

  /** Every call the bot made, oldest first; `method` filters. */
  calls(method?: string): readonly CallRecord[] {
    return method === undefined ? this.world.calls : this.world.calls.filter((c) => c.method === method);
  }

  /** Calls that send or change something (not getUpdates, getMe, getFile, downloads): what counts against Telegram's limits. */
  writeCalls(chatId?: number): readonly CallRecord[] {
    return this.world.calls.filter(
      (c) =>
        !["getUpdates", "getMe", "deleteWebhook", "getWebhookInfo", "getFile", "file"].includes(c.method) &&
        (chatId === undefined || c.chatId === chatId),
    );
  }

  /** Every request as it arrived, with the connection it came on (numbered in opening order). */
  arrivals(): readonly Arrival[] {
    return this.server.arrivals;
  }

  /** getUpdates calls being held open right now. */
  pollsWaiting(): number {
    return this.server.pollsWaiting();
  }

  pendingUpdates(): number {
    return this.world.updates.length;
  }

  /** Sets the bot's webhook, as another program using the token would (getUpdates then answers 409). */
  setWebhook(url: string): void {
    this.world.webhookUrl = url;
    this.world.changed();
  }

  get webhookUrl(): string {
    return this.world.webhookUrl;
  }

  /** The next `times` (default 1) calls of `method` (to `chatId`, if given) fail with `fault`. */
  injectFault(method: string, fault: Fault, options: FaultOptions = {}): void {
    this.server.injectFault(method, fault, options);
  }

  pendingFaults(): number {
    return this.server.pendingFaults();
  }

  /** Disarms every injected fault not yet used (the network is healthy again). */
  clearFaults(): void {
    this.server.clearFaults();
  }

  // --- waiting without sleeping ---

  /** Resolves with the first truthy value of `check`, re-checked on every change of the fake's state. */
  waitFor<T>(check: () => T | undefined | null | false, options: WaitOptions = {}): Promise<T> {
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise<T>((resolve, reject) => {
      let stop = (): void => {};
      const attempt = (): boolean => {
        let value: T | undefined | null | false;
        try {
          value = check();
        } catch (error) {
          stop();
          reject(error instanceof Error ? error : new Error(String(error)));
          return true;
        }
        if (value === undefined || value === null || value === false) return false;
        stop();
        resolve(value);
        return true;
      };
      if (attempt()) return;
      const unsubscribe = this.world.onChange(() => void attempt());
      const timer = setTimeout(() => {
        stop();
        reject(new Error(`fake Bot API: no ${options.what ?? "match"} after ${timeoutMs} ms. ${this.describe()}`));
      }, timeoutMs);
      stop = () => {
        clearTimeout(timer);
        unsubscribe();
      };
    });
  }

  /** Waits until the bot has a message in `chatId` matching `match` now (text substring, RegExp or predicate). */
  waitForBotMessage(chatId: number, match: MessageMatch, options: WaitOptions = {}): Promise<MessageView> {
    const test = matcher(match);
    return this.waitFor(() => this.botMessages(chatId).find(test), {
      what: `bot message ${String(match)} in chat ${chatId}`,
      ...options,
    });
  }

  waitForCallbackAnswer(queryId: string, options: WaitOptions = {}): Promise<CallbackAnswer> {
    return this.waitFor(() => this.callbackAnswer(queryId), {
      what: `answer to callback query ${queryId}`,
      ...options,
    });
  }

  /** A readable dump of every chat, for failure messages. */
  describe(): string {
    return describeWorld(this.world);
  }

  /** Every chat as a person reads it (see transcript.ts); with `edits`, edited messages' earlier texts too. */
  transcript(options: { edits?: boolean } = {}): string {
    return transcriptOf(this.world, options);
  }

  private requireChat(chatId: number) {
    const chat = this.world.chat(chatId);
    if (chat === undefined) throw new Error(`fake Bot API: no chat ${chatId}; add its user or group first`);
    return chat;
  }

  private sender(chatId: number, from: number | undefined): number {
    const movedTo = this.world.movedChats.get(chatId);
    if (movedTo !== undefined)
      throw new Error(`fake Bot API: chat ${chatId} is now ${movedTo}; nobody can write there`);
    const chat = this.requireChat(chatId);
    const sender = from ?? chat.memberIds[0];
    if (sender === undefined || !this.world.users.has(sender))
      throw new Error(`fake Bot API: chat ${chatId} has no user ${String(from)}`);
    return sender;
  }
}

/** The running test file, relative to the project; a placeholder outside vitest (a benchmark). */
function testFileName(): string {
  try {
    return relative(process.cwd(), expect.getState().testPath ?? "");
  } catch {
    return "(not a test)";
  }
}
