// The Claude Code engine: opens session handles, each its own object with its own process, ids
// and pending requests. How a CLI is started is the launcher's business (a direct child
// process unless the composition root passes another).
import { definedFields, type WrittenDown } from "../domain/index.js";
import { createSystemClock, silentLogger, type Clock, type Logger, type WakeWatch } from "../ports/index.js";
import { createCliProbe } from "./cli-probe.js";
import { createDirectLauncher } from "./direct-launcher.js";
import { ClaudeError } from "./errors.js";
import { validateExtraArgs } from "./extra-args.js";
import { sessionEnv } from "./launch.js";
import { ClaudeSessionHandle } from "./session-handle.js";
import type {
  AdoptedSession,
  ClaudeEngine,
  KeptProcess,
  SessionController,
  SessionHandle,
  SessionSpec,
} from "./spec.js";
import type { CliLauncher } from "./transport.js";
import { writtenDown } from "./transcripts.js";
import { createMemorySessionBook, type SessionBook } from "./session-book.js";

export type ClaudeEngineOptions = {
  /** The CLI: a path, or a name looked up on PATH. Default "claude". */
  claudePath?: string;
  /** The parent environment the CLI's allowlisted environment is built from. */
  env: NodeJS.ProcessEnv;
  clock?: Clock;
  /**
   * Tells when the computer woke from a sleep: a process between runs is ended then, and the next
   * run resumes its session in a new one (Claude Code does not notice that its connections died
   * in the sleep, and would wait minutes on one). Default: none.
   */
  wakes?: WakeWatch;
  logger?: Logger;
  /** How CLIs are probed and started; default a direct child process per CLI. */
  launcher?: CliLauncher;
  /**
   * For the default launcher: the file (in the state directory) where what a CLI binary
   * supports is kept, so no later process probes it again. Default: memory only.
   */
  probeCacheFile?: string;
  /** IANA zone for clock times in notes ("resets 17:46 today"). Default: this machine's zone. */
  timeZone?: string;
  /** What is known of each session across processes, its cost and plan (Telecode keeps it in SQLite); default: memory. */
  book?: SessionBook;
  /** A CLI answered the initialize handshake (its models, commands, account): for what front ends offer. */
  onInitialized?: (reply: Readonly<Record<string, unknown>>) => void;
};

/** This machine's time zone, or UTC when the runtime does not say. */
function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export function createClaudeEngine(options: ClaudeEngineOptions): ClaudeEngine {
  const clock = options.clock ?? createSystemClock();
  // Looked up when a note first shows a clock time, not at a spawn: the first time-zone lookup
  // loads ICU's zone data (~9 ms), which would compete with every CLI's start.
  let timeZone = options.timeZone;
  const logger = options.logger ?? silentLogger;
  const deps = {
    command: options.claudePath ?? "claude",
    baseEnv: options.env,
    launcher:
      options.launcher ??
      createDirectLauncher({
        clock,
        probe: createCliProbe({ ...definedFields({ cacheFile: options.probeCacheFile }), logger }),
      }),
    clock,
    wakes: options.wakes,
    logger,
    timeZone: () => (timeZone ??= hostTimeZone()),
    book: options.book ?? createMemorySessionBook(),
    onInitialized: options.onInitialized,
  };
  const open = (spec: SessionSpec, controller: SessionController): ClaudeSessionHandle => {
    const problems = validateExtraArgs(spec.extraArgs ?? [], spec.allowUnsafeArgs);
    if (problems.length > 0) {
      throw new ClaudeError("claude.extra_args", problems.join(" "), { details: { problems } });
    }
    return new ClaudeSessionHandle(spec, controller, deps);
  };
  return {
    /** Opens a session handle (no process yet: it starts with the first run). Throws `claude.extra_args` for flags not allowed. */
    openSession(spec: SessionSpec, controller: SessionController): SessionHandle {
      return open(spec, controller);
    },
    writtenDown(spec: SessionSpec, sessionId: string, messageUuid?: string): Promise<WrittenDown> {
      return writtenDown(spec.cwd, sessionId, sessionEnv(deps.baseEnv, spec), messageUuid);
    },
    /** A handle over a kept process and its run in flight. Throws `claude.extra_args` for flags not allowed. */
    adoptSession(spec: SessionSpec, controller: SessionController, kept: KeptProcess): AdoptedSession {
      const handle = open(spec, controller);
      return { handle, reconciled: handle.adopt(kept) };
    },
  };
}
