// The Claude Code engine: opens sessions, each its own object with its own process, ids and
// pending requests (nothing shared but the per-binary capability cache).
import { validateExtraArgs } from "./args.js";
import { createCliProbe } from "./cli-probe.js";
import { ClaudeError } from "./errors.js";
import { createSystemClock, silentLogger, type Clock, type Logger } from "../ports/index.js";
import { Session } from "./session.js";
import type { ClaudeEngine, ClaudeSession, SessionController, SessionSpec } from "./spec.js";

export type ClaudeEngineOptions = {
  /** The CLI: a path, or a name looked up on PATH. Default "claude". */
  claudePath?: string;
  /** The parent environment the CLI's allowlisted environment is built from. */
  env: NodeJS.ProcessEnv;
  clock?: Clock;
  logger?: Logger;
};

export function createClaudeEngine(options: ClaudeEngineOptions): ClaudeEngine {
  const deps = {
    command: options.claudePath ?? "claude",
    baseEnv: options.env,
    probe: createCliProbe(),
    clock: options.clock ?? createSystemClock(),
    logger: options.logger ?? silentLogger,
  };
  return {
    /** Opens a session (no process yet: it starts with the first run). Throws `claude.extra_args` for managed flags. */
    openSession(spec: SessionSpec, controller: SessionController): ClaudeSession {
      const problems = validateExtraArgs(spec.extraArgs ?? []);
      if (problems.length > 0) {
        throw new ClaudeError("claude.extra_args", problems.join(" "), { details: { problems } });
      }
      return new Session(spec, controller, deps);
    },
  };
}
