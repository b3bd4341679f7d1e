// The Cancel button under a queued or live run's message: the first tap cancels the run (or
// takes it out of the queue); later taps read "Already cancelling", and a tap after the run
// ended takes the button down. Its token is the run id, so it works across a restart too.
import { Composer } from "grammy";
import { buttonTrigger } from "../../callback-data.js";
import type { TelecodeContext } from "../context.js";
import { NOTHING } from "../decision-messages.js";
import { CANCEL_CHOICE } from "../run-view.js";
import { runIdFromToken } from "../run-token.js";
import { logFailure, type BridgeServices } from "../services.js";
import { readTap, takeDown, toast } from "./tap.js";

const CANCEL_TRIGGER = buttonTrigger(CANCEL_CHOICE);

export function cancelButtons(
  deps: Pick<BridgeServices, "outbox" | "runs" | "sessions" | "logger">,
): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(CANCEL_TRIGGER, (ctx) => {
    const tap = readTap(ctx);
    if (tap?.token === undefined) return;
    const runId = runIdFromToken(tap.token);
    const view = deps.runs.byRun(runId);
    if (view === undefined || view.chatId !== tap.chatId) {
      // A tap naming another run on a live run's message proves nothing: its buttons stay.
      const live =
        tap.chatId === undefined || tap.messageId === undefined
          ? undefined
          : deps.runs.byMessage(tap.chatId, tap.messageId);
      if (live !== undefined) return toast(deps.outbox, tap, NOTHING);
      // The run is over, so is its Cancel button.
      toast(deps.outbox, tap, "No longer pending");
      takeDown(deps.outbox, tap);
      return;
    }
    if (view.cancelRequested) return toast(deps.outbox, tap, "Already cancelling");
    view.cancelRequested = true;
    toast(deps.outbox, tap, "Cancelling…");
    deps.sessions.cancel(runId).then(
      (outcome) => {
        deps.logger.event("telegram.cancel_tapped", { chatId: tap.chatId, runId, outcome });
      },
      logFailure(deps.logger, "telegram.cancel_failed"),
    );
  });
  return buttons;
}
