// What forum topics (chat-topics.ts) and group members' conversations (member-chats.ts) share as
// chats inside a Telegram chat: a message read as one's is given its id, and one is looked up by
// id in memory, else in the store (once).
import { isInnerChatId } from "../domain/index.js";

/** The parts of a Bot API Message that say which chat it is in. */
type Placed = { chat?: { id?: unknown }; reply_to_message?: { chat?: { id?: unknown } } };

/** Gives `message` (and the message it replies to, in the same chat) the chat id `to`. */
export function moveTo(message: Placed, from: number, to: number): void {
  const reply = message.reply_to_message?.chat;
  if (reply?.id === from) reply.id = to;
  message.chat!.id = to;
}

/**
 * The inner chat `chatId`, known already or else read from the store and remembered; undefined
 * for a Telegram chat's id, or an inner chat of another kind.
 */
export function lookUpInner<T>(
  chatId: number,
  known: ReadonlyMap<number, T>,
  stored: (chatId: number) => T | undefined,
  remember: (chat: T) => void,
): T | undefined {
  const found = known.get(chatId);
  if (found !== undefined || !isInnerChatId(chatId)) return found;
  const read = stored(chatId);
  if (read !== undefined) remember(read);
  return read;
}
