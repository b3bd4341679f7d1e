// The engine's failures in words people read: one entry per reason in FAILURE_TEXT, each
// giving one sentence on what happened and one on what to do from the facts at hand. Adding
// a reason is one literal in the domain's FailureReason and one entry here (tsc asks for it).
import {
  carriedFailure,
  definedFields,
  excerpt,
  formatDurationMs,
  SEND_AGAIN_OR_FRESH,
  sentence,
  FAILS_UNTIL_FIXED,
  type FailureReason,
  type RunFailure,
} from "../domain/index.js";
import type { WireResultMessage } from "../wire/index.js";
import {
  apiErrorPasses,
  apiFailureText,
  isApiFailureWithoutStatus,
  splitDetail,
  type ApiFailureFacts,
} from "./api-failure-text.js";
import { failureError, type ClaudeError } from "./errors.js";
import { refusalPasses, refusalText, startupRefusalOf, type StartupRefusal } from "./startup-refusals.js";
import type { ProcessExit } from "./transport.js";

/** The facts a failure is worded from; each reason reads what it needs. */
export type FailureFacts = ApiFailureFacts & {
  exit?: ProcessExit;
  stderrTail?: string;
  silentMs?: number;
  /** Where the CLI was looked for, for `not_found`. */
  lookedFor?: string;
  resetsAtMs?: number;
  /** When a usage limit resets, as people read it ("17:46 today", "02:00 on 18 March"). */
  resetsAt?: string;
  /** Why the CLI would not start, for `start_refused`. */
  refusal?: StartupRefusal;
};

type EngineReason = Exclude<FailureReason, "session_ended" | "not_started" | "over_budget">;

const RESUME = "Send your message again to resume the session.";
const CONTINUE = "Continue the run to pick up where it left off; the conversation is kept.";
const STDERR_QUOTE_CHARS = 1_000;

const FAILURE_TEXT: { readonly [R in EngineReason]: (facts: FailureFacts) => { what: string; hint: string } } = {
  silence: (f) => ({
    what: `Claude Code produced no output for ${formatDurationMs(f.silentMs ?? 0)} and was stopped.`,
    hint: RESUME,
  }),
  exited_before_output: (f) => {
    const tail = f.stderrTail ?? "";
    const quoted = tail === "" ? "(nothing on stderr)" : excerpt(tail.slice(-STDERR_QUOTE_CHARS), STDERR_QUOTE_CHARS);
    return {
      what: sentence(`Claude Code exited with ${describeExit(f.exit)} before any output: ${quoted}`),
      hint: "On the computer running Telecode, check that `claude` starts in a terminal, and claude.extra_args in the config.",
    };
  },
  exited: (f) => {
    const lastLine = (f.stderrTail ?? "").split("\n").pop() ?? "";
    const quoted = lastLine === "" ? "" : `: ${excerpt(lastLine, 300)}`;
    return { what: sentence(`Claude Code exited unexpectedly (${describeExit(f.exit)})${quoted}`), hint: RESUME };
  },
  stdin_closed: (f) => ({
    what: `Claude Code is no longer reading its input${f.exit === undefined ? "" : ` (it exited with ${describeExit(f.exit)})`}.`,
    hint: "Send the message again to resume the session.",
  }),
  cli_error: (f) => splitDetail(f.detail ?? "Claude Code ended the turn with an error.", SEND_AGAIN_OR_FRESH),
  // A session the CLI cannot resume stays unresumable: only a fresh one helps.
  session_not_found: (f) => ({
    what: lostSessionText(f.detail),
    hint: "Start a fresh session, as every message in this one fails the same way.",
  }),
  api_error: apiFailureText,
  rate_limited: (f) => {
    // The CLI's own "· resets 5:46pm (UTC)" is replaced by the time in this machine's zone.
    const what = sentence((f.detail ?? "A usage limit was reached").replace(/\s*·\s*resets\b.*$/i, ""));
    if (f.resetsAt !== undefined) return { what, hint: `The limit resets at ${f.resetsAt}; ${FAILS_UNTIL_FIXED}.` };
    return {
      what: sentence(f.detail ?? "A usage limit was reached"),
      hint: "Wait for the limit to reset before sending more.",
    };
  },
  not_logged_in: (f) => ({
    what:
      f.apiStatus === 401 || /invalid api key/i.test(f.detail ?? "")
        ? "Claude Code's API key or login was refused."
        : "Claude Code is not logged in.",
    hint: `On the computer running Telecode, run \`claude auth login\` in a terminal, or set ANTHROPIC_API_KEY for Telecode with claude.use_api_billing = true; ${FAILS_UNTIL_FIXED}.`,
  }),
  not_found: (f) => ({
    what: `Claude Code CLI not found (looked for: ${f.lookedFor ?? "claude"}).`,
    hint: `On the computer running Telecode, install it with \`npm i -g @anthropic-ai/claude-code\`, or set claude.path to its full path (\`which claude\` there prints it); ${FAILS_UNTIL_FIXED}.`,
  }),
  project_missing: (f) => ({
    what: `The project's folder ${f.detail ?? ""} does not exist, so Claude Code was not started there.`,
    hint: `On the computer running Telecode, put the folder back, or point the project's path in the config at where it is now (/project switches to another); until then every message in this project fails the same way.`,
  }),
  start_failed: (f) => ({
    what: `Claude Code could not be started (${f.detail ?? "no reason given"}).`,
    hint: "On the computer running Telecode, check claude.path and that the project's directory exists.",
  }),
  start_refused: (f) => refusalText(f.refusal ?? { cause: "", words: f.detail ?? "" }),
  prompt_unsupported: (f) => ({
    what: `Claude Code cannot take this message as it runs here (${f.detail ?? "no reason given"}).`,
    hint: "Send the words alone, without the images or PDFs.",
  }),
  keeper_lost: () => ({
    what: "The process keeping Claude Code running ended unexpectedly, and Claude Code with it.",
    hint: CONTINUE,
  }),
  output_lost: () => ({
    what: "Claude Code finished this run while Telecode was away, but its output was lost (the keeper could not keep its log).",
    hint: CONTINUE,
  }),
  internal: (f) => ({ what: f.detail ?? "Telecode failed unexpectedly.", hint: SEND_AGAIN_OR_FRESH }),
};

