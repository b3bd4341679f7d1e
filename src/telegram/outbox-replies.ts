// What each recent message of the bot's answered, per chat, so a message re-sent after the
// person deleted it answers the same one. Kept apart from the chat queues, which the outbox
// drops whenever a chat goes idle (in use, between almost every two progress edits).

/** Replies per chat whose target is remembered (the ones still edited are among the latest). */
const REPLIES_PER_CHAT = 256;
/** Chats remembered; the one written to longest ago is dropped first. */
const CHATS = 1000;

export class ReplyMemory {
  readonly #byChat = new Map<number, Map<number, number>>();

  /** Message `messageId` of chat `chatId` went out as a reply to `replyTo`. */
  sent(chatId: number, messageId: number, replyTo: number): void {
    let replies = this.#byChat.get(chatId);
    if (replies === undefined) replies = new Map();
    else this.#byChat.delete(chatId); // re-inserted: the newest chat last
    this.#byChat.set(chatId, replies);
    if (this.#byChat.size > CHATS) this.#byChat.delete(this.#byChat.keys().next().value as number);
    replies.set(messageId, replyTo);
    if (replies.size > REPLIES_PER_CHAT) replies.delete(replies.keys().next().value as number);
  }

  /** The message that message `messageId` of chat `chatId` answered, when it is remembered. */
  answeredBy(chatId: number, messageId: number): number | undefined {
    return this.#byChat.get(chatId)?.get(messageId);
  }
}
