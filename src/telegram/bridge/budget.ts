// [budget] in the chats: a run does not start while its chat's or all chats' spending today has
// reached its cap (a person's request is kept, with Retry), and is stopped while it works once
// it, its chat or the day reaches one; the chat is told once when spending nears a cap. What was
// spent today is what SQLite recorded of ended runs plus what the running ones have cost so far,
// each model call priced at list prices as it comes (Claude Code reports a cost only at the end).
import {
  anyCap,
  capsNear,
  capsReached,
  capStandings,
  estimateStepCostUsd,
  localDay,
  nearWords,
  notStartedWords,
  stoppedWords,
  type BudgetCap,
  type CapStanding,
  type OfferedPrices,
  type RunFailure,
  type Spent,
  type StepUsage,
} from "../../domain/index.js";
import type { Config } from "../../config/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { SessionManager } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import type { Outbox } from "../outbox.js";

export type BudgetDeps = {
  config: () => Config;
  store: Store;
  clock: Clock;
  logger: Logger;
  outbox: Outbox;
  sessions: Pick<SessionManager, "cancel">;
  /** What the running CLI states a model costs, for one Telecode's table does not know. */
  prices: OfferedPrices;
};

/** A run's chat, and the message its notes quote (the request), if any. */
export type BudgetRun = { chatId: number; replyTo?: number | undefined };

type LiveRun = BudgetRun & { usd: number; stopped: boolean; warned: Set<BudgetCap> };

/** What to do about a run a cap stopped or did not start. */
const HINTS = {
  perRun: "Raise per_run_usd in the config (no restart needed) to let runs go further.",
  dayCaps:
    "Until midnight on this computer new messages do not run (each gets a Retry button); raising the cap in the config (no restart needed) lifts that.",
  retry: "Raise the cap in the config (no restart needed) and tap Retry, or tap it after midnight.",
  trigger: "Raise the cap in the config (no restart needed) to let such runs start.",
} as const;

export class Budget {
  readonly #deps: BudgetDeps;
  readonly #live = new Map<string, LiveRun>();
  /** The day and chat caps the chats were warned of, and the day that was. */
  #warned = { day: "", caps: new Set<string>() };

  constructor(deps: BudgetDeps) {
    this.#deps = deps;
  }

  /**
   * Why a run in `chatId` may not start now (a day's cap reached), or undefined. `keep`: a
   * person's request, which is kept and offered Retry.
   */
  refusal(chatId: number, keep: boolean): RunFailure | undefined {
    const caps = this.#deps.config().budget;
    if (caps.perChatUsd === null && caps.perDayUsd === null) return undefined;
    const reached = capsReached(caps, this.#spent(chatId, 0))[0];
    if (reached === undefined) return undefined;
    this.#deps.logger.event("telegram.budget_refused", { chatId, ...reached });
    return {
      reason: "over_budget",
      what: notStartedWords(reached),
      hint: keep ? HINTS.retry : HINTS.trigger,
      ...(keep ? { retry: true as const } : {}),
    };
  }

  /** One model call of a run: counted; the run stopped at a cap it reaches, the chat warned near one. */
  step(runId: string, run: BudgetRun, step: StepUsage): void {
    const live = this.#live.get(runId) ?? { ...run, usd: 0, stopped: false, warned: new Set() };
    this.#live.set(runId, live);
    live.usd += estimateStepCostUsd(step, this.#deps.prices);
    const caps = this.#deps.config().budget;
    // Without caps nothing is read: what runs cost is counted all the same, for a cap set later today.
    if (live.stopped || !anyCap(caps)) return;
    const spent = this.#spent(run.chatId, live.usd);
    const reached = capsReached(caps, spent)[0];
    if (reached !== undefined) {
      live.stopped = true;
      this.#stop(runId, live, reached);
      return;
    }
    for (const near of capsNear(caps, spent))
      if (this.#firstWarning(near.cap, live)) this.#say(live, `⚠️ ${esc(nearWords(near))}`);
  }

  /** The run ended: from now on what SQLite recorded of it counts. */
  finished(runId: string): void {
    this.#live.delete(runId);
  }

  /** Every cap that is set, with what was spent against it today (`per_run_usd`: the cap alone). */
  standings(chatId: number): CapStanding[] {
    return capStandings(this.#deps.config().budget, this.#spent(chatId, 0));
  }

  #stop(runId: string, live: LiveRun, reached: CapStanding): void {
    const { logger, sessions } = this.#deps;
    logger.event("telegram.budget_stopped", { runId, chatId: live.chatId, ...reached }, "warn");
    const hint = reached.cap === "per_run_usd" ? HINTS.perRun : HINTS.dayCaps;
    this.#say(live, `⏹ ${esc(stoppedWords(reached))} ${esc(hint)}`);
    sessions
      .cancel(runId)
      .catch((error: unknown) => logger.event("telegram.budget_cancel_failed", { err: error, runId }, "error"));
  }

  /** Whether the chat is yet to be warned of `cap`: once a run for its own cap, once a day for the day's. */
  #firstWarning(cap: BudgetCap, live: LiveRun): boolean {
    if (cap === "per_run_usd") {
      const first = !live.warned.has(cap);
      live.warned.add(cap);
      return first;
    }
    const day = this.#today();
    if (this.#warned.day !== day) this.#warned = { day, caps: new Set() };
    const key = cap === "per_chat_usd" ? `${cap} ${live.chatId}` : cap;
    const first = !this.#warned.caps.has(key);
    this.#warned.caps.add(key);
    return first;
  }

  #say(run: BudgetRun, html: string): void {
    void this.#deps.outbox.send(run.chatId, { html }, run.replyTo === undefined ? {} : { replyTo: run.replyTo });
  }

  /**
   * What was spent against each cap: `runUsd` by the run, and today by its chat and by all
   * (running runs included). What SQLite cannot tell counts as nothing (logged): a failed read
   * does not stop the work.
   */
  #spent(chatId: number, runUsd: number): Spent {
    const { store, logger } = this.#deps;
    const today = this.#today();
    let chat = 0;
    let day = 0;
    try {
      chat = store.usage.forChatDay(chatId, today);
      day = store.usage.forDay(today).costUsd;
    } catch (error) {
      logger.event("telegram.budget_read_failed", { err: error, chatId }, "error");
    }
    for (const live of this.#live.values()) {
      day += live.usd;
      if (live.chatId === chatId) chat += live.usd;
    }
    return { run: runUsd, chat, day };
  }

  /** Today on this computer's calendar, as /usage counts it. */
  #today(): string {
    return localDay(new Date(this.#deps.clock.now()));
  }
}
