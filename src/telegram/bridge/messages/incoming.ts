// The first step for a person's text message: read it as the handlers need it, act only on
// what is addressed to the bot (in groups) and fresh enough (sent while Telecode was down for
// long: "send it again"), and leave commands for other bots alone.
import type { Middleware } from "grammy";
import type { Message } from "grammy/types";
import { escapeTelegramHtml } from "../../../render/index.js";
import { isAddressed } from "../access.js";
import { chatSettings } from "../chat-settings.js";
import { mentions, readSlashWord } from "../command-text.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import { markdownOfEntities, quoteBlock } from "../message-markdown.js";
import type { BridgeServices } from "../services.js";
import { wasHeardLive } from "../delivery.js";
import { attachmentOf, voiceOf } from "./attachment-of.js";

/** Messages up to this old are never "offline" ones, whatever the config says (clock skew, slow delivery). */
const MIN_OFFLINE_AGE_MS = 60_000;

/** How old a message may be when Telecode comes back and still be acted on (limits.offline_max_age_minutes). */
export function offlineMaxAgeMs(limits: { offlineMaxAgeMinutes: number }): number {
  return Math.max(MIN_OFFLINE_AGE_MS, limits.offlineMaxAgeMinutes * 60_000);
}

export type AdmitDeps = Pick<
  BridgeServices,
  "config" | "store" | "logger" | "clock" | "outbox" | "control" | "offline"
>;

export function readIncomingText(deps: AdmitDeps): Middleware<TelecodeContext> {
  return (ctx, next) => {
    const message = ctx.message;
    if (message?.text === undefined || ctx.person === undefined) return next();
    const incoming = incomingText(message, message.text, ctx.person, deps.control.botUsername());
    if (!isAdmitted(deps, incoming, standingAlone(message))) return;
    if (incoming.slash?.forOtherBot === true) return;
    ctx.incoming = incoming;
    return next();
  };
}

/**
 * Whether the bot acts on a message: addressed to it (in groups) and fresh enough. One sent
 * while Telecode was down for long is said not to have run (offline.ts), with a button that runs
 * it when `alone`, the message it was read from, stands on its own; one in a group that took the
 * bot's right to send messages is answered in private, as nothing can be said there.
 */
export function isAdmitted(deps: AdmitDeps, incoming: IncomingText, alone?: Message): boolean {
  const config = deps.config();
  if (!isAddressed(incoming, chatSettings(config, deps.store, incoming.chatId).listenToAll)) return false;
  if (deps.control.isMuted(incoming.chatId)) {
    deps.logger.event("telegram.muted_group_message", { chatId: incoming.chatId, messageId: incoming.messageId });
    void deps.outbox.send(incoming.from.id, { html: mutedGroupText(incoming.chatTitle) });
    return false;
  }
  const ageMs = deps.clock.now() - incoming.dateS * 1000;
  if (!incoming.heardLive && ageMs > offlineMaxAgeMs(config.limits)) {
    deps.offline.tell(incoming, ageMs, alone);
    return false;
  }
  return true;
}

/** `message`, when it is a message on its own: not one of several forwarded together. */
export function standingAlone(message: Message): Message | undefined {
  return message.forward_origin === undefined ? message : undefined;
}

/** Said in private to someone who asked for something in a group where the bot may not send messages. */
export function mutedGroupText(title: string | undefined): string {
  const group = title === undefined ? "the group" : `“${escapeTelegramHtml(title)}”`;
  return `I can't post in ${group}: the group took my right to send messages, so I did not act on what you sent there. An admin can give it back (the group's permissions, or make me an admin); then send it again.`;
}

/** A photo's, file's or voice note's message read like text: its caption is the text, and it names no command. */
export function incomingCaption(message: Message, from: IncomingText["from"], botUsername: string): IncomingText {
  return { ...incomingText(message, message.caption ?? "", from, botUsername), slash: undefined };
}

/** A message read as the handlers need it: `text` is its words (its caption, for media). */
export function incomingText(
  message: Message,
  text: string,
  from: IncomingText["from"],
  botUsername: string,
): IncomingText {
  const reply = message.reply_to_message;
  const body = stripMention(text, botUsername);
  const entities = entitiesOf(message);
  const fromBot = reply?.from?.username?.toLowerCase() === botUsername.toLowerCase();
  // What someone else sent comes with the reply; the bot's own answer is in its session already.
  const theirs = fromBot ? undefined : reply;
  const attachment = theirs === undefined ? undefined : attachmentOf(theirs);
  const voice = theirs === undefined ? undefined : voiceOf(theirs);
  const quoted = message.quote?.text ?? (theirs === undefined ? undefined : markdownOf(theirs));
  const quote = quoted === undefined || quoted.trim() === "" ? undefined : quoteBlock(quoted);
  return {
    chatId: message.chat.id,
    chatKind: message.chat.type,
    ...(message.chat.title === undefined ? {} : { chatTitle: message.chat.title }),
    messageId: message.message_id,
    dateS: message.date,
    heardLive: wasHeardLive(message),
    from,
    text,
    body,
    prompt: stripMention(markdownOfEntities(text, entities), botUsername),
    mentionsBot: mentions(text, entities, botUsername),
    // Someone else's words, forwarded: never a command.
    slash: message.forward_origin === undefined ? readSlashWord(body, botUsername) : undefined,
    ...(reply === undefined
      ? {}
      : {
          replyTo: {
            messageId: reply.message_id,
            fromBot,
            text: reply.text ?? reply.caption ?? "",
            ...(attachment === undefined ? {} : { attachment }),
            ...(voice === undefined ? {} : { voice }),
          },
        }),
    ...(quote === undefined ? {} : { quote }),
  };
}

/** A message's formatting: its text's entities, or its caption's. */
function entitiesOf(message: Omit<Message, "reply_to_message">): Message["entities"] {
  return message.text === undefined ? message.caption_entities : message.entities;
}

/** A message's words (its text, else its caption) with their links, code and quotes as Markdown. */
function markdownOf(message: Omit<Message, "reply_to_message">): string {
  return markdownOfEntities(message.text ?? message.caption ?? "", entitiesOf(message));
}

/** `words` as a run's prompt: after what the message quotes, when it quotes anything. */
export function promptWords(message: Pick<IncomingText, "quote">, words: string): string {
  if (message.quote === undefined) return words;
  return words.trim() === "" ? message.quote : `${message.quote}\n\n${words}`;
}

function stripMention(text: string, botUsername: string): string {
  if (botUsername === "") return text;
  return text.replace(new RegExp(`(^|\\s)@${botUsername}\\b`, "gi"), " ").trim();
}
