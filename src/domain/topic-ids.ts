// Forum topics are chats of their own to Telecode, under ids of its own: Telegram's chat ids stay
// within ±2^41, so topics are numbered down from FIRST_TOPIC_ID, where no Telegram chat is.

export const FIRST_TOPIC_ID = -(2 ** 48);

/** Whether `chatId` is one of Telecode's ids for a forum topic. */
export function isTopicId(chatId: number): boolean {
  return chatId < FIRST_TOPIC_ID;
}
