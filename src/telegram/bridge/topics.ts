// The bridge's side of forum topics (chat-topics.ts) and of members' own conversations in groups
// (member-chats.ts): both are kept in the store, so a restart still knows each by the same id;
// every update is read through them (after the chat moves); and a topic Telegram stops taking
// messages in is said so, once, in its chat's main view, where its messages go from then on.
import type { Context, MiddlewareFn } from "grammy";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../ports/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import type { Store, TopicRecord } from "../../store/index.js";
import { ChatTopics } from "../chat-topics.js";
import { MemberChats } from "../member-chats.js";
import type { Outbox } from "../outbox.js";

export type TopicsDeps = {
  store: Pick<Store, "chats">;
  logger: Logger;
  config: () => Config;
  /** The outbox, once it exists (it writes through the topics made here). */
  outbox: () => Pick<Outbox, "send">;
};

/**
 * The topics seen so far, keeping each new one and saying when one refuses messages; and the
 * members' conversations, each allowed member's own while telegram.group_sessions is "per_person"
 * (a stranger's message stays the group's, where access control turns it away).
 */
export function chatTopicsOf(deps: TopicsDeps): ChatTopics {
  const hasOwn = (userId: number): boolean => {
    const { groupSessions, allowedUserIds } = deps.config().telegram;
    return groupSessions === "per_person" && allowedUserIds.includes(userId);
  };
  const members = new MemberChats(deps.store.chats, hasOwn, deps.logger);
  const setAside = (topic: TopicRecord, closed: boolean) => {
    const { chatId, parentChatId, threadId } = topic;
    deps.logger.event("telegram.topic_set_aside", { chatId, parentChatId, threadId, closed }, "warn");
    void deps.outbox().send(parentChatId, { html: topicSetAsideText(topic, closed) });
  };
  return new ChatTopics(deps.store.chats.topics(), deps.store.chats, setAside, members);
}

/** Said in the chat's main view: which topic, closed or gone (as Telegram said), and what happens now. */
export function topicSetAsideText(topic: Pick<TopicRecord, "name">, closed: boolean): string {
  const which = topic.name === null ? "A topic of this chat" : `The topic “${escapeTelegramHtml(topic.name)}”`;
  return closed
    ? `ℹ️ ${which} was closed, so I write what I have for it here instead, until it is reopened.`
    : `ℹ️ ${which} is gone (Telegram says it was deleted), so I write what I have for it here instead.`;
}

/** Reads every update through the topics and members' conversations. */
export function readThroughTopics(topics: ChatTopics): MiddlewareFn<Context> {
  return (ctx, next) => {
    topics.readUpdate(ctx.update);
    return next();
  };
}
