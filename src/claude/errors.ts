// The engine's typed failures. Callers decide on `code`, never on message text; messages are
// for people: what happened, then what to do. An error that can end a run carries that
// run's typed failure too.
import { failureText, type RunFailure } from "../domain/index.js";

export type ClaudeErrorCode =
  | "claude.not_found"
  | "claude.exited"
  | "claude.spawn_failed"
  | "claude.project_missing"
  | "claude.stdin_closed"
  | "claude.control_timeout"
  | "claude.control_failed"
  | "claude.run_in_flight"
  | "claude.session_closed"
  | "claude.extra_args"
  | "claude.attachments_unsupported"
  | "claude.handed_over"
  /** The session has no live process for what needs one (an MCP sign-in, a side question). */
  | "claude.no_process";

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
  /** How a run this error ends reads (reason, what happened, what to do), when it can end one. */
  readonly failure: RunFailure | undefined;

  constructor(
    code: ClaudeErrorCode,
    message: string,
    options: { cause?: unknown; details?: ClaudeErrorDetails; failure?: RunFailure } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
    this.failure = options.failure;
  }
}

/** An error whose message is the failure's words and which carries the failure itself. */
export function failureError(
  code: ClaudeErrorCode,
  failure: RunFailure,
  options: { cause?: unknown; details?: ClaudeErrorDetails } = {},
): ClaudeError {
  return new ClaudeError(code, failureText(failure), { ...options, failure });
}

export function isClaudeError(value: unknown, code?: ClaudeErrorCode): value is ClaudeError {
  return value instanceof ClaudeError && (code === undefined || value.code === code);
}
