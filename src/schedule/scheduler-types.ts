// The scheduler's ports and what it reports: the clock it is given, the fire callback that
// starts a run, its settings (from [loops] and [schedule]) and its events. Types only.
import type { LoopCaps } from "./caps.js";
import type { CapReason, Schedule } from "./schedule-types.js";

/** The injected clock, by shape (the engine's Clock fits). */
export type SchedulerClock = {
  /** Epoch ms. */
  now(): number;
  /** Calls `fn` once after `ms` unless cancelled; must not keep the process alive. */
  setTimer(ms: number, fn: () => void): { cancel(): void };
};

/** "started": a run began for this iteration; "busy": the session was busy, so the iteration is skipped. */
export type FireOutcome = "started" | "busy";

/**
 * Starts the run for one iteration. Called after the fire is recorded in the store, so a crash
 * never repeats it; a rejection is reported as `fire_failed` and not retried.
 */
export type FireSchedule = (schedule: Schedule, iteration: number) => FireOutcome | Promise<FireOutcome>;

export type SchedulerSettings = Readonly<{
  /** `[loops] enabled`: false refuses Claude's new loops and holds the existing ones. */
  loopsEnabled: boolean;
  /** `[loops] attended`: whether new loops and chat schedules wait for a person's approvals. */
  attended: boolean;
  caps: LoopCaps;
  /** How late a slot may still fire (after a restart or a pause); older slots are reported missed. */
  graceMs: number;
  /** `[schedule] paused`: nothing fires; slots are kept and handled on resume. */
  paused: boolean;
  /** `[schedule] timezone`, resolved: loops and chat schedules are read in it. */
  defaultTimeZone: string;
}>;

export type SchedulerEvent =
  | Readonly<{
      /** The session was busy at this slot; sent for the first skip in a row only. */
      type: "skipped_busy";
      schedule: Schedule;
      slotAt: number;
      /** When a one-shot tries again; null for a recurring schedule (it waits for its next slot). */
      retryAt: number | null;
    }>
  | Readonly<{
      /** Slots passed more than the grace ago (Telecode was down or paused, the computer slept); sent once. */
      type: "missed";
      schedule: Schedule;
      /** The latest missed slot. */
      slotAt: number;
      /** How many slots were missed (counted up to 1000). */
      slots: number;
      /** A one-shot that waited for the busy chat past the grace, rather than a slot Telecode could not fire. */
      busy: boolean;
    }>
  | Readonly<{ type: "capped"; schedule: Schedule; reason: CapReason }>
  | Readonly<{
      /** Today's runs reached its day cost cap: this slot starts nothing (the chat was told when the cap was reached). */
      type: "skipped_day_cost";
      schedule: Schedule;
      slotAt: number;
    }>
  | Readonly<{ type: "fire_failed"; schedule: Schedule; iteration: number; error: unknown }>
  | Readonly<{
      /** The store failed while handling due slots; the scheduler tries again in a minute. */
      type: "scheduler_failed";
      error: unknown;
    }>;

/** What cancelling gave; `not_yours` when the schedule belongs to another session or is not Claude's. */
export type CancelResult =
  | Readonly<{ kind: "cancelled"; schedule: Schedule }>
  | Readonly<{ kind: "not_found"; id: string }>
  | Readonly<{ kind: "not_yours"; schedule: Schedule }>
  | Readonly<{ kind: "already_ended"; schedule: Schedule }>;
