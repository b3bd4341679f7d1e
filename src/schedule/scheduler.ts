// The one scheduler: one timer armed for the earliest due slot, every fire recorded in the
// store before the run starts, busy sessions skipped, caps enforced, pause and hot reload.
// It starts runs only through the injected `fire`; it knows nothing of Telegram or the engine.
import { ScheduleError } from "./errors.js";
import { syncConfigSchedules, type ConfigScheduleEntry, type ConfigSyncReport } from "./config-sync.js";
import {
  armWakeup,
  createSchedule,
  type CreateResult,
  type NewSchedule,
  type WakeupRequest,
  type WakeupResult,
} from "./create-schedule.js";
import { planDueSlot, type SlotPlan } from "./plan-slot.js";
import type { ScheduleRepository } from "./schedule-store.js";
import {
  CLAUDE_KINDS,
  type CancelReason,
  type Schedule,
  type ScheduleKind,
  type ScheduleSession,
} from "./schedule-types.js";
import type {
  CancelResult,
  FireOutcome,
  FireSchedule,
  SchedulerClock,
  SchedulerEvent,
  SchedulerSettings,
} from "./scheduler-types.js";
import { nextSlot } from "./timing.js";
import { isoDay, localDateTime } from "./zone-clock.js";

/** The longest single timer: far-away slots are reached by re-arming (and a clock jump is noticed). */
export const MAX_TIMER_MS = 3_600_000;
/** How soon to look again after the store failed or a due slot could not be moved on. */
export const RETRY_MS = 60_000;

const ALL_KINDS: readonly ScheduleKind[] = ["loop", "wakeup", "config", "chat"];

export type SchedulerOptions = {
  clock: SchedulerClock;
  repository: ScheduleRepository;
  fire: FireSchedule;
  settings: SchedulerSettings;
  onEvent?: (event: SchedulerEvent) => void;
};

export type CostResult = Readonly<{
  schedule: Schedule;
  /** "day_capped": today's cap is reached, the rest of today's slots are skipped; "capped": the schedule stopped. */
  verdict: "within" | "day_capped" | "capped";
}>;

export type Scheduler = {
  /** Handles slots that came due while Telecode was down (once, within the grace) and arms the timer. */
  start(): void;
  /** Disarms the timer; runs already started are not touched. */
  stop(): void;
  /**
   * The computer woke from a sleep (or its clock was set ahead): the timer, which counts awake
   * time, is not waited out; what came due meanwhile is handled now, as after a restart.
   */
  wake(): void;
  /** Resolves once every fire in flight has settled (for shutdown and tests). */
  whenIdle(): Promise<void>;
  settings(): SchedulerSettings;
  /** Hot reload of [loops] and [schedule]; caps apply to schedules made from now on. */
  updateSettings(settings: SchedulerSettings): void;
  /** Replaces the config's [[schedules]] (start and hot reload). */
  replaceConfigSchedules(entries: readonly ConfigScheduleEntry[]): ConfigSyncReport;
  create(input: NewSchedule): CreateResult;
  armWakeup(input: WakeupRequest): WakeupResult;
  /** ScheduleWakeup {stop: true}: ends the session's wake-up chains; returns those ended. */
  stopWakeups(chatId: number, sessionId: string): Schedule[];
  /**
   * Cancels a loop or chat schedule. With `owner`, only a Claude loop of that chat and session
   * (CronDelete); config schedules are paused, never cancelled, from a chat.
   */
  cancel(id: string, reason: CancelReason, owner?: Readonly<{ chatId: number; sessionId: string }>): CancelResult;
  /**
   * Moves a schedule into another session (a loop whose session could not be resumed started a
   * fresh one); null when there is no such live schedule.
   */
  moveToSession(id: string, session: ScheduleSession): Schedule | null;
  /**
   * The chat started a new session (/new): Claude's live loops of this chat and project follow
   * it (they fire into the chat's session from now on). Returns those moved.
   */
  followChat(chatId: number, project: string): Schedule[];
  /** null when there is no such schedule or it is not active. */
  pause(id: string): Schedule | null;
  /** Resumes from the next slot after now (a paused schedule does not make up for what it skipped). */
  resume(id: string): Schedule | null;
  /**
   * Skips an active recurring schedule's slots until `atMs` (a usage limit's reset): its next
   * run is its first slot after then. null when there is no such schedule.
   */
  deferUntil(id: string, atMs: number): Schedule | null;
  /** Holds or releases every schedule; on release, due slots are handled like after a restart. */
  setPaused(paused: boolean): void;
  /** Adds a finished run's cost (USD) to its schedule and enforces the cost caps; null for an unknown id. */
  recordCost(id: string, usd: number): CostResult | null;
};

