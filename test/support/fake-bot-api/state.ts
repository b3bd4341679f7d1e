// The fake Bot API's world: users, chats, every message with its current text and keyboard,
// the update queue, callback queries and the call log. Serialises messages the way the Bot
// API does. No HTTP here.
import { FileStore, mediaJson, NO_MEDIA, type StoredMedia } from "./media-state.js";

export type FakeUser = { id: number; firstName: string; username?: string };

export type ChatType = "private" | "group" | "supergroup";

export type InlineButton = { text: string; callback_data?: string; url?: string };
export type InlineKeyboard = { inline_keyboard: InlineButton[][] };

export type Entity = { type: string; offset: number; length: number; url?: string; language?: string };

/** One state of a message's content, kept so tests can see how a message was edited over time. */
export type MessageRevision = {
  text: string;
  html: string | undefined;
  keyboard: InlineKeyboard | undefined;
  atMs: number;
};

export type StoredMessage = StoredMedia & {
  messageId: number;
  chatId: number;
  /** Undefined for the bot's own messages. */
  fromUserId: number | undefined;
  dateS: number;
  text: string | undefined;
  entities: Entity[];
  /** The HTML the bot sent (parse_mode HTML), as sent. */
  html: string | undefined;
  parseMode: string | undefined;
  keyboard: InlineKeyboard | undefined;
  replyToMessageId: number | undefined;
  editDateS: number | undefined;
  revisions: MessageRevision[];
  caption: string | undefined;
  captionEntities: Entity[];
  /** What the fake does not model, as Telegram's JSON: `{ sticker: {...} }`, `{ location: {...} }`. */
  other: Record<string, unknown> | undefined;
  /** The forum topic the message is in (its thread id); undefined for General or a chat without topics. */
  threadId: number | undefined;
};

/** A forum topic: its thread id is the id of its first message (Telegram's notice that it was created). */
export type StoredTopic = { threadId: number; name: string; closed: boolean };

export type StoredChat = {
  id: number;
  type: ChatType;
  title: string | undefined;
  memberIds: number[];
  nextMessageId: number;
  messages: Map<number, StoredMessage>;
  deletedMessageIds: number[];
  actions: { action: string; atMs: number; threadId?: number }[];
  /** The chat's topics (a forum supergroup's, or a private chat's with topics on), open or closed. */
  topics: Map<number, StoredTopic>;
};

export type CallbackAnswer = { text: string | undefined; showAlert: boolean; url: string | undefined; atMs: number };

export type StoredCallbackQuery = {
  id: string;
  chatId: number;
  messageId: number;
  fromUserId: number;
  data: string;
  answer: CallbackAnswer | undefined;
  /** The button's text when a person tapped it (undefined for forged data), for the transcript. */
  label?: string | undefined;
  /** The chat's newest message when it was tapped: the transcript shows the tap after it. */
  afterMessageId?: number;
};

export type CallRecord = {
  method: string;
  params: Readonly<Record<string, unknown>>;
  atMs: number;
  chatId: number | undefined;
  ok: boolean;
  errorCode?: number;
  description?: string;
};

export type QueuedUpdate = { update_id: number } & Record<string, unknown>;

export type BotIdentity = { id: number; firstName: string; username: string };

