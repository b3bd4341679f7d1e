// Why a run or a turn failed, typed from where it arises to where it is rendered: a reason
// to decide on, one sentence on what happened and one on what to do, and the facts that go
// with some reasons (a reset time, an API status, an exit). Engines word their own reasons.

export type FailureReason =
  /** The CLI printed nothing for too long and was stopped. */
  | "silence"
  /** The CLI exited before printing anything (a bad flag, a broken install). */
  | "exited_before_output"
  /** The CLI exited in the middle of the work. */
  | "exited"
  /** The CLI stopped reading its input. */
  | "stdin_closed"
  /** The CLI ended the turn with an error of its own (turn or budget limit, other). */
  | "cli_error"
  /** The session to resume is not known to the CLI (its transcript is gone). */
  | "session_not_found"
  /** The model's API failed. */
  | "api_error"
  /** A usage limit was reached. */
  | "rate_limited"
  /** The CLI has no valid login or API key. */
  | "not_logged_in"
  /** The CLI binary was not found. */
  | "not_found"
  /** The project's folder does not exist (moved, deleted, or on a drive not mounted). */
  | "project_missing"
  /** The CLI could not be started, or refused the run. */
  | "start_failed"
  /** The CLI started and refused to go on, for a cause it named (a settings file, a proxy, a sign-in). */
  | "start_refused"
  /** The prompt holds what the way the CLI runs cannot pass (print mode takes words only). */
  | "prompt_unsupported"
  /** The process that kept the CLI running across restarts died, and ended the CLI with it. */
  | "keeper_lost"
  /** A kept CLI finished the run while Telecode was away, but its output was lost (the keeper's log failed). */
  | "output_lost"
  /** The session's handle ended before it finished the run. */
  | "session_ended"
  /** The run never started: Telecode stopped first, or what fired it may no longer (a cap reached while it waited). */
  | "not_started"
  /** A [budget] cap was reached: the run did not start, or was stopped while it worked. */
  | "over_budget"
  /** Something failed that Telecode did not expect (a bug). */
  | "internal";

/** The hint for a failure another try may mend, where the CLI gave no advice of its own. */
export const SEND_AGAIN_OR_FRESH = "Send the message again, or start a fresh session.";

/** How a hint for a failure that repeats ends: sending the message again would only fail the same way. */
export const FAILS_UNTIL_FIXED = "until then every message fails the same way";

/**
 * The phrases a failure's hint names a chat command in; at the terminal each is said as the
 * flag that does the same (render/terminal-failure.ts), so a hint names them only this way.
 */
export const HINT_COMMANDS = {
  freshSession: "start a fresh session with /new",
  otherModel: "another model with /model",
  otherEffort: "another with /effort (or /effort default)",
} as const;

export type RunFailure = {
  reason: FailureReason;
  /** One sentence: what happened. */
  what: string;
  /** One sentence: what the person can do. */
  hint: string;
  /** When the usage limit resets (epoch ms), for `rate_limited` when the CLI said. */
  resetsAtMs?: number;
  /** The API's HTTP status, for API failures. */
  apiStatus?: number;
  /**
   * The same request may well pass later: an API failure on the API's side (overloaded, a 5xx),
   * or a start Claude Code refused for a cause that passes (its sign-in could not be checked).
   */
  passing?: true;
  /**
   * Given by whatever refused to start a person's request (a [budget] cap): the request is kept,
   * and Retry runs it as it was once that is mended. Dropped when it could not be kept.
   */
  retry?: true;
  /** How the CLI exited, for `exited`, `exited_before_output` and `silence`. */
  exitCode?: number | null;
  signal?: string | null;
  /** How long the CLI had been silent, for `silence`. */
  silentMs?: number;
};

/**
 * Failures every later run repeats until something on the host is fixed: a login, the CLI, the
 * project's folder, what Claude Code refused to start over (unless a later try may pass).
 */
const UNTIL_FIXED: ReadonlySet<FailureReason> = new Set([
  "not_logged_in",
  "not_found",
  "project_missing",
  "start_refused",
]);

/** Whether every later run would fail the same way until someone fixes the host (see UNTIL_FIXED). */
export function failsUntilFixed(failure: RunFailure): boolean {
  return UNTIL_FIXED.has(failure.reason) && failure.passing !== true;
}

/** Failures that come before Claude Code began (or would begin) the work: its run took no time worth telling. */
const BEFORE_START: ReadonlySet<FailureReason> = new Set([
  "not_found",
  "start_refused",
  "project_missing",
  "prompt_unsupported",
  "not_started",
  "over_budget",
]);

/** Whether the run failed before Claude Code was started (no CLI, no folder, a prompt it cannot take). */
export function failedBeforeStart(failure: RunFailure): boolean {
  return BEFORE_START.has(failure.reason);
}

/** The failure as one line of text (logs, the store, a terminal). */
export function failureText(failure: RunFailure): string {
  return `${failure.what} ${failure.hint}`.trim();
}

/** The failure an error carries (`error.failure`, as the engine's errors do), if any. */
export function carriedFailure(error: unknown): RunFailure | undefined {
  if (typeof error !== "object" || error === null || !("failure" in error)) return undefined;
  const failure = error.failure;
  if (typeof failure !== "object" || failure === null) return undefined;
  const f = failure as Record<string, unknown>;
  return typeof f["reason"] === "string" && typeof f["what"] === "string" && typeof f["hint"] === "string"
    ? (failure as RunFailure)
    : undefined;
}
