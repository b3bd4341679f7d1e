// What a person's text message carries besides its words, as Telegram builds it: the entities
// it finds by itself (a leading command, @mentions), a quote of the message replied to, and
// where a forwarded message came from, and who a message sent as a chat names.
import type { Entity, StoredMessage } from "./state.js";

/** Where a forwarded message came from: a person who hides their account, as many do. */
export function forwardOrigin(name: string): Record<string, unknown> {
  return { type: "hidden_user", sender_user_name: name, date: Math.floor(Date.now() / 1000) - 3600 };
}

/** Telegram's TextQuote: the quoted words must be in the text (or caption) of the message replied to. */
export function quoteOf(target: StoredMessage | undefined, quote: string): Record<string, unknown> {
  const position = (target?.text ?? target?.caption ?? "").indexOf(quote);
  if (position < 0) throw new Error(`fake Bot API: "${quote}" is not in the message replied to`);
  return { text: quote, position, is_manual: true };
}

/** The entities Telegram marks in a person's text: a leading bot command and @mentions. */
export function userEntities(text: string): Entity[] {
  const entities: Entity[] = [];
  const command = /^\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?/.exec(text);
  if (command !== null) entities.push({ type: "bot_command", offset: 0, length: command[0].length });
  for (const mention of text.matchAll(/(?<![\w@/])@[A-Za-z0-9_]{4,32}/g)) {
    entities.push({ type: "mention", offset: mention.index, length: mention[0].length });
  }
  return entities;
}

/** A message sent as the group itself (an anonymous admin), or as a channel of the person's. */
export type SentAs = "group" | { channelId: number; title: string };

/** Telegram's stand-ins: `from` is one of its own bots, `sender_chat` the chat sent as. */
export function sentAsChat(as: SentAs, group: Record<string, unknown>): Record<string, unknown> {
  if (as === "group")
    return {
      from: { id: 1087968824, is_bot: true, first_name: "Group", username: "GroupAnonymousBot" },
      sender_chat: group,
    };
  return {
    from: { id: 136817688, is_bot: true, first_name: "Channel", username: "Channel_Bot" },
    sender_chat: { id: as.channelId, title: as.title, type: "channel" },
  };
}
