// The Cancel button under a progress message: the first tap cancels the run (or takes it out
// of the queue); later taps read "Already cancelling", and a tap after the run ended takes
// the button down.
import type { Composer } from "grammy";
import { buttonTrigger } from "../../callback-data.js";
import type { TelecodeContext } from "../context.js";
import { logFailure, type BridgeServices } from "../services.js";
import { buttonComposer, takeDown, toast } from "./tap.js";

const CANCEL_TRIGGER = buttonTrigger("cancel");

export function cancelButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers" | "runs" | "sessions" | "logger">,
): Composer<TelecodeContext> {
  return buttonComposer(deps, CANCEL_TRIGGER, "cancel", (tap, { runId }) => {
    const view = deps.runs.byRun(runId);
    if (view === undefined) {
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
}
