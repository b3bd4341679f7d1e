// The words for an API failure: what happened, from Claude Code's own text (its first sentence,
// its advice after) or, for a kind it names whose text is written for a developer, Telecode's
// (api-error-kinds.ts); and what to do, by the kind or by whether a later try may pass. Text only.
import { sentence } from "../domain/index.js";
import { kindPasses, kindWords, nextStepOf, RETRIED } from "./api-error-kinds.js";

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

/**
 * Whether a failed turn with no HTTP status is an API failure: of a kind the CLI names, or of
 * none while the turn ended on the API (no answer came).
 */
export function isApiFailureWithoutStatus(kind: string | undefined, terminalReason: string | undefined): boolean {
  return kind === undefined ? terminalReason === "api_error" : nextStepOf(kind) !== undefined;
}

/** What happened and what to do about an API failure. */
export function apiFailureText(f: ApiFailureFacts): { what: string; hint: string } {
  const words = f.apiKind === undefined ? undefined : kindWords(f.apiKind);
  const unanswered = f.apiStatus === undefined && f.detail !== undefined;
  const said = unanswered
    ? unansweredWords(f.detail ?? "", f.apiKind)
    : splitDetail(f.detail ?? `API error ${f.apiStatus ?? ""}.`, "");
  const what = words?.what ?? said.what;
  if (words?.hint !== undefined) return { what, hint: words.hint };
  // The CLI's own advice after its first sentence, when it gives some, knows the case best.
  if (said.hint !== "") {
    const retried = unanswered && (f.apiKind === undefined || nextStepOf(f.apiKind) === "try_again");
    return { what, hint: retried ? `Claude Code already retried. ${said.hint}` : said.hint };
  }
  return { what, hint: words?.fallbackHint ?? apiErrorHint(f) };
}

/**
 * Whether sending the same message again may pass: by the CLI's kind when it names one, else
 * when the API itself failed (overloaded, a 5xx, a timeout, no answer at all).
 */
export function apiErrorPasses(f: ApiFailureFacts): boolean {
  if (f.apiKind !== undefined && nextStepOf(f.apiKind) !== undefined) return kindPasses(f.apiKind);
  if (f.terminalReason === "prompt_too_long") return false;
  const status = f.apiStatus ?? 0;
  return !(status >= 400 && status < 500 && status !== 408 && status !== 409);
}

/** What to do about an API failure of no known kind: wait for a passing one, change something for one that repeats. */
function apiErrorHint(f: ApiFailureFacts): string {
  if (f.terminalReason === "prompt_too_long")
    return "The conversation is too long for the model: start a fresh session, as every message in this one fails the same way.";
  if (!apiErrorPasses(f))
    return `Sending it again fails the same way: check the model and settings (\`telecode doctor\` on the computer running Telecode).`;
  return RETRIED;
}

/**
 * An API failure with no HTTP status, in the CLI's words ("API Error: Connection refused — a
 * firewall or proxy may be blocking it (ECONNREFUSED)", then its advice when it has some).
 */
function unansweredWords(detail: string, kind: string | undefined): { what: string; hint: string } {
  const { what: cliWords, hint: advice } = splitDetail(detail.replace(/^API Error:\s*/i, ""), "");
  const unreached = kind === "connection_failed";
  return {
    what: sentence(unreached ? `Claude Code could not reach the API: ${cliWords}` : `API error: ${cliWords}`),
    hint: advice,
  };
}

/** The first sentence as what happened; the rest, when there is any, as what to do. */
export function splitDetail(detail: string, fallbackHint: string): { what: string; hint: string } {
  const [what = detail, ...rest] = detail.split(/(?<=[.!?])\s+/);
  const hint = rest.join(" ").trim();
  return { what, hint: hint === "" ? fallbackHint : hint };
}
