// The storage the scheduler needs, declared here and implemented by src/store (SQLite): the
// scheduler never sees SQL, and tests give it the real repository. Types only.
import type { Schedule, ScheduleKind, ScheduleState } from "./schedule-types.js";

/** What a schedule is for: chosen when it is made, and what a config reload may change. */
type DefinitionKey =
  | "chatId"
  | "project"
  | "session"
  | "timing"
  | "timeZone"
  | "prompt"
  | "note"
  | "recurring"
  | "caps"
  | "overrides"
  | "attended";

/** Where it stands: moved on by every slot, pause, cancel and cost. */
type ProgressKey =
  | "nextFireAt"
  | "lastFiredAt"
  | "lastSlotAt"
  | "iterations"
  | "busyStreak"
  | "costUsd"
  | "costDay"
  | "costDayUsd"
  | "state"
  | "stateReason";

/** What is fixed or chosen when a schedule is made; the counters start at zero. */
export type ScheduleDraft = Pick<
  Schedule,
  DefinitionKey | "kind" | "createdBy" | "nextFireAt" | "state" | "stateReason"
> & {
  /** Generated (8 hex digits) when omitted. */
  readonly id?: string;
};

/** The fields that change after creation. */
export type SchedulePatch = Partial<Pick<Schedule, DefinitionKey | ProgressKey>>;

/** Values the row must still have for an update to apply (compare-and-set). */
export type ScheduleExpectation = Partial<Pick<Schedule, "state" | "nextFireAt">>;

export type ScheduleFilter = Readonly<{
  chatId?: number;
  kinds?: readonly ScheduleKind[];
  states?: readonly ScheduleState[];
}>;

export type ScheduleRepository = {
  insert(draft: ScheduleDraft): Schedule;
  get(id: string): Schedule | null;
  /** Oldest first. */
  list(filter?: ScheduleFilter): Schedule[];
  count(filter?: ScheduleFilter): number;
  /** Active schedules of these kinds whose next slot is at or before `nowMs`, earliest first. */
  listDue(nowMs: number, kinds: readonly ScheduleKind[]): Schedule[];
  /** The earliest next slot among active schedules of these kinds, or null. */
  earliestDue(kinds: readonly ScheduleKind[]): number | null;
  /**
   * Applies `patch` to the row if it still matches `expect`; returns the updated schedule, or
   * null when the row is gone or no longer matches (someone else moved it on).
   */
  update(id: string, patch: SchedulePatch, expect?: ScheduleExpectation): Schedule | null;
  /** Runs `fn` in one transaction. */
  transaction<T>(fn: () => T): T;
};
