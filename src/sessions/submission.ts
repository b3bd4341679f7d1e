// What the session manager is asked and answers: a submission (a run to start or queue), the
// outcome of a submit or cancel, a kept run taken in after a restart, and a lane's status.
import type { Lane, PermissionMode, Prompt, RunFailure, TurnOrigin } from "../domain/index.js";
import type { ActiveRun, OpenSettings } from "./lane-entry.js";
import type { Requester, RunObserver, RunTrigger, SessionChoice, SessionHandle } from "./ports.js";

export type Submission = {
  lane: Lane;
  prompt: Prompt;
  cwd: string;
  mode: PermissionMode;
  model?: string;
  effort?: string;
  choice: SessionChoice;
  unattended?: boolean;
  /** Whose turn the message starts (default "person"): a fired schedule's run says so in its turn events. */
  origin?: TurnOrigin;
  /** What started a run nobody typed, recorded with it (see RunInput). */
  trigger?: RunTrigger;
  /** The person who asked for it, recorded with it (see RunInput). */
  requester?: Requester;
  /**
   * Asked as the run leaves the queue: why it may no longer start (a webhook's day cap was
   * reached while it waited), or undefined. A refused run ends unstarted with that failure.
   */
  mayStart?: () => RunFailure | undefined;
  /**
   * What must be ready before the run's session opens (the lane's worktree), awaited as it
   * starts; a rejection ends the run unstarted with the failure it carries.
   */
  prepare?: () => Promise<void>;
  observer: RunObserver;
  /** The run's id when the front end has one already (a kept request submitted again after a restart). */
  runId?: string;
  /** The front end's id of the message that asked for the run, kept with it. */
  promptMessageId?: number;
};

export type SubmitOutcome =
  | { state: "started"; runId: string }
  | { state: "queued"; runId: string; position: number }
  | { state: "refused"; reason: string };

export type CancelOutcome = "cancelled" | "dequeued" | "not_found";

/** A run that was in flight when Telecode stopped, whose kept process ran on: taken in by `adopt`. */
export type AdoptedRun = {
  lane: Lane;
  /** Its handle, already over the re-attached process (the engine's adoptSession). */
  handle: SessionHandle;
  /** What the handle was opened with: a later run with other settings gets a fresh handle. */
  settings: OpenSettings;
  sessionId: string | undefined;
  run: ActiveRun;
};

export type SessionStatus = {
  lane: Lane;
  sessionId: string | undefined;
  pid: number | undefined;
  runningRunId: string | undefined;
  queued: number;
  mode: PermissionMode;
  /** The running run's process is kept: it survives a restart of Telecode. */
  kept: boolean;
};
