// Who may use the bot: only configured user ids; in groups only when addressed (mention,
// reply to the bot, command) unless the chat listens to all. Strangers are logged and, in a
// private chat, told once that the bot is private. Decides and tells; starts nothing.
import type { Config } from "../../config/index.js";
import type { Logger } from "../../ports/index.js";
import type { Outbox } from "../outbox.js";
import type { ChatKind, IncomingText } from "./bridge-types.js";

export const NOT_AUTHORISED_TEXT = "This is a private Telecode bot; it only answers the people it was set up for.";

export type Access = {
  isAllowed(userId: number): boolean;
  /** A stranger wrote or tapped: logs it and, once per private chat, says the bot is private. */
  refuse(kind: "message" | "tap", chatId: number | undefined, chatKind: ChatKind | undefined, userId: number): void;
  /** In a group the bot acts only on messages addressed to it (or on all, when the chat asked). */
  isAddressed(message: IncomingText, listenToAll: boolean): boolean;
};

export function createAccess(deps: { config: () => Config; logger: Logger; outbox: Outbox }): Access {
  const told = new Set<number>();
  return {
    isAllowed: (userId) => deps.config().telegram.allowedUserIds.includes(userId),
    refuse(kind, chatId, chatKind, userId) {
      deps.logger.event("telegram.unauthorised", { kind, userId, chatId }, "warn");
      if (chatId === undefined || chatKind !== "private" || kind !== "message") return;
      if (!deps.config().telegram.notifyUnauthorised || told.has(chatId)) return;
      told.add(chatId);
      void deps.outbox.send(chatId, { html: NOT_AUTHORISED_TEXT });
    },
    isAddressed(message, listenToAll) {
      if (message.chatKind === "private" || listenToAll) return true;
      return message.mentionsBot || message.replyTo?.fromBot === true || message.text.trimStart().startsWith("/");
    },
  };
}

/** How a person is named in outcomes ("Allowed (Ann)"): first name, else @username, else the id. */
export function displayNameOf(user: { id: number; first_name?: string; username?: string }): string {
  const name = user.first_name?.trim();
  if (name) return name;
  return user.username ? `@${user.username}` : String(user.id);
}
