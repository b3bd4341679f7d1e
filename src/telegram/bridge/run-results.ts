// What ends a run in the chat besides its progress message: the answer (Markdown rendered and
// split, remembered so a reply continues its session, and as a file when long), an error with
// its incident id, and what a queued message that never ran says.
import { randomBytes } from "node:crypto";
import {
  definedFields,
  excerpt,
  failureText,
  type ProgressState,
  type RunCompleted,
  type RunFailure,
} from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import {
  answerFooterOf,
  escapeTelegramHtml as esc,
  renderFinalAnswer,
  renderRunErrorHtml,
} from "../../render/index.js";
import type { Outbox } from "../outbox.js";
import type { SendOptions } from "../outbox-types.js";
import type { RunAgain } from "./resume-button.js";
import type { RunIndex } from "./run-index.js";

/** Answers longer than this also arrive as a Markdown file (easier to read and keep). */
const DOCUMENT_ANSWER_CHARS = 12_000;

/** A failed run that did not say why. */
const UNEXPLAINED: RunFailure = {
  reason: "internal",
  what: "The run failed without saying why.",
  hint: "Send the message again, or /new to start a fresh session.",
};

export type ResultDeps = { outbox: Outbox; logger: Logger; runs: Pick<RunIndex, "rememberAnswer"> };

/** A chat, and the message what is sent there quotes, if any. */
export type QuotedChat = { chatId: number; quoteReplyTo: number | undefined };

/** Where a run's end is said: its chat, its project, and the message it quotes, if any. */
export type ResultTarget = QuotedChat & { project: string };

/** The send options that quote `target.quoteReplyTo` (none when there is nothing to quote). */
export const quoting = (target: QuotedChat): Pick<SendOptions, "replyTo"> =>
  definedFields({ replyTo: target.quoteReplyTo });

/**
 * Sends the answer; its first part and its file quote `quoteReplyTo` when given. Resolves with
 * the id of its last part once delivered (undefined when it was not).
 */
export function sendAnswer(
  deps: ResultDeps,
  target: ResultTarget,
  event: RunCompleted,
  state: ProgressState,
): Promise<number | undefined> {
  const { parts, fallback } = renderFinalAnswer(event.answer, answerFooterOf(state));
  if (fallback !== undefined)
    deps.logger.event(
      "telegram.answer_as_plain_text",
      { chatId: target.chatId, runId: event.runId, ...fallback },
      "warn",
    );
  const session = event.sessionId ?? state.sessionId;
  const sent = parts.map(({ html, silent }, index) => {
    // Only the first part notifies; it quotes the message it answers in a busy chat.
    const quote = index === 0 ? quoting(target) : {};
    // The first part is what the person waits for: it need not wait for a progress edit's slot.
    const urgent = index === 0;
    return deps.outbox
      .send(target.chatId, { html }, { mustDeliver: true, silent, urgent, ...quote })
      .then((delivery) => {
        if (!delivery.ok) return undefined;
        if (session !== undefined)
          deps.runs.rememberAnswer(target.chatId, delivery.messageId, { sessionId: session, project: target.project });
        return delivery.messageId;
      });
  });
  if (event.answer.length > DOCUMENT_ANSWER_CHARS) {
    void deps.outbox.sendDocument(
      target.chatId,
      { filename: "answer.md", data: Buffer.from(event.answer, "utf8"), captionHtml: "The whole answer as Markdown." },
      { mustDeliver: true, silent: true, ...quoting(target) },
    );
  }
  return sent.at(-1) ?? Promise.resolve(undefined);
}

/**
 * Says what went wrong and what to do, with a short incident id that finds the details in the
 * log, and the buttons that do it when there are any. It quotes `quoteReplyTo` when given, as an
 * answer does: in a busy chat, which request failed (and in a forum group, in its topic).
 */
export function sendRunError(deps: ResultDeps, target: QuotedChat, event: RunCompleted, again?: RunAgain): void {
  const { chatId } = target;
  const incidentId = randomBytes(3).toString("hex");
  const failure = event.error ?? UNEXPLAINED;
  deps.logger.event(
    "telegram.run_failed",
    {
      chatId,
      runId: event.runId,
      sessionId: event.sessionId,
      incidentId,
      reason: failure.reason,
      error: failureText(failure),
    },
    "error",
  );
  const hint = again?.hint ?? failure.hint;
  const html = renderRunErrorHtml({ what: excerpt(failure.what, 300), hint: excerpt(hint, 300), incidentId });
  void deps.outbox.send(chatId, again === undefined ? { html } : { html, keyboard: again.keyboard }, {
    mustDeliver: true,
    urgent: true,
    ...quoting(target),
  });
}

/** A queued message that never ran. */
export function unstartedHtml(event: RunCompleted): string {
  if (event.cancelled) return "⏹ Cancelled before it started.";
  return `⚠️ ${esc(event.error === undefined ? "This message did not run." : failureText(event.error))}`;
}
