// The Cancel button under a progress message: the first tap cancels the run (or takes it out
// of the queue); later taps read "Already cancelling".
import { Composer } from "grammy";
import { buttonTrigger } from "../../callback-data.js";
import type { TelecodeContext } from "../context.js";
import { logFailure, type BridgeServices } from "../services.js";
import { pendingAction, readTap, toast } from "./tap.js";

export const CANCEL_TRIGGER = buttonTrigger("cancel");

export function cancelButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "sessions" | "logger">,
): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(CANCEL_TRIGGER, (ctx) => {
    const tap = readTap(ctx);
    if (tap === undefined) return;
    const entry = pendingAction(deps, tap, "cancel");
    if (entry === undefined || tap.token === undefined) return;
    const runId = entry.action.runId;
    deps.callbacks.settle(tap.token, "cancel");
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
