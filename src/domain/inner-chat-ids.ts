// Chats inside a Telegram chat are chats of their own to Telecode, under ids of its own: a forum
// topic, and a group member's own conversation (telegram.group_sessions = "per_person").
// Telegram's chat ids stay within ±2^41, so these are numbered down from FIRST_INNER_CHAT_ID,
// where no Telegram chat is.

export const FIRST_INNER_CHAT_ID = -(2 ** 48);

/** Whether `chatId` is one of Telecode's ids for a chat inside a Telegram chat (a topic, a member's). */
export function isInnerChatId(chatId: number): boolean {
  return chatId < FIRST_INNER_CHAT_ID;
}
