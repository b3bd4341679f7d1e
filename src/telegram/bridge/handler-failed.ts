// A handler that threw: the error is logged, and the person is told, so a message or a tap
// never goes unanswered in silence. What failed is on the computer running Telecode, so the
// chat says what kind of failure it was and where to look; the log has the rest.
import type { BotError } from "grammy";
import { hostFailureInWords, isDatabaseFailure } from "../../domain/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import type { TelecodeContext } from "./context.js";
import type { BridgeServices } from "./services.js";

const LOGGED_AS = "telegram.handler_failed";

/** The reply to a message whose handler threw: what failed (no stack, no paths of the machine), and what to do. */
export function handlerFailedText(error: unknown): string {
  const what = hostFailureInWords(error, LOGGED_AS, "its");
  const next = isDatabaseFailure(error)
    ? "Run `telecode doctor` on the computer running Telecode, then send the message again."
    : "Send the message again; if it fails the same way, that log says why.";
  return `⚠️ Telecode could not finish handling this message: ${what}. ${next}`;
}

export function tapFailedText(error: unknown): string {
  return isDatabaseFailure(error)
    ? "That did not work: Telecode's database failed. Run telecode doctor on the computer running it, then tap again."
    : `That did not work: an unexpected error (in Telecode's log as ${LOGGED_AS}). Tap again.`;
}

/** The error boundary's handler: logs, then answers the tap or replies to the message. */
export function handlerFailed(deps: Pick<BridgeServices, "logger" | "outbox">, error: BotError<TelecodeContext>): void {
  const { ctx } = error;
  deps.logger.event(LOGGED_AS, { err: error.error, updateId: ctx.update.update_id }, "error");
  const query = ctx.callbackQuery;
  if (query !== undefined) {
    // A handler that answered the tap before it threw makes this answer fail: nothing more to say.
    void deps.outbox.answerCallback(query.id, { text: tapFailedText(error.error), alert: true });
    return;
  }
  const message = ctx.message ?? ctx.editedMessage;
  if (message === undefined) return;
  void deps.outbox.send(
    message.chat.id,
    { html: escapeTelegramHtml(handlerFailedText(error.error)) },
    { replyTo: message.message_id },
  );
}
