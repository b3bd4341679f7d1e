// The bot added to a group by someone it works for says how to reach it there. With Telegram's
// privacy mode on (every bot's default) and no admin rights, Telegram hands a bot only commands
// and replies to its own messages, not @mentions: the greeting says so, and what to do, rather
// than leave the first @mention unanswered with nothing to show why. Made an admin later (or no
// longer one), it says what changed.
import { Composer } from "grammy";
import type { ChatMember } from "grammy/types";
import type { TelecodeContext } from "./context.js";
import type { BridgeServices } from "./services.js";

export function joinedGroups(deps: Pick<BridgeServices, "outbox" | "logger" | "control">): Composer<TelecodeContext> {
  const composer = new Composer<TelecodeContext>();
  composer.on("my_chat_member", (ctx) => {
    const { old_chat_member: before, new_chat_member: after } = ctx.myChatMember;
    if ((ctx.chat.type !== "group" && ctx.chat.type !== "supergroup") || !isIn(after)) return;
    const bot = deps.control.botUsername();
    const [wasAdmin, isAdmin] = [before.status === "administrator", after.status === "administrator"];
    const seesAll = isAdmin || deps.control.readsAllGroupMessages();
    const say = (html: string) => void deps.outbox.send(ctx.chat.id, { html });
    if (!isIn(before)) {
      deps.logger.event("telegram.joined_group", { chatId: ctx.chat.id, admin: isAdmin, seesAll });
      return say(joinedGroupText(bot, seesAll));
    }
    // With privacy mode on, becoming an admin (or no longer one) changes what Telegram hands it.
    if (wasAdmin !== isAdmin && !deps.control.readsAllGroupMessages()) say(adminChangeText(bot, isAdmin));
  });
  return composer;
}

/** What the bot says on joining a group: how to ask it there, given whether it sees every message. */
export function joinedGroupText(bot: string, seesAll: boolean): string {
  return `👋 I'm in. ${howToAsk(bot, seesAll)}`;
}

/** Said when the bot, with privacy mode on, is made an admin of a group it is in, or is no longer one. */
export function adminChangeText(bot: string, isAdmin: boolean): string {
  return isAdmin
    ? `ℹ️ As an admin here I get every message now: ask me with @${bot} and your task.`
    : `ℹ️ I'm no admin here any more. ${howToAsk(bot, false)}`;
}

function howToAsk(bot: string, seesAll: boolean): string {
  if (seesAll) return `Ask me with @${bot} and your task, or reply to one of my messages; /help@${bot} says more.`;
  return `Telegram's privacy mode is on for this bot, so here I get only commands and replies to my messages, not @mentions: start a task with /new@${bot} and your words, or reply to one of my messages. To be asked with @${bot}, make me an admin here (or turn privacy mode off in @BotFather with /setprivacy, then remove me from the group and add me again).`;
}

/** Whether the bot is in the group (a restricted member too: its rights given back is no joining). */
function isIn(member: ChatMember): boolean {
  if (member.status === "restricted") return member.is_member;
  return member.status === "member" || member.status === "administrator" || member.status === "creator";
}
