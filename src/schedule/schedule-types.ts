// What a schedule is: one type for every kind (a loop Claude asked for, a wake-up chain, a
// config [[schedules]] entry, a chat /at or /every), as stored and as the scheduler fires it. Types only.
import type { PermissionMode } from "../domain/index.js";

/** Where a schedule came from: CronCreate, ScheduleWakeup, the config file, or a person in a chat. */
export type ScheduleKind = "loop" | "wakeup" | "config" | "chat";

/** Kinds Claude makes itself; `[loops] enabled = false` holds these and refuses new ones. */
export const CLAUDE_KINDS: readonly ScheduleKind[] = ["loop", "wakeup"];

/** When it fires. Cron fields are read in the schedule's time zone; `every` counts from its anchor. */
export type ScheduleTiming =
  | Readonly<{ kind: "cron"; cron: string }>
  | Readonly<{ kind: "every"; everyMs: number; anchorMs: number }>
  | Readonly<{ kind: "once"; atMs: number }>;

/** Which session a fire goes into: a fresh one, the chat's current one for the project, or this one. */
export type ScheduleSession =
  Readonly<{ mode: "new" }> | Readonly<{ mode: "continue" }> | Readonly<{ mode: "id"; sessionId: string }>;

/** Who made it: Claude in a turn (the hook's tool use id), the config entry, or a person. */
export type ScheduleCreator =
  | Readonly<{ kind: "claude"; turn: string }>
  | Readonly<{ kind: "config"; configId: string }>
  | Readonly<{ kind: "person"; userId: number }>;

export type ScheduleState = "active" | "paused" | "cancelled" | "done" | "capped";

export const SCHEDULE_STATES: readonly ScheduleState[] = ["active", "paused", "cancelled", "done", "capped"];

/** Why a schedule stopped: a cap it reached, how it finished, or who cancelled it. */
export type CapReason = "iterations" | "lifetime" | "cost";
export type DoneReason = "fired" | "missed" | "stopped_by_claude" | "never_again";
export type CancelReason = "person" | "claude" | "removed_from_config" | "new_session";
export type StateReason = CapReason | DoneReason | CancelReason;

export const STATE_REASONS: readonly StateReason[] = [
  "iterations",
  "lifetime",
  "cost",
  "fired",
  "missed",
  "stopped_by_claude",
  "never_again",
  "person",
  "claude",
  "removed_from_config",
  "new_session",
];

/** Limits fixed when the schedule is made; null: no such limit. */
export type ScheduleCaps = Readonly<{
  maxIterations: number | null;
  /** Epoch ms after which it never fires again (its lifetime). */
  expiresAt: number | null;
  /** Total over all its runs, in USD. */
  maxCostUsd: number | null;
  /** One run's cost, in USD; the run side cancels a run that passes it. */
  maxRunCostUsd: number | null;
  /** One calendar day's cost (in the schedule's zone), in USD; further fires that day are skipped. */
  maxDayCostUsd: number | null;
}>;

export const NO_CAPS: ScheduleCaps = Object.freeze({
  maxIterations: null,
  expiresAt: null,
  maxCostUsd: null,
  maxRunCostUsd: null,
  maxDayCostUsd: null,
});

/** Per-schedule choices for its runs; null: the chat's or the config's. */
export type ScheduleOverrides = Readonly<{
  permissionMode: PermissionMode | null;
  model: string | null;
  /** One of the config's efforts (low … max), checked where it enters. */
  effort: string | null;
}>;

export const NO_OVERRIDES: ScheduleOverrides = Object.freeze({ permissionMode: null, model: null, effort: null });

export type Schedule = Readonly<{
  /** Telecode's id: 8 hex digits for loops and chat schedules (what CronDelete takes), `config:ID` for config entries. */
  id: string;
  kind: ScheduleKind;
  chatId: number;
  project: string;
  session: ScheduleSession;
  timing: ScheduleTiming;
  /** IANA zone the timing is read in. */
  timeZone: string;
  prompt: string;
  /** A short line shown with it: the reason Claude gave for a wake-up. */
  note: string | null;
  /** false: fires once (a one-shot, CronCreate recurring:false, config run_once). */
  recurring: boolean;
  createdBy: ScheduleCreator;
  createdAt: number;
  /** Epoch ms of the next slot; null when nothing is due (stopped, or a wake-up waiting to be re-armed). */
  nextFireAt: number | null;
  /** When a run was last started for it. */
  lastFiredAt: number | null;
  /** The latest slot handled (fired, skipped or missed): a reload never hands it out again. */
  lastSlotAt: number | null;
  /** Runs started so far. */
  iterations: number;
  /** Slots skipped in a row because the session was busy (reset when a run starts). */
  busyStreak: number;
  caps: ScheduleCaps;
  costUsd: number;
  /** The calendar day (YYYY-MM-DD, in its zone) `costDayUsd` is for. */
  costDay: string | null;
  costDayUsd: number;
  state: ScheduleState;
  stateReason: StateReason | null;
  overrides: ScheduleOverrides;
  /** true: its runs may wait for a person's approval; false: what would wait is denied. */
  attended: boolean;
  updatedAt: number;
}>;
