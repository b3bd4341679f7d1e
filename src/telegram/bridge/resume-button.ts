// The buttons that take a person's request up again: "Continue" on an interrupted run, and "Run
// it in a new session" on one whose session Claude Code no longer has. They must work after a
// restart, so their token is the run id (run-token.ts) and the store says what to run.
import type { InlineKeyboardMarkup } from "grammy/types";
import type { RunFailure } from "../../domain/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import { runButtonData } from "./run-token.js";

export const RESUME_CHOICE = "resume";
export const FRESH_CHOICE = "fresh";

/** The Continue button for `runId`; none when the id is not a UUID (nothing to encode). */
export function resumeKeyboard(runId: string): InlineKeyboardMarkup | undefined {
  const data = runButtonData(runId, RESUME_CHOICE);
  return data === undefined ? undefined : { inline_keyboard: [[{ text: "▶️ Continue", callback_data: data }]] };
}

/** The button that sends `runId`'s request again, into a new session (its own is gone). */
export function freshStartKeyboard(runId: string): InlineKeyboardMarkup | undefined {
  const data = runButtonData(runId, FRESH_CHOICE);
  return data === undefined
    ? undefined
    : { inline_keyboard: [[{ text: "▶️ Run it in a new session", callback_data: data }]] };
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
