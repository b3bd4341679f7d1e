// Forum topics (a supergroup's, or a private chat's when the bot has topics turned on) are
// separate conversations to the people in them, so each is a chat of its own to Telecode: its
// own session, settings (its group's until it changes one), schedules and runs, and a run in
// one does not hold up another. Telegram names a topic by its chat and thread; Telecode knows
// it by an id of its own, kept in the store below every Telegram chat id. Updates are read with
// a topic's messages renamed to that id, and the outbox writes to the chat and thread it stands
// for. General, a forum's first topic, is the chat itself.
//
// A topic Telegram will not take messages in (closed, or deleted) is set aside: what Telecode
// has for it goes to the chat's main view instead, until the topic is reopened. A reply there to
// one of those messages, or a tap on its buttons, is read as in the topic.
//
// A group's main view may hold chats of its own too, each member's conversation
// (member-chats.ts): what is not a topic's is read through them, and they are placed here.

import { isInnerChatId } from "../domain/index.js";
import type { TopicRecord } from "../store/index.js";
import { lookUpInner, moveTo } from "./inner-chats.js";
import type { MemberChats } from "./member-chats.js";

export type TopicsStore = {
  topic(parentChatId: number, threadId: number, name: string | null): TopicRecord;
  topicById(chatId: number): TopicRecord | undefined;
  nameTopic(chatId: number, name: string): void;
};

/**
 * Where a chat's messages are written: a Telegram chat (as kept), and the thread of a topic; or,
 * for a topic set aside, the chat's main view (`aside`).
 */
export type Place = { chatId: number; threadId?: number; aside?: true };

type TopicName = { name?: unknown } | undefined;

/** Told of a topic whose writes go to its chat's main view from now on: closed, or else deleted. */
export type SetAside = (topic: TopicRecord, closed: boolean) => void;

/** The parts of a Bot API Message that say which topic it is in. */
type MessageJson = {
  message_id?: unknown;
  chat?: { id?: unknown };
  message_thread_id?: unknown;
  is_topic_message?: unknown;
  reply_to_message?: MessageJson;
  forum_topic_created?: TopicName;
  forum_topic_edited?: TopicName;
  forum_topic_reopened?: object;
};

export class ChatTopics {
  readonly #byId = new Map<number, TopicRecord>();
  readonly #byPlace = new Map<string, TopicRecord>();
  /** Topics Telegram refused a write to, written to in their chat's main view meanwhile. */
  readonly #setAside = new Set<number>();
  /**
   * Messages in a chat's main view that belong to a topic set aside (written there for it, and
   * replies to those): "chat:message" → the topic's id.
   */
  readonly #writtenAside = new Map<string, number>();
  readonly #store: TopicsStore;
  readonly #onSetAside: SetAside;
  readonly #members: MemberChats | undefined;

  /**
   * `known`: the topics seen before. `onSetAside`: told when writes to a topic start going to its
   * chat. `members`: the members' conversations in groups' main views, where there are any.
   */
  constructor(known: readonly TopicRecord[], store: TopicsStore, onSetAside: SetAside, members?: MemberChats) {
    for (const topic of known) this.#remember(topic);
    this.#store = store;
    this.#onSetAside = onSetAside;
    this.#members = members;
  }

  /** The topic Telecode knows by `chatId`; undefined for any other chat. */
  topic(chatId: number): TopicRecord | undefined {
    return this.#lookUp(chatId);
  }

  /** The Telegram chat (as kept) that `chatId` is in: a topic's forum, a member's group, else the chat itself. */
  parentOf(chatId: number): number {
    return this.#lookUp(chatId)?.parentChatId ?? this.#members?.parentOf(chatId) ?? chatId;
  }

