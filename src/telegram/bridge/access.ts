// Who may use the bot, as the first middleware: only configured user ids get past it (their
// name is put on the context); strangers are logged and, in a private chat, told once that the
// bot is private (a tap, anywhere, in a toast only they see). Starts nothing. In groups the bot
// acts only on messages addressed to it.
import type { Middleware } from "grammy";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../ports/index.js";
import type { Outbox } from "../outbox.js";
import type { ChatKind, IncomingText, TelecodeContext } from "./context.js";

export const NOT_AUTHORISED_TEXT = "This is a private Telecode bot; it only answers the people it was set up for.";
/** A stranger's tap (in a group the buttons are in everyone's view): their spinner stops with this. */
export const NOT_AUTHORISED_TAP_TEXT = "Only the people this Telecode bot was set up for can use its buttons.";

export type AccessDeps = { config: () => Config; logger: Logger; outbox: Outbox };

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
    if (from === undefined || (!isTap && from.is_bot)) return;
    if (!deps.config().telegram.allowedUserIds.includes(from.id)) {
      const chat = ctx.callbackQuery?.message?.chat ?? ctx.chat;
      refuse(chat?.id, chat?.type, from.id, ctx.callbackQuery?.id);
      return;
    }
    ctx.person = { id: from.id, name: displayNameOf(from) };
    return next();
  };
}

/** In a group the bot acts only on messages addressed to it (or on all, when the chat asked). */
export function isAddressed(message: IncomingText, listenToAll: boolean): boolean {
  if (message.chatKind === "private" || listenToAll) return true;
  return message.mentionsBot || message.replyTo?.fromBot === true || message.text.trimStart().startsWith("/");
}

/** How a person is named in outcomes ("Allowed (Ann)"): first name, else @username, else the id. */
export function displayNameOf(user: { id: number; first_name?: string; username?: string }): string {
  const name = user.first_name?.trim();
  if (name) return name;
  return user.username ? `@${user.username}` : String(user.id);
}