export function createScheduler(options: SchedulerOptions): Scheduler {
  const { clock, repository: repo, fire } = options;
  let settings = options.settings;
  let started = false;
  let timer: { cancel(): void } | null = null;
  /** Fires whose outcome is not known yet, by schedule id: a schedule whose fire is still starting is busy. */
  const inFlight = new Map<string, Promise<void>>();
  /** Every outcome still being handled, for whenIdle. */
  const settling = new Set<Promise<void>>();

  const emit = (event: SchedulerEvent): void => options.onEvent?.(event);
  const firingKinds = (): readonly ScheduleKind[] =>
    settings.loopsEnabled ? ALL_KINDS : ALL_KINDS.filter((k) => !CLAUDE_KINDS.includes(k));

  const arm = (retry = false): void => {
    timer?.cancel();
    timer = null;
    if (!started || settings.paused) return;
    const now = clock.now();
    const at = repo.earliestDue(firingKinds());
    if (at === null && !retry) return;
    // A slot still due right after handling means it could not be moved on: look again later.
    const delay = retry || (at !== null && at <= now) ? RETRY_MS : (at ?? now) - now;
    timer = clock.setTimer(Math.min(delay, MAX_TIMER_MS), onTimer);
  };

  const settle = (claimed: Schedule, plan: Extract<SlotPlan, { kind: "fire" }>, outcome: FireOutcome): void => {
    if (outcome === "started") {
      if (plan.capAfter !== null) emit({ type: "capped", schedule: claimed, reason: plan.capAfter });
      return;
    }
    const reverted = repo.update(claimed.id, plan.onBusy, { state: claimed.state, nextFireAt: claimed.nextFireAt });
    // Say so once per streak: the streak before this claim was empty.
    if (reverted !== null && reverted.busyStreak === 1) {
      const retryAt = claimed.recurring ? null : reverted.nextFireAt;
      emit({ type: "skipped_busy", schedule: reverted, slotAt: plan.slotAt, retryAt });
    }
    arm();
  };

  const startFire = (claimed: Schedule, plan: Extract<SlotPlan, { kind: "fire" }>): void => {
    const busyAlready = inFlight.has(claimed.id);
    let outcome: Promise<FireOutcome>;
    try {
      outcome = busyAlready ? Promise.resolve("busy") : Promise.resolve(fire(claimed, plan.iteration));
    } catch (error) {
      outcome = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    const tracked = outcome
      .then(
        (result) => settle(claimed, plan, result),
        (error: unknown) => emit({ type: "fire_failed", schedule: claimed, iteration: plan.iteration, error }),
      )
      .catch((error: unknown) => emit({ type: "scheduler_failed", error }))
      .finally(() => {
        settling.delete(tracked);
        if (inFlight.get(claimed.id) === tracked) inFlight.delete(claimed.id);
      });
    settling.add(tracked);
    if (!busyAlready) inFlight.set(claimed.id, tracked);
  };

  const handleDue = (s: Schedule, now: number): void => {
    const plan = planDueSlot(s, now, settings.graceMs);
    const expect = { state: s.state, nextFireAt: s.nextFireAt };
    if (plan.kind !== "fire") {
      const moved = repo.update(s.id, plan.patch, expect);
      if (moved === null) return;
      if (plan.kind === "capped") emit({ type: "capped", schedule: moved, reason: plan.reason });
      if (plan.kind === "missed")
        emit({ type: "missed", schedule: moved, slotAt: plan.slotAt, slots: plan.slots, busy: plan.busy });
      if (plan.kind === "skipped_day_cost") emit({ type: "skipped_day_cost", schedule: moved, slotAt: plan.slotAt });
      return;
    }
    const claimed = repo.update(s.id, plan.claim, expect);
    if (claimed !== null) startFire(claimed, plan);
  };

  const processDue = (): void => {
    if (!started || settings.paused) return;
    const now = clock.now();
    for (const s of repo.listDue(now, firingKinds())) handleDue(s, now);
  };

  function onTimer(): void {
    timer = null;
    try {
      processDue();
      arm();
    } catch (error) {
      emit({ type: "scheduler_failed", error });
      arm(true);
    }
  }

  /** Handles what is due now and re-arms; for changes made outside the timer. */
  const reschedule = (): void => {
    processDue();
    arm();
  };

  const cancel = (id: string, reason: CancelReason, owner?: { chatId: number; sessionId: string }): CancelResult => {
    const s = repo.get(id);
    if (s === null || (owner !== undefined && s.chatId !== owner.chatId)) return { kind: "not_found", id };
    const claudes = s.kind === "loop" || s.kind === "wakeup";
    // A loop that follows the chat belongs to whichever session the chat is in.
    const sameSession =
      s.session.mode === "continue" || (s.session.mode === "id" && s.session.sessionId === owner?.sessionId);
    if (s.kind === "config" || (owner !== undefined && (!claudes || !sameSession)))
      return { kind: "not_yours", schedule: s };
    if (s.state !== "active" && s.state !== "paused") return { kind: "already_ended", schedule: s };
    const cancelled = repo.update(
      id,
      { state: "cancelled", stateReason: reason, nextFireAt: null },
      { state: s.state },
    );
    if (cancelled === null) return { kind: "already_ended", schedule: repo.get(id) ?? s };
    arm();
    return { kind: "cancelled", schedule: cancelled };
  };

  const recordCost = (id: string, usd: number): CostResult | null => {
    if (!Number.isFinite(usd) || usd < 0)
      throw new ScheduleError("schedule.invalid_input", `A run's cost must be 0 or more USD (got ${usd}).`, {
        details: { scheduleId: id, usd },
      });
    const result = repo.transaction((): CostResult | null => {
      const s = repo.get(id);
      if (s === null) return null;
      const today = isoDay(localDateTime(clock.now(), s.timeZone));
      const dayBefore = s.costDay === today ? s.costDayUsd : 0;
      const costUsd = s.costUsd + usd;
      const costDayUsd = dayBefore + usd;
      const live = s.state === "active" || s.state === "paused";
      const overTotal = live && s.caps.maxCostUsd !== null && costUsd >= s.caps.maxCostUsd;
      const cap = s.caps.maxDayCostUsd;
      const overDay = cap !== null && dayBefore < cap && costDayUsd >= cap;
      const stop = overTotal ? ({ state: "capped", stateReason: "cost", nextFireAt: null } as const) : {};
      const updated = repo.update(id, { costUsd, costDay: today, costDayUsd, ...stop }) ?? s;
      return { schedule: updated, verdict: overTotal ? "capped" : overDay ? "day_capped" : "within" };
    });
    if (result?.verdict === "capped") {
      emit({ type: "capped", schedule: result.schedule, reason: "cost" });
      arm();
    }
    return result;
  };

  return {
    start() {
      started = true;
      reschedule();
    },
    stop() {
      started = false;
      timer?.cancel();
      timer = null;
    },
    wake() {
      if (!started) return;
      timer?.cancel();
      onTimer();
    },
    async whenIdle() {
      while (settling.size > 0) await Promise.all(settling);
    },
    settings: () => settings,
    updateSettings(next) {
      settings = next;
      reschedule();
    },
    replaceConfigSchedules(entries) {
      const report = syncConfigSchedules(repo, entries, clock.now());
      reschedule();
      return report;
    },
    create(input) {
      const result = createSchedule(repo, settings, input, clock.now());
      if (result.ok) arm();
      return result;
    },
    armWakeup(input) {
      const result = armWakeup(repo, settings, input, clock.now());
      if (!result.ok && "capped" in result) emit({ type: "capped", ...result.capped });
      if (result.ok) arm();
      return result;
    },
    stopWakeups(chatId, sessionId) {
      const live = repo.list({ chatId, kinds: ["wakeup"], states: ["active", "paused"] });
      const stopped = live
        .filter((s) => s.session.mode === "continue" || (s.session.mode === "id" && s.session.sessionId === sessionId))
        .flatMap((s) => repo.update(s.id, { state: "done", stateReason: "stopped_by_claude", nextFireAt: null }) ?? []);
      arm();
      return stopped;
    },
    cancel,
    moveToSession(id, session) {
      const s = repo.get(id);
      if (s === null || (s.state !== "active" && s.state !== "paused")) return null;
      return repo.update(id, { session }, { state: s.state });
    },
    followChat(chatId, project) {
      const live = repo.list({ chatId, kinds: CLAUDE_KINDS, states: ["active", "paused"] });
      return live
        .filter((s) => s.project === project && s.session.mode === "id")
        .flatMap((s) => repo.update(s.id, { session: { mode: "continue" } }, { state: s.state }) ?? []);
    },
    pause(id) {
      const paused = repo.update(id, { state: "paused" }, { state: "active" });
      if (paused !== null) arm();
      return paused;
    },
    resume(id) {
      const s = repo.get(id);
      if (s === null || s.state !== "paused") return null;
      const now = clock.now();
      const nextFireAt = s.timing.kind === "once" ? s.timing.atMs : nextSlot(s.timing, s.timeZone, now);
      const resumed = repo.update(id, { state: "active", busyStreak: 0, nextFireAt }, { state: "paused" });
      if (resumed !== null) reschedule();
      return resumed;
    },
    deferUntil(id, atMs) {
      const s = repo.get(id);
      if (s === null || s.state !== "active" || s.timing.kind === "once") return null;
      const nextFireAt = nextSlot(s.timing, s.timeZone, Math.max(atMs, clock.now()));
      const deferred = repo.update(id, { nextFireAt }, { state: "active" });
      if (deferred !== null) reschedule();
      return deferred;
    },
    setPaused(paused) {
      settings = { ...settings, paused };
      reschedule();
    },
    recordCost,
  };
}
