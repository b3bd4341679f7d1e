// Decision buttons (approve, deny, a question's options…): the tap goes to the decision
// ledger through the decision's message; the toast says what happens next.
import type { Composer } from "grammy";
import { DECISION_TRIGGER } from "../choice-code.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { buttonComposer, takeDown, toast } from "./tap.js";

export function decisionButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers">,
): Composer<TelecodeContext> {
  return buttonComposer(deps, DECISION_TRIGGER, "decision", (tap, action) => {
    if (tap.choice === undefined) return;
    const reply = deps.prompts.tap(action, tap.choice, tap.from.name);
    toast(deps.outbox, tap, reply.toast);
    if (reply.removeButtons) takeDown(deps.outbox, tap);
  });
}
