// The bridge's side of forum topics (chat-topics.ts): topics are kept in the store, so a restart
// still knows each by the same id; every update is read through them (after the chat moves);
// and a topic Telegram stops taking messages in is said so, once, in its chat's main view,
// where its messages go from then on.
import type { Context, MiddlewareFn } from "grammy";
import type { Logger } from "../../ports/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import type { Store, TopicRecord } from "../../store/index.js";
import { ChatTopics } from "../chat-topics.js";
import type { Outbox } from "../outbox.js";

export type TopicsDeps = {
  store: Pick<Store, "chats">;
  logger: Logger;
  /** The outbox, once it exists (it writes through the topics made here). */
  outbox: () => Pick<Outbox, "send">;
};

/** The topics seen so far, keeping each new one and saying when one refuses messages. */
export function chatTopicsOf(deps: TopicsDeps): ChatTopics {
  return new ChatTopics(deps.store.chats.topics(), deps.store.chats, (topic) => {
    const { chatId, parentChatId, threadId } = topic;
    deps.logger.event("telegram.topic_set_aside", { chatId, parentChatId, threadId }, "warn");
    void deps.outbox().send(parentChatId, { html: topicSetAsideText(topic) });
  });
}

export function topicSetAsideText(topic: Pick<TopicRecord, "name">): string {
  const name = topic.name === null ? "one of this chat's topics" : `the topic “${escapeTelegramHtml(topic.name)}”`;
  return `ℹ️ Telegram no longer lets me write in ${name} (it was closed or deleted), so what I have for it comes here instead. Reopen the topic and it goes there again.`;
}

/** Reads every update through the topics. */
export function readThroughTopics(topics: ChatTopics): MiddlewareFn<Context> {
  return (ctx, next) => {
    topics.readUpdate(ctx.update);
    return next();
  };
}
