// What the session layer needs from the outside, declared here so it never imports a
// concrete adapter: an engine that opens sessions, a store that records them, a clock.
// The composition root (src/cli) passes the real ones in.
import type { PermissionMode, TelecodeEvent } from "../domain/index.js";

/** A chat (or terminal) and the project it works in: one live session each. */
export type SessionKey = { readonly chatId: number; readonly project: string };

/** How the next run picks its CLI conversation. */
export type SessionChoice =
  | { kind: "current" } // the key's live process, else resume its last session, else a new one
  | { kind: "new" } // a fresh conversation
  | { kind: "continue" } // the most recent conversation in the project directory (`--continue`)
  | { kind: "resume"; sessionId: string }; // a specific conversation (reply to an older message)

/** What the engine is asked to open; the composition root adds config (args, env, limits). */
export type OpenRequest = {
  key: SessionKey;
  cwd: string;
  mode: PermissionMode;
  model?: string;
  effort?: string;
  resume?: string;
  continueLatest?: boolean;
};

/** One live CLI session as the session layer uses it (the engine's ClaudeSession fits). */
export interface LiveSession {
  startRun(prompt: string, options?: { unattended?: boolean; runId?: string }): Promise<string>;
  cancelRun(runId: string): Promise<void>;
  events(): AsyncIterable<TelecodeEvent>;
  close(): Promise<void>;
  readonly isRunning: boolean;
  readonly sessionId: string | undefined;
  readonly pid: number | undefined;
}

export interface EnginePort {
  openSession(request: OpenRequest): LiveSession;
}

/** The records the session layer keeps (implemented over SQLite in src/store). */
export interface SessionRecords {
  /** The last CLI session id used by this key, to resume after the process is gone. */
  lastSessionId(key: SessionKey): string | undefined;
  rememberSession(key: SessionKey, sessionId: string): void;
  runStarted(run: { runId: string; key: SessionKey; sessionId: string | undefined; startedAtMs: number }): void;
  runFinished(run: {
    runId: string;
    state: RunEndState;
    costUsd: number;
    endedAtMs: number;
    error?: string;
    sessionId?: string;
  }): void;
}

export type RunEndState = "completed" | "failed" | "cancelled" | "interrupted";

export interface Clock {
  now(): number;
}

/** Receives one run's events, in order, ending with its run_completed. */
export interface RunObserver {
  onEvent(event: TelecodeEvent): void | Promise<void>;
}

/** Receives events of turns the CLI started by itself (no run owns them). */
export type BackgroundObserver = (key: SessionKey, event: TelecodeEvent) => void | Promise<void>;
