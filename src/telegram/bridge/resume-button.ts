// The "Continue" button of an interrupted run. It must work after a restart, when no token
// map survives, so its token is the run id itself (a random UUID: 16 bytes, 22 base64url
// characters, as unguessable as any token) and the store says what to resume.
import type { InlineKeyboardMarkup } from "grammy/types";
import type { RunFailure } from "../../domain/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import { encodeCallbackData } from "../callback-data.js";

export const RESUME_CHOICE = "resume";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The Continue button for `runId`; none when the id is not a UUID (nothing to encode). */
export function resumeKeyboard(runId: string): InlineKeyboardMarkup | undefined {
  if (!UUID.test(runId)) return undefined;
  const token = Buffer.from(runId.replaceAll("-", ""), "hex").toString("base64url");
  return {
    inline_keyboard: [[{ text: "▶️ Continue", callback_data: encodeCallbackData({ token, choice: RESUME_CHOICE }) }]],
  };
}

/** The run id a Continue button's token names. */
export function runIdFromResumeToken(token: string): string {
  const hex = Buffer.from(token, "base64url").toString("hex").padEnd(32, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
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
