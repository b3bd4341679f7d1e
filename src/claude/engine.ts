// The Claude Code engine: opens sessions, each its own object with its own process, ids and
// pending requests (nothing shared but the per-binary capability cache).
import { createCliProbe } from "./cli-probe.js";
import { createSystemClock, type Clock } from "./clock.js";
import { ClaudeError } from "./errors.js";
import { validateExtraArgs } from "./extra-args.js";
import { createSilentLogger, type Logger } from "./logger.js";
import { Session } from "./session.js";
import type { ClaudeEngine, ClaudeSession, SessionController, SessionSpec } from "./spec.js";

export type ClaudeEngineOptions = {
  /** The CLI: a path, or a name looked up on PATH. Default "claude". */
  claudePath?: string;
  /** The parent environment the CLI's allowlisted environment is built from. */
  env: NodeJS.ProcessEnv;
  clock?: Clock;
  logger?: Logger;
  /** IANA zone for clock times in notes ("resets 17:46"). Default: this machine's zone. */
  timeZone?: string;
};

/** This machine's time zone, or UTC when the runtime does not say. */
function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

export function createClaudeEngine(options: ClaudeEngineOptions): ClaudeEngine {
  const deps = {
    command: options.claudePath ?? "claude",
    baseEnv: options.env,
    probe: createCliProbe(),
    clock: options.clock ?? createSystemClock(),
    logger: options.logger ?? createSilentLogger(),
    timeZone: options.timeZone ?? hostTimeZone(),
  };
  return {
    /** Opens a session (no process yet: it starts with the first run). Throws `claude.extra_args` for flags not allowed. */
    openSession(spec: SessionSpec, controller: SessionController): ClaudeSession {
      const problems = validateExtraArgs(spec.extraArgs ?? [], spec.allowUnsafeArgs);
      if (problems.length > 0) {
        throw new ClaudeError("claude.extra_args", problems.join(" "), { details: { problems } });
      }
      return new Session(spec, controller, deps);
    },
  };
}
