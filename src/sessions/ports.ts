// What the session layer needs from the outside, declared here so it never imports a
// concrete adapter: an engine that opens session handles and a store that records them (the
// clock comes from src/ports). The composition root (src/cli) passes the real ones in.
import type {
  Lane,
  McpSignInEnd,
  McpSignInStart,
  PermissionMode,
  Prompt,
  SideAnswer,
  SideExchange,
  TelecodeEvent,
  TurnOrigin,
  WrittenDown,
} from "../domain/index.js";

/** How the next run picks its CLI conversation. */
export type SessionChoice =
  | { kind: "current" } // the lane's live handle, else resume its last session, else a new one
  | { kind: "new" } // a fresh conversation
  | { kind: "continue" } // the most recent conversation in the project directory (`--continue`)
  | { kind: "resume"; sessionId: string }; // a specific conversation (reply to an older message)

/** What started a run nobody typed, as its front end described it: the session layer only keeps it. */
export type RunTrigger = Readonly<Record<string, unknown>>;

/**
 * What a run was asked, as the records keep it so a restart can run it (or send its words
 * again, or take it in with its trigger's view and limits): the prompt (words or blocks), the
 * permission mode, the session choice, and for a run nobody typed, that nobody watches it and
 * what started it.
 */
export type RunInput = {
  prompt: Prompt;
  mode: PermissionMode;
  choice: SessionChoice;
  unattended?: boolean;
  trigger?: RunTrigger;
  /** The person who asked for the run (none for a run nobody typed). */
  requester?: Requester;
};

/** Who asked for a run: the front end's user id and the name it shows. */
export type Requester = Readonly<{ userId: number; name: string }>;

/** What the engine is asked to open; the composition root adds config (args, env, limits). */
export type OpenRequest = {
  lane: Lane;
  cwd: string;
  mode: PermissionMode;
  model?: string;
  effort?: string;
  resume?: string;
  /** The session to resume is the lane's own: when Claude Code no longer has it, start a fresh one (said in a note). */
  freshIfGone?: boolean;
  continueLatest?: boolean;
};

/**
 * The live handle on one lane's session as the session layer uses it (the engine's
 * SessionHandle fits): it owns at most one CLI process at a time and runs one run at a time.
 */
export interface SessionHandle {
  startRun(prompt: Prompt, options?: { unattended?: boolean; runId?: string; origin?: TurnOrigin }): Promise<string>;
  cancelRun(runId: string): Promise<void>;
  events(): AsyncIterable<TelecodeEvent>;
  close(): Promise<void>;
  /** Begins a sign-in to an MCP server in the session's live process (a SessionsError `sessions.no_process` without one). */
  mcpSignIn(server: string): Promise<McpSignInStart>;
  /** Finishes it with the address the sign-in page sent the browser to; connects the server again. */
  mcpSignInCallback(server: string, callbackUrl: string): Promise<McpSignInEnd>;
  /** Asks the session's live process a side question, kept out of the conversation. */
  sideQuestion(question: string, history?: readonly SideExchange[]): Promise<SideAnswer>;
  readonly isRunning: boolean;
  readonly sessionId: string | undefined;
  readonly pid: number | undefined;
  /** The run in flight runs in a kept process: it survives a restart of Telecode. */
  readonly isKept?: boolean;
  /**
   * Lets go of a kept process and its run, both going on without this Telecode (a restart):
   * events end without a run_completed. False (nothing done) when the process is not kept.
   */
  detach?(): Promise<boolean>;
  /** Set once the handle let go of its kept process (it detached, or a newer Telecode took it over). */
  readonly handedOver?: boolean;
}

export interface EnginePort {
  openSession(request: OpenRequest): SessionHandle;
  /** What the CLI wrote down of `sessionId` in the lane's project (see SessionManager.writtenDown). */
  writtenDown(
    request: Pick<OpenRequest, "lane" | "cwd">,
    sessionId: string,
    messageUuid?: string,
  ): Promise<WrittenDown>;
}

/** The records the session layer keeps (implemented over SQLite in src/store). */
export interface SessionRecords {
  /** The last CLI session id used in this lane, to resume after the process is gone. */
  lastSessionId(lane: Lane): string | undefined;
  /** Makes `sessionId` the lane's current session; `title` (its first request's words) names it in lists, once. */
  rememberSession(lane: Lane, sessionId: string, title?: string): void;
  /**
   * The CLI no longer has `sessionId` (its transcript is gone): when it is the lane's current
   * session, the next message starts a fresh one. True when it was the current one.
   */
  forgetSession(lane: Lane, sessionId: string): boolean;
  /**
   * A person's submission was accepted (it starts now or waits in the queue). True when the
   * records keep it until it starts, so a restart can run it; the next start submits it again.
   */
  runAccepted(run: KeptSubmission): boolean;
  /** An accepted submission left the queue without starting (cancelled, or it could not start). */
  runLeftQueue(runId: string): void;
  /**
   * An accepted submission refused at its start for a cause a person can mend (a spending cap):
   * it is kept, not run, until Retry takes it. False when it was not kept.
   */
  runHeld(runId: string): boolean;
  /** An accepted submission's input changed before it started (the person edited its message). */
  runAmended(runId: string, input: RunInput): void;
  /** The run starts: it is recorded as running, with its input (an accepted one leaves the queue). */
  runStarted(run: {
    runId: string;
    lane: Lane;
    sessionId: string | undefined;
    startedAtMs: number;
    input: RunInput;
    promptMessageId?: number;
  }): void;
  /** The CLI began the run's turn in `sessionId`: it has the prompt, so Continue resumes that session. */
  runTaken(runId: string, sessionId: string, promptUuid?: string): void;
  runFinished(run: {
    runId: string;
    lane: Lane;
    state: RunEndState;
    costUsd: number;
    endedAtMs: number;
    /** The failure in words (what happened, what to do). */
    error?: string;
    sessionId?: string;
  }): void;
}

/** An accepted submission as the records keep it until its run starts. */
export type KeptSubmission = {
  runId: string;
  lane: Lane;
  input: RunInput;
  acceptedAtMs: number;
  /** The front end's id of the message that asked for the run (a restart answers it). */
  promptMessageId?: number;
};

export type RunEndState = "completed" | "failed" | "cancelled" | "interrupted";

/** Receives one run's events, in order, ending with its run_completed (or, for a kept run handed over, with `handedOver`). */
export interface RunObserver {
  onEvent(event: TelecodeEvent): void | Promise<void>;
  /** The run goes on without this Telecode (its kept process was let go of): stop showing it, say nothing. */
  handedOver?(): void;
}

/** Receives events no run owns: turns the CLI started by itself, even while a run waits for its own turn. */
export type BackgroundObserver = (lane: Lane, event: TelecodeEvent) => void | Promise<void>;
