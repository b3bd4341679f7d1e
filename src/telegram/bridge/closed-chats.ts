// Chats Telegram will not let the bot write to: the person blocked it, the group removed it or
// took its right to post, the chat is gone. What starts on its own there (a schedule, a loop, a
// webhook's run) would run unseen, its answer refused, so it is skipped while the chat stays
// closed. The chat opens again with anything from it (a message, a tap, the person unblocking
// the bot), and is then told what was skipped meanwhile.
import type { Context, MiddlewareFn } from "grammy";
import type { ClockFormatter } from "../../domain/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import type { Outbox } from "../outbox.js";

/** Since when, why (for the log), and the schedules and loops whose runs were skipped. */
type Closed = { sinceMs: number; why: string; skipped: Set<string> };

export type ClosedChatsDeps = {
  clock: Clock;
  logger: Logger;
  clockFormatter: ClockFormatter;
  /** The outbox, once it exists. */
  outbox: () => Pick<Outbox, "send">;
};

export class ClosedChats {
  readonly #deps: ClosedChatsDeps;
  readonly #closed = new Map<number, Closed>();

  constructor(deps: ClosedChatsDeps) {
    this.#deps = deps;
  }

  /** Telegram refused a write to the chat for good, saying `why`. */
  closed(chatId: number, why: string): void {
    if (this.#closed.has(chatId)) return;
    this.#closed.set(chatId, { sinceMs: this.#deps.clock.now(), why, skipped: new Set() });
    this.#deps.logger.event("telegram.chat_closed", { chatId, why }, "warn");
  }

  /** Whether a run of schedule (or loop) `scheduleId` in the chat is to be skipped. */
  skips(chatId: number, scheduleId: string): boolean {
    const closed = this.#closed.get(chatId);
    if (closed === undefined) return false;
    closed.skipped.add(scheduleId);
    this.#deps.logger.event("telegram.run_skipped", { chatId, why: closed.why, scheduleId }, "warn");
    return true;
  }

  /** Something came from the chat: it is open again, and is told of the runs skipped meanwhile. */
  heardFrom(chatId: number): void {
    const closed = this.#closed.get(chatId);
    if (closed === undefined) return;
    this.#closed.delete(chatId);
    this.#deps.logger.event("telegram.chat_reopened", { chatId, skipped: closed.skipped.size });
    if (closed.skipped.size === 0) return;
    const since = this.#deps.clockFormatter.moment(closed.sinceMs, this.#deps.clock.now());
    const count = closed.skipped.size;
    const [what, goesOn] =
      count === 1
        ? ["a schedule here did not run", "It goes on at its next time"]
        : [`${count} schedules here did not run`, "They go on at their next times"];
    void this.#deps.outbox().send(chatId, {
      html: `ℹ️ While I could not write here (since ${since}), ${what}, so nothing ran unseen. ${goesOn} (/loops lists them).`,
    });
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
    const status = ctx.myChatMember?.new_chat_member.status;
    if (chat === undefined) return next();
    if (status === "kicked" || status === "left")
      chats.closed(
        chat.id,
        chat.type === "private" ? "the person blocked the bot" : "the bot was removed from the group",
      );
    else chats.heardFrom(chat.id);
    return next();
  };
}
