// What the bridge needs from the scheduler, declared here so Telegram never imports it: a
// chat's schedules as cards already in words, the person's controls (pause, resume, cancel,
// /at, /every, /new), and the request to start a fired schedule's run. Types only.
import type { Lane, PermissionMode, RunCompleted, TurnOrigin } from "../../domain/index.js";
import type { SessionChoice } from "../../sessions/index.js";

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
  act(chatId: number, scheduleId: string, action: ScheduleAction): ScheduleActionResult;
  create(request: NewChatSchedule): NewScheduleResult;
  /** /new: Claude's loops of the lane follow the chat into its new session. Returns those. */
  followChat(lane: Lane): readonly ScheduleCard[];
  /** `[loops] enabled`: false holds Claude's loops everywhere, whatever a chat says. */
  loopsEnabled(): boolean;
}

/** A fired schedule's run, as the scheduler's fire asks the bridge to start it. */
export type ScheduledRun = Readonly<{
  scheduleId: string;
  chatId: number;
  project: string;
  prompt: string;
  /** Which schedule, which run, how to stop it (plain text). */
  title: string;
  /** Whether its Stop button cancels it (config schedules are only paused). */
  cancellable: boolean;
  choice: SessionChoice;
  unattended: boolean;
  origin: TurnOrigin;
  mode?: PermissionMode;
  model?: string;
  effort?: string;
  onFinished(completed: RunCompleted): void;
}>;

/** "started": the run is on its way; "busy": the lane was busy (the iteration is skipped); "no_project". */
export type ScheduledRunOutcome = "started" | "busy" | "no_project";
