// Chats Telegram will not let the bot write to: the person blocked it, the group removed it or
// took its right to post, the chat is gone. What starts on its own there (a schedule, a loop, a
// webhook's run) would run unseen, its answer refused, so it is skipped while the chat stays
// closed. The chat opens again with anything from it (a message, a tap, the person unblocking
// the bot), and is then told what was skipped meanwhile. A forum's topics close and open with it.
//
// A group that took the bot's right to send messages is different: its people go on writing
// there, and only Telegram's word that the bot may send again opens it. A task asked there
// meanwhile is not run (nobody could see it): the person who asked is told so in private.
import type { Context, MiddlewareFn } from "grammy";
import type { ClockFormatter } from "../../domain/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import type { Outbox } from "../outbox.js";

/**
 * Since when, why (for the log), whether only the bot's rights given back open it (`muted`), and
 * the schedules and loops whose runs were skipped, by chat.
 */
type Closed = { sinceMs: number; why: string; muted: boolean; skipped: Map<number, Set<string>> };

export type ClosedChatsDeps = {
  clock: Clock;
  logger: Logger;
  clockFormatter: ClockFormatter;
  /** The outbox, once it exists. */
  outbox: () => Pick<Outbox, "send">;
  /** The Telegram chat a chat is in: a forum topic's forum, else itself. */
  parentOf: (chatId: number) => number;
};

export class ClosedChats {
  readonly #deps: ClosedChatsDeps;
  readonly #closed = new Map<number, Closed>();

  constructor(deps: ClosedChatsDeps) {
    this.#deps = deps;
  }

  /** Telegram refused a write to the chat for good, saying `why`; `muted`: a group took the bot's right to send messages. */
  closed(chatId: number, why: string, muted = false): void {
    const home = this.#deps.parentOf(chatId);
    if (this.#closed.has(home)) return;
    this.#closed.set(home, { sinceMs: this.#deps.clock.now(), why, muted, skipped: new Map() });
    this.#deps.logger.event("telegram.chat_closed", { chatId: home, why }, "warn");
  }

  /** Whether a run of schedule (or loop) `scheduleId` in the chat is to be skipped. */
  skips(chatId: number, scheduleId: string): boolean {
    const closed = this.#closed.get(this.#deps.parentOf(chatId));
    if (closed === undefined) return false;
    const skipped = closed.skipped.get(chatId) ?? new Set();
    closed.skipped.set(chatId, skipped.add(scheduleId));
    this.#deps.logger.event("telegram.run_skipped", { chatId, why: closed.why, scheduleId }, "warn");
    return true;
  }

  /** Whether the chat is a group that took the bot's right to send messages. */
  isMuted(chatId: number): boolean {
    return this.#closed.get(this.#deps.parentOf(chatId))?.muted === true;
  }

  /**
   * Something came from the chat: it is open again, and is told of the runs skipped meanwhile.
   * A muted group opens only with Telegram's word about the bot's own standing (`membership`).
   */
  heardFrom(chatId: number, membership: boolean): void {
    const home = this.#deps.parentOf(chatId);
    const closed = this.#closed.get(home);
    if (closed === undefined || (closed.muted && !membership)) return;
    this.#closed.delete(home);
    this.#deps.logger.event("telegram.chat_reopened", { chatId: home, skipped: closed.skipped.size });
    const since = this.#deps.clockFormatter.moment(closed.sinceMs, this.#deps.clock.now());
    for (const [where, skipped] of closed.skipped) {
      const [what, goesOn] =
        skipped.size === 1
          ? ["a schedule here did not run", "It goes on at its next time"]
          : [`${skipped.size} schedules here did not run`, "They go on at their next times"];
      void this.#deps.outbox().send(where, {
        html: `ℹ️ While I could not write here (since ${since}), ${what}, so nothing ran unseen. ${goesOn} (/loops lists them).`,
      });
    }
  }
}

/**
 * Reads what every update says about the chat it comes from: Telegram's word that the bot was
 * blocked or removed (my_chat_member) closes it, anything else from it opens it again.
 */
export function watchClosedChats(chats: ClosedChats): MiddlewareFn<Context> {
  return (ctx, next) => {
    // grammY's ctx.chat: a message's, a tap's message's, or the my_chat_member update's chat.
    const chat = ctx.chat;
    const member = ctx.myChatMember?.new_chat_member;
    if (chat === undefined) return next();
    if (member?.status === "kicked" || member?.status === "left")
      chats.closed(
        chat.id,
        chat.type === "private" ? "the person blocked the bot" : "the bot was removed from the group",
      );
    else if (member?.status === "restricted" && !member.can_send_messages)
      chats.closed(chat.id, "the group took the bot's right to send messages", true);
    else chats.heardFrom(chat.id, member !== undefined);
    return next();
  };
}
