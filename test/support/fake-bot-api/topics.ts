// Forum topics in the fake: a supergroup's, or a private chat's (a bot with topics turned on).
// People create, rename, close, reopen and delete them, each with Telegram's notice in the
// topic; the bot writes into one with message_thread_id, or by replying to a message in it, and
// is refused as Telegram refuses it (a closed topic, a deleted one). Messages in General, or in
// a chat without topics, are in no topic.
import { view, type MessageView } from "./message-view.js";
import { badRequest, type Params } from "./params.js";
import type { FakeWorld, StoredChat, StoredTopic } from "./state.js";

/** Telegram's default topic colour (blue), as it reports it for a topic created without one. */
const ICON_COLOR = 7322096;

/** The thread a bot's message goes to: the topic of the message it replies to, else the one it names. */
export function threadFor(chat: StoredChat, params: Params, replyTo: number | undefined): number | undefined {
  const named = params.optionalInt("message_thread_id");
  if (named !== undefined) writableTopic(chat, named);
  const thread = replyTo === undefined ? named : chat.messages.get(replyTo)?.threadId;
  if (thread !== undefined) writableTopic(chat, thread);
  return thread;
}

function writableTopic(chat: StoredChat, threadId: number): StoredTopic {
  const topic = chat.topics.get(threadId);
  if (topic === undefined) throw badRequest("message thread not found");
  if (topic.closed) throw badRequest("TOPIC_CLOSED");
  return topic;
}

export class FakeTopics {
  constructor(
    private readonly world: FakeWorld,
    private readonly sender: (chatId: number, from: number | undefined) => number,
  ) {}

  /** A person creates a topic (turning topics on in the chat, if they were off); returns its thread id. */
  create(chatId: number, name: string, options: { from?: number } = {}): number {
    const chat = this.chat(chatId);
    const message = this.world.newMessage(chat, {
      fromUserId: this.sender(chatId, options.from),
      other: { forum_topic_created: { name, icon_color: ICON_COLOR } },
    });
    message.threadId = message.messageId;
    chat.topics.set(message.messageId, { threadId: message.messageId, name, closed: false });
    this.world.enqueueUpdate("message", this.world.messageJson(message));
    return message.messageId;
  }

  rename(chatId: number, threadId: number, name: string): void {
    this.topic(chatId, threadId).name = name;
    this.notice(chatId, threadId, { forum_topic_edited: { name } });
  }

  /** People may no longer write in it, nor the bot (which is no admin here). */
  close(chatId: number, threadId: number): void {
    this.topic(chatId, threadId).closed = true;
    this.notice(chatId, threadId, { forum_topic_closed: {} });
  }

  reopen(chatId: number, threadId: number): void {
    this.topic(chatId, threadId).closed = false;
    this.notice(chatId, threadId, { forum_topic_reopened: {} });
  }

  /** The topic and every message in it are gone; Telegram tells the bot nothing. */
  delete(chatId: number, threadId: number): void {
    const chat = this.chat(chatId);
    this.topic(chatId, threadId);
    chat.topics.delete(threadId);
    for (const message of [...chat.messages.values()])
      if (message.threadId === threadId) {
        chat.messages.delete(message.messageId);
        chat.deletedMessageIds.push(message.messageId);
      }
    this.world.changed();
  }

  /** The messages in a topic (undefined: in General, or in no topic), oldest first. */
  messages(chatId: number, threadId: number | undefined): MessageView[] {
    return [...this.chat(chatId).messages.values()].filter((m) => m.threadId === threadId).map(view);
  }

  botMessages(chatId: number, threadId: number | undefined): MessageView[] {
    return this.messages(chatId, threadId).filter((m) => m.fromBot);
  }

  private notice(chatId: number, threadId: number, other: Record<string, unknown>): void {
    const chat = this.chat(chatId);
    const message = this.world.newMessage(chat, { fromUserId: this.sender(chatId, undefined), other, threadId });
    this.world.enqueueUpdate("message", this.world.messageJson(message));
  }

  private topic(chatId: number, threadId: number): StoredTopic {
    const topic = this.chat(chatId).topics.get(threadId);
    if (topic === undefined) throw new Error(`fake Bot API: chat ${chatId} has no topic ${threadId}`);
    return topic;
  }

  private chat(chatId: number): StoredChat {
    const chat = this.world.chat(chatId);
    if (chat === undefined) throw new Error(`fake Bot API: no chat ${chatId}; add its user or group first`);
    if (chat.type === "group") throw new Error(`fake Bot API: chat ${chatId} is a basic group, which has no topics`);
    return chat;
  }
}
