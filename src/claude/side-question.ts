// A side question: asked of a session's live Claude Code while it works (or idles), answered by
// the model from the conversation so far, beside the turn going on, and kept out of the
// conversation (Claude Code's /btw). Claude Code answers with the text, or with a "synthetic"
// one when no model answer came (its words for what failed).
import type { SideAnswer, SideExchange } from "../domain/index.js";
import { inItsOwnWords, type ControlChannel } from "./control-channel.js";
import { ClaudeError } from "./errors.js";

/** Claude Code gives a side question up to 11 minutes; an answer is a model call, retries and all. */
const SIDE_QUESTION_TIMEOUT_MS = 5 * 60_000;

/** Asks `question`; a follow-up carries the side questions before it and their answers (`history`). */
export async function askSideQuestion(
  channel: ControlChannel,
  question: string,
  history: readonly SideExchange[] = [],
): Promise<SideAnswer> {
  const request = { subtype: "side_question" as const, question, ...(history.length === 0 ? {} : { history }) };
  const reply = await inItsOwnWords(channel.request(request, SIDE_QUESTION_TIMEOUT_MS));
  const text = reply["response"];
  if (typeof text !== "string" || text.trim() === "")
    throw new ClaudeError("claude.control_failed", "Claude Code gave no answer to the side question.");
  return { text, failed: reply["synthetic"] === true };
}
