// The engine's typed failures. Callers decide on `code`, never on message text; messages are
// for people: what happened, then what to do.

export type ClaudeErrorCode =
  | "claude.not_found"
  | "claude.exited"
  | "claude.spawn_failed"
  | "claude.stdin_closed"
  | "claude.control_timeout"
  | "claude.control_failed"
  | "claude.run_in_flight"
  | "claude.session_closed"
  | "claude.extra_args";

export type ClaudeErrorDetails = {
  exitCode?: number | null;
  signal?: string | null;
  stderrTail?: string;
  [key: string]: unknown;
};

export class ClaudeError extends Error {
  override readonly name = "ClaudeError";
  readonly code: ClaudeErrorCode;
  readonly details: ClaudeErrorDetails;

  constructor(code: ClaudeErrorCode, message: string, options: { cause?: unknown; details?: ClaudeErrorDetails } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }
}

export function isClaudeError(value: unknown, code?: ClaudeErrorCode): value is ClaudeError {
  return value instanceof ClaudeError && (code === undefined || value.code === code);
}
