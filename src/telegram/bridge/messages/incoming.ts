// The first step for a person's text message: read it as the handlers need it, act only on
// what is addressed to the bot (in groups) and fresh enough (sent while Telecode was down for
// long: "send it again"), and leave commands for other bots alone.
import type { Middleware } from "grammy";
import type { Message } from "grammy/types";
import { isAddressed } from "../access.js";
import { chatSettings } from "../chat-settings.js";
import { readSlashWord } from "../command-text.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import { markdownOfEntities, quoteBlock } from "../message-markdown.js";
import type { BridgeServices } from "../services.js";
import { attachmentOf, voiceOf } from "./attachment-of.js";

/** Messages up to this old are never "offline" ones, whatever the config says (clock skew, slow delivery). */
const MIN_OFFLINE_AGE_MS = 60_000;

/** How old a message may be when Telecode comes back and still be acted on (limits.offline_max_age_minutes). */
export function offlineMaxAgeMs(limits: { offlineMaxAgeMinutes: number }): number {
  return Math.max(MIN_OFFLINE_AGE_MS, limits.offlineMaxAgeMinutes * 60_000);
}

export type AdmitDeps = Pick<BridgeServices, "config" | "store" | "logger" | "clock" | "outbox" | "control">;

export function readIncomingText(deps: AdmitDeps): Middleware<TelecodeContext> {
  return (ctx, next) => {
    const message = ctx.message;
    if (message?.text === undefined || ctx.person === undefined) return next();
    const incoming = incomingText(message, message.text, ctx.person, deps.control.botUsername());
    if (!isAdmitted(deps, incoming)) return;
    if (incoming.slash?.forOtherBot === true) return;
    ctx.incoming = incoming;
    return next();
  };
}

/**
 * Whether the bot acts on a message: addressed to it (in groups) and fresh enough. One sent
 * while Telecode was down for long is answered "send it again" instead.
 */
export function isAdmitted(deps: AdmitDeps, incoming: IncomingText): boolean {
  const config = deps.config();
  if (!isAddressed(incoming, chatSettings(config, deps.store, incoming.chatId).listenToAll)) return false;
  const ageMs = deps.clock.now() - incoming.dateS * 1000;
  if (ageMs > offlineMaxAgeMs(config.limits)) {
    deps.logger.event("telegram.offline_message", { chatId: incoming.chatId, messageId: incoming.messageId, ageMs });
    void deps.outbox.send(
      incoming.chatId,
      { html: "I was offline when you sent this; send it again if you still want it." },
      { replyTo: incoming.messageId },
    );
    return false;
  }
  return true;
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
  const username = botUsername.toLowerCase();
  const reply = message.reply_to_message;
  const body = stripMention(text, botUsername);
  const entities = message.text === undefined ? message.caption_entities : message.entities;
  const fromBot = reply?.from?.username?.toLowerCase() === username;
  const attachment = reply === undefined || fromBot ? undefined : attachmentOf(reply);
  const voice = reply === undefined || fromBot ? undefined : voiceOf(reply);
  const quote = quoteOf(message, fromBot);
  return {
    chatId: message.chat.id,
    chatKind: message.chat.type,
    messageId: message.message_id,
    dateS: message.date,
    from,
    text,
    body,
    prompt: stripMention(markdownOfEntities(text, entities), botUsername),
    mentionsBot: (entities ?? []).some(
      (e) => e.type === "mention" && text.slice(e.offset + 1, e.offset + e.length).toLowerCase() === username,
    ),
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

/**
 * What Claude should read before the message's words: the part of a message the person
 * quoted, else the whole message they reply to when it is not the bot's (a colleague's, a
 * forwarded one, their own). A reply to the bot's answer continues its session instead.
 */
function quoteOf(message: Message, fromBot: boolean): string | undefined {
  const reply = message.reply_to_message;
  const quoted =
    message.quote?.text ??
    (reply === undefined || fromBot
      ? undefined
      : reply.text !== undefined
        ? markdownOfEntities(reply.text, reply.entities)
        : markdownOfEntities(reply.caption ?? "", reply.caption_entities));
  return quoted === undefined || quoted.trim() === "" ? undefined : quoteBlock(quoted);
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