export class FakeWorld {
  readonly users = new Map<number, FakeUser>();
  readonly chats = new Map<number, StoredChat>();
  readonly callbackQueries = new Map<string, StoredCallbackQuery>();
  /** Chats whose user blocked the bot: every write answers 403. */
  readonly blockedChats = new Set<number>();
  /** The bot's role in the groups it was added to (setBotRole). */
  readonly botRoles = new Map<number, "member" | "admin">();
  /** Groups whose admins took the bot's right to send messages: every send answers 400. */
  readonly mutedChats = new Set<number>();
  /** Groups that became supergroups, with their new ids: every write answers 400 with the new id. */
  readonly movedChats = new Map<number, number>();
  readonly calls: CallRecord[] = [];
  updates: QueuedUpdate[] = [];
  /** Set by setWebhook: getUpdates is refused (409) while it is. */
  webhookUrl = "";
  nextUpdateId = 100_000_001;
  commands: { command: string; description: string }[] = [];
  readonly files = new FileStore();
  private nextMediaGroup = 1;
  private nextQueryId = 1;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly bot: BotIdentity,
    readonly now: () => number,
  ) {}

  /** Wakes everything waiting for a change (long polls, test waits). */
  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  chat(chatId: number): StoredChat | undefined {
    return this.chats.get(chatId);
  }

  addChat(id: number, type: ChatType, title: string | undefined, memberIds: number[]): StoredChat {
    const existing = this.chats.get(id);
    if (existing !== undefined) {
      for (const member of memberIds) if (!existing.memberIds.includes(member)) existing.memberIds.push(member);
      return existing;
    }
    const chat: StoredChat = {
      id,
      type,
      title,
      memberIds: [...memberIds],
      nextMessageId: 1,
      messages: new Map(),
      deletedMessageIds: [],
      actions: [],
      topics: new Map(),
    };
    this.chats.set(id, chat);
    return chat;
  }

  /** See FakeBotApi.upgradeGroup. */
  upgradeGroup(group: StoredChat, newId: number, notices: boolean): void {
    if (group.type !== "group") throw new Error(`fake Bot API: chat ${group.id} is not a basic group`);
    const supergroup = this.addChat(newId, "supergroup", group.title, group.memberIds);
    this.movedChats.set(group.id, newId);
    if (!notices) return;
    for (const [chat, other] of [
      [group, { migrate_to_chat_id: newId }],
      [supergroup, { migrate_from_chat_id: group.id }],
    ] as const) {
      const message = this.newMessage(chat, { fromUserId: group.memberIds[0], other });
      this.enqueueUpdate("message", this.messageJson(message));
    }
  }

  newMessage(chat: StoredChat, fields: Partial<StoredMessage>): StoredMessage {
    const message: StoredMessage = {
      messageId: chat.nextMessageId++,
      chatId: chat.id,
      fromUserId: undefined,
      dateS: Math.floor(this.now() / 1000),
      text: undefined,
      entities: [],
      html: undefined,
      parseMode: undefined,
      keyboard: undefined,
      replyToMessageId: undefined,
      editDateS: undefined,
      revisions: [],
      ...NO_MEDIA,
      caption: undefined,
      captionEntities: [],
      other: undefined,
      // A reply goes in the topic of the message it replies to.
      threadId:
        fields.replyToMessageId === undefined ? undefined : chat.messages.get(fields.replyToMessageId)?.threadId,
      ...fields,
    };
    message.revisions.push(this.revision(message));
    chat.messages.set(message.messageId, message);
    return message;
  }

  revision(message: StoredMessage): MessageRevision {
    return {
      text: message.text ?? message.caption ?? "",
      html: message.html,
      keyboard: message.keyboard,
      atMs: this.now(),
    };
  }

  newMediaGroupId(): string {
    return `${13_000_000_000_000_000 + this.nextMediaGroup++}`;
  }

  newQueryId(): string {
    return `${4_000_000_000_000_000 + this.nextQueryId++}`;
  }

  enqueueUpdate(kind: string, payload: Record<string, unknown>): number {
    const updateId = this.nextUpdateId++;
    this.updates.push({ update_id: updateId, [kind]: payload });
    this.changed();
    return updateId;
  }

  userJson(userId: number): Record<string, unknown> {
    const user = this.users.get(userId);
    if (user === undefined) throw new Error(`fake Bot API: no user ${userId}; add it first`);
    return {
      id: user.id,
      is_bot: false,
      first_name: user.firstName,
      ...(user.username === undefined ? {} : { username: user.username }),
      language_code: "en",
    };
  }

  botJson(): Record<string, unknown> {
    return { id: this.bot.id, is_bot: true, first_name: this.bot.firstName, username: this.bot.username };
  }

  chatJson(chat: StoredChat): Record<string, unknown> {
    if (chat.type === "private") {
      const user = this.users.get(chat.id);
      return {
        id: chat.id,
        type: "private",
        first_name: user?.firstName ?? "User",
        ...(user?.username === undefined ? {} : { username: user.username }),
      };
    }
    return {
      id: chat.id,
      type: chat.type,
      title: chat.title ?? "Group",
      ...(chat.topics.size > 0 ? { is_forum: true } : {}),
    };
  }

  /** The Bot API's Message object for a stored message (a reply carries its target, one level deep). */
  messageJson(message: StoredMessage, withReply = true): Record<string, unknown> {
    const chat = this.chats.get(message.chatId)!;
    const json: Record<string, unknown> = {
      message_id: message.messageId,
      from: message.fromUserId === undefined ? this.botJson() : this.userJson(message.fromUserId),
      chat: this.chatJson(chat),
      date: message.dateS,
    };
    if (message.editDateS !== undefined) json.edit_date = message.editDateS;
    if (message.threadId !== undefined)
      Object.assign(json, { message_thread_id: message.threadId, is_topic_message: true });
    // In a topic, a message that replies to nothing replies to the topic's first message.
    const replyTo = message.replyToMessageId ?? (message.threadId === message.messageId ? undefined : message.threadId);
    if (withReply && replyTo !== undefined) {
      const target = chat.messages.get(replyTo);
      if (target !== undefined) json.reply_to_message = this.messageJson(target, false);
    }
    if (message.text !== undefined) {
      json.text = message.text;
      if (message.entities.length > 0) json.entities = message.entities;
    }
    Object.assign(json, mediaJson(message, { text: message.caption, entities: message.captionEntities }));
    if (message.keyboard !== undefined) json.reply_markup = message.keyboard;
    return { ...json, ...message.other };
  }
}
