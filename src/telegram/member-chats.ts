// telegram.group_sessions = "per_person": in a group's main view, each member has a conversation
// of their own, a chat inside the group to Telecode (as a forum topic is, chat-topics.ts): its
// own session, runs, settings once they change one, schedules and worktree. What a member
// writes there is read as in their conversation; a reply to one of the bot's messages, and a tap
// on its buttons, as in the conversation that message is of, whoever sends it, so a reply to a
// colleague's answer continues theirs. Which conversation each bot message in a group's main
// view is of is kept in the store, so replies and taps find it after a restart too. With
// "shared", the group's main view is one conversation (a reply to a message of a member's
// conversation, from before, still continues that one).

import { isInnerChatId } from "../domain/index.js";
import type { Logger } from "../ports/index.js";
import type { ChatsRepository, MemberChatRecord } from "../store/index.js";
import { lookUpInner, moveTo } from "./inner-chats.js";

export type MemberChatsStore = Pick<
  ChatsRepository,
  "memberChat" | "memberChatById" | "recordGroupMessage" | "groupMessageChat"
>;

/** The parts of a Bot API Message that say whose conversation it is of. */
export type MemberMessage = {
  message_id?: unknown;
  chat?: { id?: unknown };
  from?: { id?: unknown; is_bot?: unknown };
  reply_to_message?: MemberMessage;
};

/**
 * What a person writes (words, media, a file, a voice note, a checklist, and what the bot cannot
 * read): the messages read as in the writer's conversation. Telegram's notices (a member joined,
 * the group became a supergroup) stay the group's.
 */
const WRITTEN: readonly string[] = [
  "text",
  "photo",
  "document",
  "video",
  "video_note",
  "voice",
  "audio",
  "animation",
  "checklist",
  "sticker",
  "location",
  "venue",
  "contact",
  "poll",
  "dice",
  "game",
  "story",
];

/** A Telegram group's own chat id (not a private chat's, nor an inner chat's). */
const isGroup = (chatId: number): boolean => chatId < 0 && !isInnerChatId(chatId);

export class MemberChats {
  readonly #byId = new Map<number, MemberChatRecord>();
  readonly #byMember = new Map<string, MemberChatRecord>();
  readonly #store: MemberChatsStore;
  readonly #hasOwn: (userId: number) => boolean;
  readonly #logger: Logger;

  /**
   * `hasOwn`: whether what member `userId` writes goes to a conversation of their own (read per
   * message: each allowed user's, while group_sessions is "per_person").
   */
  constructor(store: MemberChatsStore, hasOwn: (userId: number) => boolean, logger: Logger) {
    this.#store = store;
    this.#hasOwn = hasOwn;
    this.#logger = logger;
  }

  /** The group a member's conversation is in; undefined for any other chat. */
  parentOf(chatId: number): number | undefined {
    return this.#lookUp(chatId)?.parentChatId;
  }

  /**
   * The bot wrote message `messageId` for chat `chatId`: kept when it is in a group's main view.
   * Never throws (the message is sent): one the store refuses is logged, and a reply to it later
   * starts the replier's own conversation.
   */
  wrote(chatId: number, messageId: number): void {
    const group = this.parentOf(chatId) ?? (isGroup(chatId) ? chatId : undefined);
    if (group === undefined) return;
    try {
      this.#store.recordGroupMessage(group, messageId, chatId);
    } catch (error) {
      this.#logger.event("telegram.group_message_unkept", { err: error, chatId, messageId }, "error");
    }
  }

  /**
   * Reads a message in a group's main view as in the conversation it is of: one under a tapped
   * button (`tapped`) or replied to, else the writer's own when each member has one.
   */
  read(message: MemberMessage, tapped: boolean): void {
    const chatId = message.chat?.id;
    if (typeof chatId !== "number" || !isGroup(chatId)) return;
    const written = (of: MemberMessage | undefined) =>
      typeof of?.message_id === "number" ? this.#store.groupMessageChat(chatId, of.message_id) : undefined;
    const to = tapped ? written(message) : (written(message.reply_to_message) ?? this.#writersOwn(chatId, message));
    if (to !== undefined && to !== chatId) moveTo(message, chatId, to);
  }

  #writersOwn(chatId: number, message: MemberMessage): number | undefined {
    const from = message.from;
    if (typeof from?.id !== "number" || from.is_bot === true || !this.#hasOwn(from.id)) return undefined;
    if (!WRITTEN.some((field) => field in message)) return undefined;
    const key = `${chatId}:${from.id}`;
    const chat = this.#byMember.get(key) ?? this.#store.memberChat(chatId, from.id);
    this.#remember(chat);
    return chat.chatId;
  }

  #lookUp(chatId: number): MemberChatRecord | undefined {
    const stored = (id: number) => this.#store.memberChatById(id);
    return lookUpInner(chatId, this.#byId, stored, (chat) => this.#remember(chat));
  }

  #remember(chat: MemberChatRecord): void {
    this.#byId.set(chat.chatId, chat);
    this.#byMember.set(`${chat.parentChatId}:${chat.userId}`, chat);
  }
}