  /** Where the messages of `chatId` are written now. */
  placeOf(chatId: number): Place {
    const topic = this.#lookUp(chatId);
    if (topic === undefined) return { chatId: this.parentOf(chatId) };
    if (this.#setAside.has(chatId)) return { chatId: topic.parentChatId, aside: true };
    return { chatId: topic.parentChatId, threadId: topic.threadId };
  }

  /**
   * Telegram refused a write to topic `chatId` (`closed`, or else deleted): its messages go to its
   * chat's main view until it is reopened. Returns false when `chatId` is no topic, or one already
   * set aside.
   */
  refused(chatId: number, closed: boolean): boolean {
    const topic = this.#lookUp(chatId);
    if (topic === undefined || this.#setAside.has(chatId)) return false;
    this.#setAside.add(chatId);
    this.#onSetAside(topic, closed);
    return true;
  }

  /**
   * The outbox wrote message `messageId` for chat `chatId`: one of a topic set aside, in its chat's
   * main view, is remembered as the topic's; one in a group's main view as its conversation's.
   */
  wrote(chatId: number, messageId: number): void {
    const topic = this.#lookUp(chatId);
    if (topic === undefined) return this.#members?.wrote(chatId, messageId);
    if (this.#setAside.has(chatId)) this.#writtenAside.set(`${topic.parentChatId}:${messageId}`, chatId);
  }

  /** Whether message `messageId` of topic `chatId` is in its chat's main view (one a reply there can quote). */
  inMainView(chatId: number, messageId: number): boolean {
    const topic = this.#lookUp(chatId);
    return topic !== undefined && this.#writtenAside.get(`${topic.parentChatId}:${messageId}`) === chatId;
  }

  /**
   * Reads an update as Telecode keeps its chats: a message in a topic (a person's, or the bot's
   * under a button tapped) is renamed to the topic's id. The topic's first message, which
   * Telegram gives every message in it as the one it replies to, is no reply.
   */
  readUpdate(update: object): void {
    const { message, edited_message: edited, callback_query: query } = update as Record<string, unknown>;
    const tapped = (query as { message?: unknown } | undefined)?.message;
    for (const each of [message, edited, tapped])
      if (typeof each === "object" && each !== null) this.#read(each, each === tapped);
  }

  #read(message: MessageJson, tapped: boolean): void {
    const chatId = message.chat?.id;
    const threadId = message.message_thread_id;
    if (typeof chatId !== "number" || isInnerChatId(chatId)) return; // read already (handled again after a restart)
    // A thread of replies in a group without topics has an id too: only a topic's counts.
    if (message.is_topic_message !== true || typeof threadId !== "number") {
      if (!this.#readAside(message, chatId)) this.#members?.read(message, tapped);
      return;
    }
    const opening = message.reply_to_message?.forum_topic_created;
    const topic = this.#topicAt(chatId, threadId, nameOf(opening ?? message.forum_topic_created));
    const renamed = nameOf(message.forum_topic_edited);
    if (renamed !== null) this.#rename(topic, renamed);
    if (message.forum_topic_reopened !== undefined) this.#setAside.delete(topic.chatId);
    if (opening !== undefined) delete message.reply_to_message;
    moveTo(message, chatId, topic.chatId);
  }

  /**
   * A message in a chat's main view that is (or replies to) a message written there for a topic
   * set aside: read as the topic's. Returns whether it was.
   */
  #readAside(message: MessageJson, chatId: number): boolean {
    const written = (id: unknown) => this.#writtenAside.get(`${chatId}:${String(id)}`);
    const topicId = written(message.message_id) ?? written(message.reply_to_message?.message_id);
    if (topicId === undefined) return false;
    this.#writtenAside.set(`${chatId}:${String(message.message_id)}`, topicId);
    moveTo(message, chatId, topicId);
    return true;
  }

  /** A topic by id, also one the store gave out elsewhere (a config's schedule in a topic). */
  #lookUp(chatId: number): TopicRecord | undefined {
    return lookUpInner(
      chatId,
      this.#byId,
      (id) => this.#store.topicById(id),
      (topic) => this.#remember(topic),
    );
  }

  /** The topic at `threadId` of chat `chatId`, given an id the first time; named when it had no name. */
  #topicAt(chatId: number, threadId: number, name: string | null): TopicRecord {
    const topic = this.#byPlace.get(`${chatId}:${threadId}`) ?? this.#store.topic(chatId, threadId, name);
    this.#remember(topic);
    return topic.name === null && name !== null ? this.#rename(topic, name) : topic;
  }

  #rename(topic: TopicRecord, name: string): TopicRecord {
    if (topic.name === name) return topic;
    this.#store.nameTopic(topic.chatId, name);
    const renamed = { ...topic, name };
    this.#remember(renamed);
    return renamed;
  }

  #remember(topic: TopicRecord): void {
    this.#byId.set(topic.chatId, topic);
    this.#byPlace.set(`${topic.parentChatId}:${topic.threadId}`, topic);
  }
}

function nameOf(named: TopicName): string | null {
  return typeof named?.name === "string" && named.name !== "" ? named.name : null;
}
