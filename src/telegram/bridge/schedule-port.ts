// What the bridge needs from the scheduler, declared here so Telegram never imports it: a
// chat's schedules as cards already in words, the person's controls (pause, resume, cancel,
// /at, /every, /new), and the request to start a fired schedule's run. Types only.
import type { Lane, PermissionMode, RunCompleted, RunFailure, StepUsage, TurnOrigin } from "../../domain/index.js";
import type { RunTrigger, SessionChoice } from "../../sessions/index.js";

/** One schedule as the chat shows it. */
export type ScheduleCard = Readonly<{
  id: string;
  /** "loop 3f2a1b0c", "schedule morning-review", "reminder 3f2a1b0c". */
  name: string;
  /** "every 5 minutes · next at 14:35 today · 3 of 50 runs · $0.12 of $5.00". */
  summary: string;
  /** The first line of its prompt. */
  prompt: string;
  paused: boolean;
  /** A config schedule is paused, never cancelled, from a chat. */
  cancellable: boolean;
}>;

export type ScheduleAction = "pause" | "resume" | "cancel";

/** What a tap did: the toast to show and the card as it is now (null: it ended). */
export type ScheduleActionResult = Readonly<{ ok: boolean; toast: string; card: ScheduleCard | null }>;

export type NewChatSchedule = Readonly<{
  chatId: number;
  project: string;
  userId: number;
  command: "at" | "every";
  /** What follows the command: "30m check the deploy". */
  text: string;
}>;

/** A schedule made from the chat, or why not (a usage message: nothing was scheduled). */
export type NewScheduleResult =
  Readonly<{ ok: true; card: ScheduleCard; confirmation: string }> | Readonly<{ ok: false; message: string }>;

/** The person's side of the scheduler. */
export interface ChatSchedules {
  /** The chat's live schedules (loops, wake-ups, /at and /every, config entries), oldest first. */
  list(chatId: number): readonly ScheduleCard[];
  /** One of the chat's schedules as it is now; null once it ended (or when it is not this chat's). */
  card(chatId: number, scheduleId: string): ScheduleCard | null;
  act(chatId: number, scheduleId: string, action: ScheduleAction): ScheduleActionResult;
  create(request: NewChatSchedule): NewScheduleResult;
  /** /new: Claude's loops of the lane follow the chat into its new session. Returns those. */
  followChat(lane: Lane): readonly ScheduleCard[];
  /** `[loops] enabled`: false holds Claude's loops everywhere, whatever a chat says. */
  loopsEnabled(): boolean;
}

/** Every trigger at once (schedules, loops, webhooks): /pause, /resume, and what /status lists. */
export interface TriggerControls {
  isPaused(): boolean;
  /** Holds (true) or releases (false) every trigger, kept across restarts; false when they already were so. */
  setPaused(paused: boolean): boolean;
  /** How many webhook deliveries are kept until /resume. */
  heldDeliveries(): number;
  /** The chat's schedules and webhooks: when each fires next and how its last fire went (plain text). */
  statusLines(chatId: number): readonly string[];
}

/**
 * What started a run nobody typed: a schedule (its Pause and Stop buttons come with the run;
 * `cancellable`: whether Stop cancels it, config schedules are only paused) or a webhook.
 */
export type RunSource =
  Readonly<{ kind: "schedule"; id: string; cancellable: boolean }> | Readonly<{ kind: "webhook"; id: string }>;

/** A run nobody typed (a schedule's fire, a webhook delivery), as a trigger asks the bridge to start it. */
export type ScheduledRun = Readonly<{
  source: RunSource;
  /** "skip": a busy lane skips it (a schedule's iteration); "queue": it waits behind the lane's runs (a delivery). */
  whenBusy: "skip" | "queue";
  chatId: number;
  project: string;
  prompt: string;
  /** Which trigger, which run, how to stop it (plain text). */
  title: string;
  choice: SessionChoice;
  unattended: boolean;
  origin: TurnOrigin;
  mode?: PermissionMode;
  model?: string;
  effort?: string;
  onFinished(completed: RunCompleted): void;
  /** Each model call's tokens while the run goes on (its per-run cost cap watches them). */
  onStep?(step: StepUsage, runId: string): void;
  /** Asked when a queued run would start: why it may no longer (a day cap reached meanwhile), or undefined. */
  mayStart?(): RunFailure | undefined;
  /** What its trigger needs to follow the run again once a restart took it in (kept with the run). */
  detail: RunTrigger;
}>;

/** A trigger's hooks on one of its runs, given back after a restart took the run in. */
export type TriggerRunHooks = Readonly<Pick<ScheduledRun, "onFinished" | "onStep">>;

/**
 * "started": the run is on its way; "queued": it waits behind the lane's runs; "busy": the lane
 * was busy (with `whenBusy: "skip"`, nothing was started); "refused": Telecode is stopping (the
 * chat was told); "no_project".
 */
export type ScheduledRunOutcome = "started" | "queued" | "busy" | "refused" | "no_project";
