// What the bridge's middleware knows about an update beyond grammY's Context: who sent it
// (set by access control) and, for a text message, the text as the handlers read it.
import type { Context } from "grammy";
import type { Requester } from "../../sessions/index.js";
import type { SlashWord } from "./command-text.js";
import type { Attachment, VoiceNote } from "./media-port.js";

export type ChatKind = "private" | "group" | "supergroup" | "channel";

/** An allowed person: their id and how outcomes name them ("Allowed (Ann)"). */
export type Person = { id: number; name: string };

/** The person as the run they ask for records them. */
export const requesterOf = (person: Person): Requester => ({ userId: person.id, name: person.name });

/** A person's text message, as the handlers read it. */
export type IncomingText = {
  chatId: number;
  chatKind: ChatKind;
  /** A group's name (undefined for a private chat). */
  chatTitle?: string;
  messageId: number;
  /** Telegram's date: seconds since the epoch. */
  dateS: number;
  /** It reached Telecode while it was listening (delivery.ts): sent moments ago, whatever its date says. */
  heardLive: boolean;
  from: Person;
  /** The text as sent. */
  text: string;
  /** The text with the bot's @mention taken out: what commands read. */
  body: string;
  /** The body with its links, code and quotes as Markdown: what a run or an answer is given. */
  prompt: string;
  /** The message it replies to, when it is a reply, with its photo, file or voice note when not the bot's. */
  replyTo?: { messageId: number; fromBot: boolean; text: string; attachment?: Attachment; voice?: VoiceNote };
  /** What a run reads before the words (a Markdown quote): see `promptWords`. */
  quote?: string;
  /** The bot was @mentioned in it. */
  mentionsBot: boolean;
  /** The body's leading "/word", when it starts with one. */
  slash: SlashWord | undefined;
};

export type TelecodeFlavor = {
  /** Set by access control for every update it lets through. */
  person?: Person;
  /** Set for a text message the bot is to act on (addressed, not too old). */
  incoming?: IncomingText;
};

export type TelecodeContext = Context & TelecodeFlavor;