/** The failure for `reason`, worded from `facts`, with the facts people may need kept as fields. */
export function engineFailure(reason: EngineReason, facts: FailureFacts = {}): RunFailure {
  const failure: RunFailure = { reason, ...FAILURE_TEXT[reason](facts) };
  if (facts.apiStatus !== undefined) failure.apiStatus = facts.apiStatus;
  if (reason === "api_error" && apiErrorPasses(facts)) failure.passing = true;
  if (reason === "start_refused" && facts.refusal !== undefined && refusalPasses(facts.refusal)) failure.passing = true;
  if (facts.resetsAtMs !== undefined) failure.resetsAtMs = facts.resetsAtMs;
  if (facts.silentMs !== undefined) failure.silentMs = facts.silentMs;
  if (facts.exit !== undefined) {
    failure.exitCode = facts.exit.code;
    failure.signal = facts.exit.signal;
  }
  return failure;
}

/** What a transport fails a stdin write with once the CLI no longer reads (for another launcher's transports). */
export function stdinClosedError(
  options: { exit?: ProcessExit; stderrTail?: string; cause?: unknown } = {},
): ClaudeError {
  const exit = options.exit;
  return failureError("claude.stdin_closed", engineFailure("stdin_closed", definedFields({ exit })), {
    cause: options.cause,
    details: { stderrTail: options.stderrTail ?? "", exitCode: exit?.code ?? null, signal: exit?.signal ?? null },
  });
}

/** What starting the CLI throws when the project's folder `cwd` is not there. */
export function projectMissingError(cwd: string, cause?: unknown): ClaudeError {
  return failureError("claude.project_missing", engineFailure("project_missing", { detail: cwd }), { cause });
}

/** What a launcher throws when the CLI could not be started: `detail` says why. */
export function startFailedError(detail: string, cause?: unknown): ClaudeError {
  return failureError("claude.spawn_failed", engineFailure("start_failed", { detail }), { cause });
}

/** The failure an error ends a run with: its own when it carries one, else an internal one. */
export function failureOf(error: unknown): RunFailure {
  return (
    carriedFailure(error) ??
    engineFailure("internal", { detail: error instanceof Error ? error.message : String(error) })
  );
}

/** "code 1" or "signal SIGTERM". */
export function describeExit(exit: ProcessExit | undefined): string {
  if (exit === undefined) return "an unknown status";
  return exit.signal !== null ? `signal ${exit.signal}` : `code ${String(exit.code)}`;
}

/**
 * Errors are cut to this many characters (Claude Code's own advice runs to a few sentences, an
 * error page from a proxy to far more); the whole text stays in the turn's `answer`.
 */
const ERROR_MAX_CHARS = 600;

const SUBTYPE_ERRORS: Readonly<Record<string, string>> = {
  error_max_turns: "Claude Code stopped: the maximum number of turns was reached.",
  error_max_budget_usd: "Claude Code stopped: the spending limit was reached.",
  error_max_structured_output_retries: "Claude Code stopped: it could not produce the structured output.",
};

