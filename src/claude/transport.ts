// The engine's seam to "a running CLI", modelled on the MCP SDK's Transport: numbered stdout
// lines, stdin writes that fail as values, pause/resume, shutdown. The direct child process is
// one implementation, a kept process behind a socket another. Types only.
import type { OversizedLine } from "../wire/index.js";
import type { ClaudeError } from "./errors.js";

export type ProcessExit = { code: number | null; signal: NodeJS.Signals | null };

/** How the CLI's process ended, once its output was all delivered. */
export type TransportClosed = {
  exit: ProcessExit;
  /** The last part of what the CLI wrote to stderr (at most 64 KiB), trimmed. */
  stderrTail: string;
  /**
   * A kept process this Telecode let go of, running on without it: it detached (a restart),
   * or a newer Telecode took the process over. `exit` says nothing then.
   */
  handedOver?: true;
  /** What kept the process died and ended it with it: how the CLI ended is not known. */
  lostWithKeeper?: true;
};

/** Lines a kept process's log no longer had when they were replayed: `why` words it for a warning. */
export type LostLines = { from: number; to: number; why: string };

/** A stdin write that failed is a value (the process is gone), never a rejection. */
export type StdinWrite = { ok: true } | { ok: false; error: ClaudeError };

/**
 * Where a transport delivers the CLI's stdout. `seq` numbers the lines of one process from 1
 * in the order the CLI printed them (an over-long line takes a number too); the engine keeps
 * the last one it processed, so a transport that can replay (a kept process) resumes after it.
 */
export type TransportHandlers = {
  /** One complete line, without its newline. In order; never before `start` nor after `closed`. */
  onLine(line: string, seq: number): void;
  /** A line over the size limit was dropped; `report` says how long it was and how it began. */
  onOversizedLine(report: OversizedLine, seq: number): void;
  /** Lines `from`…`to` will never come (a kept process's log lost them); in order with the lines. */
  onLinesLost?(lost: LostLines): void;
};

export interface CliTransport {
  /** The CLI's process id (for logs and /status). */
  readonly pid: number;
  /** Starts delivering stdout lines to `handlers`; called once, right after launch. */
  start(handlers: TransportHandlers): void;
  /** Set once the process has exited (its output may still be arriving until `closed`). */
  readonly exit: ProcessExit | undefined;
  /** Writes one line (ending in "\n") to the CLI's stdin; lines never interleave. */
  write(line: string): Promise<StdinWrite>;
  /** Closes the CLI's stdin without waiting (the CLI exits once it has read everything). */
  closeStdin(): void;
  /** Back-pressure: stop delivering lines until `resume` (a kept process may use flow control). */
  pause(): void;
  resume(): void;
  /**
   * How the process is ended: stdin closed, then SIGTERM to its process group after
   * a grace period, SIGKILL after another; resolves like `closed`. Idempotent.
   */
  shutdown(): Promise<TransportClosed>;
  /** Resolves once the process exited and every stdout line was delivered. Never rejects. */
  readonly closed: Promise<TransportClosed>;
  /** Set for a kept process (one that outlives Telecode): what finds it again after a restart. */
  readonly keptId?: string;
  /** Set for a process that was to be kept but could not be (its keeper failed): why, in a sentence. */
  unkept?: string;
  /** A kept process: the lines through `seq` are recorded by the engine's caller and may be forgotten. */
  ack?(seq: number): void;
  /** A kept process: let go of it, leaving it running; `closed` then resolves with `handedOver`. */
  detach?(): Promise<void>;
  /**
   * Whether the CLI, its stdin closed, runs a hook it started since (a SessionEnd hook, which it
   * waits for as it ends, and so does `shutdown`). False where that cannot be told (no /proc).
   */
  runsEndHook?(): boolean;
  /**
   * Stops waiting for the process to end (a person's Ctrl-C as it winds down): SIGKILL to its
   * process group now, its SessionEnd hooks cut short, and what it left running ended as `closed`
   * resolves. Resolves like `closed`. A kept process has none: it outlives Telecode by design.
   */
  endNow?(): Promise<TransportClosed>;
}

/** What the CLI at a path supports, learnt once per binary and kept (cli-probe.ts). */
export type CliInfo = {
  /** The resolved executable path. */
  path: string;
  /** e.g. "2.1.332"; "" when `--version` printed nothing usable, or not known yet. */
  version: string;
  supportsHookEvents: boolean;
  /**
   * False for a binary not probed before: the fields above are the newest CLI's while a probe
   * runs beside this start, and a flag chosen from them may be refused (launch.ts then starts
   * the CLI again without it).
   */
  probed: boolean;
};

export type LaunchRequest = {
  /** The executable (CliInfo.path). */
  file: string;
  args: readonly string[];
  cwd: string;
  /** The CLI's whole environment (already filtered to the allowlist). */
  env: NodeJS.ProcessEnv;
};

/** How the engine starts CLIs; the composition root chooses (direct spawn by default). */
export interface CliLauncher {
  /** Finds the CLI and what it is known to support, without waiting for a probe. Throws `claude.not_found`. */
  probe(command: string, env: NodeJS.ProcessEnv): Promise<CliInfo>;
  /** Starts one CLI process (its output waits for `start`). Throws `claude.not_found` or `claude.spawn_failed`. */
  launch(request: LaunchRequest): Promise<CliTransport>;
}
