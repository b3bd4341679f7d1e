// The words for an API failure: what happened, from Claude Code's own text (its first sentence,
// its advice after), and what to do, by whether a later try may pass. Text only.
import { sentence } from "../domain/index.js";

/** The facts an API failure is worded from. */
export type ApiFailureFacts = {
  /** A message from below (the OS, the CLI, the API) quoted in the failure. */
  detail?: string;
  apiStatus?: number;
  /** The CLI's kind of an API failure (result.api_error), e.g. "connection_failed". */
  apiKind?: string;
  /** Why the CLI ended the turn (result.terminal_reason), e.g. "prompt_too_long". */
  terminalReason?: string;
};

const RETRIED = "Send the message again in a minute; Claude Code already retried.";

/**
 * The CLI's kinds (result.api_error) of an API failure with no answer at all, which a later try
 * may pass, and what to do about each. Its other kinds (a policy, a credential, a PDF) repeat:
 * those keep the CLI's words as its own error.
 */
const UNANSWERED_HINTS: Readonly<Record<string, string>> = {
  // Telegram reached Telecode, so the computer is online: what blocks is on the way to the API.
  connection_failed:
    "Claude Code already retried: check the connection from the computer running Telecode to the API (a proxy, a firewall, or the API itself down), then send the message again.",
  no_response: RETRIED,
  stream_idle_timeout: RETRIED,
  computer_slept: "The computer running Telecode slept while it waited for the answer: send the message again.",
};

/**
 * Whether a failed turn with no HTTP status is an API failure that may pass later: no answer
 * came (a kind above, or none named while the turn ended on the API).
 */
export function isUnansweredApiFailure(kind: string | undefined, terminalReason: string | undefined): boolean {
  return kind === undefined ? terminalReason === "api_error" : UNANSWERED_HINTS[kind] !== undefined;
}

/** What happened and what to do about an API failure. */
export function apiFailureText(f: ApiFailureFacts): { what: string; hint: string } {
  if (f.apiStatus === undefined && f.detail !== undefined) return unansweredText(f.detail, f.apiKind);
  // The CLI's own advice after its first sentence, when it gives some, knows the case best.
  return splitDetail(f.detail ?? `API error ${f.apiStatus ?? ""}.`, apiErrorHint(f));
}

/** Whether an API failure is the API's own (overloaded, a 5xx, a timeout), which a later try may pass. */
export function apiErrorPasses(f: ApiFailureFacts): boolean {
  if (f.terminalReason === "prompt_too_long") return false;
  const status = f.apiStatus ?? 0;
  return !(status >= 400 && status < 500 && status !== 408 && status !== 409);
}

/** What to do about an API failure: wait for a passing one, change something for one that repeats. */
function apiErrorHint(f: ApiFailureFacts): string {
  if (f.terminalReason === "prompt_too_long")
    return "The conversation is too long for the model: start a fresh session, as every message in this one fails the same way.";
  if (!apiErrorPasses(f))
    return `Sending it again fails the same way: check the model and settings (\`telecode doctor\` on the computer running Telecode).`;
  return RETRIED;
}

/**
 * An API failure with no HTTP status: no answer came (the CLI's "API Error: Connection refused —
 * a firewall or proxy may be blocking it (ECONNREFUSED)", then its advice when it has some).
 */
function unansweredText(detail: string, kind: string | undefined): { what: string; hint: string } {
  const { what: cliWords, hint: advice } = splitDetail(detail.replace(/^API Error:\s*/i, ""), "");
  const unreached = kind === "connection_failed";
  const what = sentence(unreached ? `Claude Code could not reach the API: ${cliWords}` : `API error: ${cliWords}`);
  if (advice !== "") return { what, hint: `Claude Code already retried. ${advice}` };
  return { what, hint: (kind === undefined ? undefined : UNANSWERED_HINTS[kind]) ?? RETRIED };
}

/** The first sentence as what happened; the rest, when there is any, as what to do. */
export function splitDetail(detail: string, fallbackHint: string): { what: string; hint: string } {
  const [what = detail, ...rest] = detail.split(/(?<=[.!?])\s+/);
  const hint = rest.join(" ").trim();
  return { what, hint: hint === "" ? fallbackHint : hint };
}
