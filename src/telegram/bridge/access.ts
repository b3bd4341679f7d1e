// Who may use the bot, as the first middleware: only configured user ids get past it (their
// name is put on the context); strangers are logged and, in a private chat, told once that the
// bot is private (a tap, anywhere, in a toast only they see). Starts nothing. In groups the bot
// acts only on messages addressed to it; one addressed to it that a group sent as itself (an
// anonymous admin) or as a channel names nobody, and is answered with how to send it as yourself.
import type { Middleware } from "grammy";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../ports/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import type { Outbox } from "../outbox.js";
import { mentions } from "./command-text.js";
import type { ChatKind, IncomingText, TelecodeContext } from "./context.js";

export const NOT_AUTHORISED_TEXT = "This is a private Telecode bot; it only answers the people it was set up for.";
/** A stranger's tap (in a group the buttons are in everyone's view): their spinner stops with this. */
export const NOT_AUTHORISED_TAP_TEXT = "Only the people this Telecode bot was set up for can use its buttons.";

/** What a message sent as the group itself (an anonymous admin) is answered with. */
export const ANONYMOUS_ADMIN_TEXT =
  "I can't tell who sent this: it came from the group itself, as an anonymous admin's message does. I only take tasks from the people I was set up for, so send it with “Remain anonymous” off in your admin rights (whoever made you an admin can change it).";

/** What a message sent as a channel is answered with (`title`: the channel's, as HTML). */
export const sentAsChannelText = (title: string): string =>
  `I can't tell who sent this: it was sent as the channel “${title}”. I only take tasks from the people I was set up for: send it as yourself (the picture beside the message field picks who you send as), then send it again.`;

export type AccessDeps = {
  config: () => Config;
  logger: Logger;
  outbox: Outbox;
  control: { botUsername(): string };
};

export function accessControl(deps: AccessDeps): Middleware<TelecodeContext> {
  const told = new Set<number>();
  /** `queryId`: the stranger's tap, when it was one (else a message). */
  const refuse = (
    chatId: number | undefined,
    chatKind: ChatKind | undefined,
    userId: number,
    queryId: string | undefined,
  ) => {
    const kind = queryId === undefined ? "message" : "tap";
    deps.logger.event("telegram.unauthorised", { kind, userId, chatId }, "warn");
    if (!deps.config().telegram.notifyUnauthorised) return;
    if (queryId !== undefined) {
      void deps.outbox.answerCallback(queryId, { text: NOT_AUTHORISED_TAP_TEXT });
      return;
    }
    if (chatId === undefined || chatKind !== "private" || told.has(chatId)) return;
    told.add(chatId);
    void deps.outbox.send(chatId, { html: NOT_AUTHORISED_TEXT });
  };
  return (ctx, next) => {
    const from = ctx.from;
    const isTap = ctx.callbackQuery !== undefined;
    if (from === undefined) return;
    if (!isTap && from.is_bot) return answerSentAsChat(deps, ctx);
    if (!deps.config().telegram.allowedUserIds.includes(from.id)) {
      // A stranger blocking the bot, or adding it to a group, asks nothing of it.
      if (ctx.myChatMember !== undefined) return;
      const chat = ctx.callbackQuery?.message?.chat ?? ctx.chat;
      refuse(chat?.id, chat?.type, from.id, ctx.callbackQuery?.id);
      return;
    }
    ctx.person = { id: from.id, name: displayNameOf(from) };
    return next();
  };
}

/**
 * A message a group sent as itself or as a channel (its `from` is Telegram's stand-in bot):
 * when it is addressed to this bot, the answer says why nothing happens and what to do.
 */
function answerSentAsChat(deps: AccessDeps, ctx: TelecodeContext): void {
  const message = ctx.message;
  const sender = message?.sender_chat;
  if (message === undefined || sender === undefined) return;
  const text = message.text ?? message.caption ?? "";
  const bot = deps.control.botUsername();
  const addressed = isAddressed(
    {
      chatKind: message.chat.type,
      text,
      mentionsBot: mentions(text, message.entities ?? message.caption_entities, bot),
      replyTo: { fromBot: message.reply_to_message?.from?.username?.toLowerCase() === bot.toLowerCase() },
    },
    false,
  );
  deps.logger.event("telegram.sent_as_chat", { chatId: message.chat.id, senderChatId: sender.id, addressed }, "warn");
  if (!addressed || !deps.config().telegram.notifyUnauthorised) return;
  const html =
    sender.id === message.chat.id ? ANONYMOUS_ADMIN_TEXT : sentAsChannelText(escapeTelegramHtml(sender.title ?? ""));
  void deps.outbox.send(message.chat.id, { html }, { replyTo: message.message_id });
}

/** In a group the bot acts only on messages addressed to it (or on all, when the chat asked). */
export function isAddressed(
  message: Pick<IncomingText, "chatKind" | "text" | "mentionsBot"> & { replyTo?: { fromBot: boolean } },
  listenToAll: boolean,
): boolean {
  if (message.chatKind === "private" || listenToAll) return true;
  return message.mentionsBot || message.replyTo?.fromBot === true || message.text.trimStart().startsWith("/");
}

/** How a person is named in outcomes ("Allowed (Ann)"): first name, else @username, else the id. */
export function displayNameOf(user: { id: number; first_name?: string; username?: string }): string {
  const name = user.first_name?.trim();
  if (name) return name;
  return user.username ? `@${user.username}` : String(user.id);
}
