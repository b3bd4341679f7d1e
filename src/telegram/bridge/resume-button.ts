// The buttons that take a person's request up again: "Continue" on an interrupted run; on a
// failed one, "Send it again" when Claude Code stopped mid-work or the API failed on its side,
// and "Run it in a new session" when it no longer has the session; "Retry" on one kept without
// running. They must work after a restart, so their token is the run id (run-token.ts) and the
// store says what to run.
import type { InlineKeyboardMarkup } from "grammy/types";
import type { FailureReason, RunFailure } from "../../domain/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import { runButtonData } from "./run-token.js";

export const RESUME_CHOICE = "resume";
export const AGAIN_CHOICE = "again";
export const FRESH_CHOICE = "fresh";
export const RETRY_CHOICE = "retry";

const LABELS = {
  [RESUME_CHOICE]: "▶️ Continue",
  [AGAIN_CHOICE]: "🔁 Send it again",
  [FRESH_CHOICE]: "▶️ Run it in a new session",
  [RETRY_CHOICE]: "🔁 Retry",
} as const;

/** A one-button keyboard for `runId`; none when the id is not a UUID (nothing to encode). */
function runKeyboard(runId: string, choice: keyof typeof LABELS): InlineKeyboardMarkup | undefined {
  const data = runButtonData(runId, choice);
  return data === undefined ? undefined : { inline_keyboard: [[{ text: LABELS[choice], callback_data: data }]] };
}

/** The Continue button of an interrupted run. */
export function resumeKeyboard(runId: string): InlineKeyboardMarkup | undefined {
  return runKeyboard(runId, RESUME_CHOICE);
}

/** The Retry button of a request kept without running (buttons/retry.ts): a restart found it too old, a cap refused it. */
export function retryKeyboard(runId: string): InlineKeyboardMarkup | undefined {
  return runKeyboard(runId, RETRY_CHOICE);
}

/** Failures whose request can run again at a tap, and where: its own session, or a new one. */
const AGAIN_AFTER: Partial<Record<FailureReason, typeof AGAIN_CHOICE | typeof FRESH_CHOICE>> = {
  // Claude Code stopped mid-work; the session is kept ("Send your message again to resume the session").
  exited: AGAIN_CHOICE,
  silence: AGAIN_CHOICE,
  stdin_closed: AGAIN_CHOICE,
  // Claude Code no longer has the session: only a new one can take the request.
  session_not_found: FRESH_CHOICE,
};

/** A failed run's button that runs its request again, and the advice that names the button. */
export type RunAgain = { keyboard: InlineKeyboardMarkup; hint: string };

/**
 * The advice beside the button: the failure's own says to send the message again (or, for a
 * failure a later try may pass, its own words, kept), where one tap does it.
 */
const AGAIN_HINTS: Record<typeof AGAIN_CHOICE | typeof FRESH_CHOICE, (failure: RunFailure) => string> = {
  [AGAIN_CHOICE]: (failure) => (failure.passing === true ? failure.hint : "Tap Send it again to resume the session."),
  [FRESH_CHOICE]: (failure) => `Tap Run it in a new session to run it now. ${failure.hint}`,
};

/**
 * The button that runs a failed run's request again, when its failure is one a second try can
 * mend, with the advice that names it (the failure's own hint says to send the message again).
 */
export function runAgain(runId: string, failure: RunFailure | undefined): RunAgain | undefined {
  const choice = failure === undefined ? undefined : againChoice(failure);
  if (failure === undefined || choice === undefined) return undefined;
  const keyboard = runKeyboard(runId, choice);
  return keyboard === undefined ? undefined : { keyboard, hint: AGAIN_HINTS[choice](failure) };
}

function againChoice(failure: RunFailure): typeof AGAIN_CHOICE | typeof FRESH_CHOICE | undefined {
  // A failure a later try may pass (the API overloaded, a start refused over the network): the
  // same request may pass in its session later.
  if (failure.passing === true) return AGAIN_CHOICE;
  return AGAIN_AFTER[failure.reason];
}

export const INTERRUPTED_NOTE = "Telecode stopped while this was running. Tap Continue to pick up where it left off.";

/** The note of a kept run interrupted by its keeper (it died, or lost the run's output): what happened, and Continue. */
export function keptRunNote(failure: RunFailure): string | undefined {
  if (failure.reason !== "keeper_lost" && failure.reason !== "output_lost") return undefined;
  return `${failure.what} Tap Continue to pick up where it left off.`;
}

/** What the progress message of an interrupted run says (after its summary line, when known). */
export function interruptedHtml(summaryHtml: string | undefined, reason: string = INTERRUPTED_NOTE): string {
  const head = summaryHtml ?? "<b>⚠️ Interrupted</b>";
  return `${head}\n${escapeTelegramHtml(reason)}`;
}

/**
 * The progress message's last text: the summary, and for an interrupted run what to do (a kept
 * run's note, beside Continue) or, where there is no Continue, why it stopped when that is known.
 */
export function endedSummaryHtml(
  summaryHtml: string,
  end: { interrupted: boolean; continuable: boolean; error: RunFailure | undefined },
): string {
  if (end.continuable)
    return interruptedHtml(summaryHtml, end.error === undefined ? undefined : keptRunNote(end.error));
  return end.interrupted && end.error !== undefined ? interruptedHtml(summaryHtml, end.error.what) : summaryHtml;
}