const RATE_LIMITED = /hit your .*limit|usage limit|rate limit/i;
const NOT_LOGGED_IN = /please run \/login|not logged in|invalid api key|authentication/i;
const NO_SESSION = /no conversation found with session id/i;
/** The CLI's refusal of a --resume that is neither a session's id nor its title (`telecode run --resume`). */
const UNKNOWN_RESUME = /provided value "([^"]*)" is not a uuid and does not match any session title/i;

/**
 * The failure of a failed, not interrupted turn. `limitResets` is when the usage limit a
 * rate-limit event reported resets (epoch ms, and as people read it), if one did.
 */
export function resultFailure(
  result: WireResultMessage,
  limitResets: { atMs: number; moment: string } | undefined,
): RunFailure {
  const refusal = startupRefusalOf(result);
  if (refusal !== undefined)
    return refusal.cause === "resume_target_not_found"
      ? engineFailure("session_not_found", { detail: refusal.words })
      : engineFailure("start_refused", { refusal });
  const text = typeof result.result === "string" ? result.result.trim() : "";
  const status = result.api_error_status;
  // The CLI's kind of the failure, when it names one (not checked by the decoder).
  const kind = typeof result.api_error === "string" ? result.api_error : undefined;
  if (typeof status === "number") {
    // The CLI's synthetic text often repeats the status ("API Error: 500 Internal…"), or only its prefix.
    const stripped = text.replace(/^API Error:\s*(?:\d{3}\s*)?/i, "");
    const detail = excerpt(
      `API error ${status}: ${stripped !== "" ? stripped : (result.terminal_reason ?? "request failed")}`,
      ERROR_MAX_CHARS,
    );
    if (status === 429 || RATE_LIMITED.test(stripped))
      return engineFailure("rate_limited", {
        detail,
        apiStatus: status,
        ...definedFields({ resetsAtMs: limitResets?.atMs, resetsAt: limitResets?.moment }),
      });
    if (status === 401 || NOT_LOGGED_IN.test(stripped))
      return engineFailure("not_logged_in", { detail, apiStatus: status });
    return engineFailure("api_error", {
      detail,
      apiStatus: status,
      ...definedFields({ terminalReason: result.terminal_reason, apiKind: kind }),
    });
  }
  const known = SUBTYPE_ERRORS[result.subtype];
  if (known !== undefined) return engineFailure("cli_error", { detail: known });
  // No status, and the API failed all the same: no answer came (the connection, a deadline), or
  // Claude Code named a kind of failure it sent no request for (a login refused, a message too long).
  if (text !== "" && !NOT_LOGGED_IN.test(text) && isApiFailureWithoutStatus(kind, result.terminal_reason))
    return engineFailure("api_error", { detail: excerpt(text, ERROR_MAX_CHARS), ...definedFields({ apiKind: kind }) });
  if (text !== "")
    return engineFailure(NOT_LOGGED_IN.test(text) ? "not_logged_in" : "cli_error", {
      detail: excerpt(text, ERROR_MAX_CHARS),
    });
  // The CLI's own reason, e.g. "No conversation found with session ID: …" for a bad --resume.
  const reasons: string[] = Array.isArray(result.errors)
    ? result.errors.filter((e): e is string => typeof e === "string" && e !== "")
    : [];
  if (reasons.length > 0) {
    const detail = excerpt(reasons.join("; "), ERROR_MAX_CHARS);
    const lost = reasons.some((r) => NO_SESSION.test(r) || UNKNOWN_RESUME.test(r));
    return engineFailure(lost ? "session_not_found" : "cli_error", { detail });
  }
  const why = result.terminal_reason !== undefined ? ` (${result.terminal_reason})` : "";
  return engineFailure("cli_error", { detail: `Claude Code ended the turn with an error: ${result.subtype}${why}.` });
}

/**
 * The CLI's "No conversation found with session ID: <uuid>" in words a person can act on, the
 * session named as everywhere else (its first eight characters).
 */
function lostSessionText(detail: string | undefined): string {
  const named = detail === undefined ? undefined : UNKNOWN_RESUME.exec(detail)?.[1];
  if (named !== undefined)
    return `Claude Code has no session with the id or title “${named}” in this project, so the message was not run.`;
  const id = detail === undefined ? undefined : LOST_SESSION_ID.exec(detail)?.[1];
  if (id === undefined) return sentence(detail ?? "Claude Code could not find the session to resume");
  return `${sessionGoneWords(id)}, so the message was not run.`;
}

/** "Claude Code no longer has session 0b04c6dd on this computer (its transcript is gone)". */
export function sessionGoneWords(sessionId: string): string {
  return `Claude Code no longer has session ${sessionId.slice(0, 8)} on this computer (its transcript is gone)`;
}

const LOST_SESSION_ID = /no conversation found with session id:?\s*([0-9A-Za-z-]+)/i;
