// Decision buttons (approve, deny, a question's options…): the tap goes to the decision
// ledger through the decision's message; the toast says what happens next.
import { Composer } from "grammy";
import { DECISION_TRIGGER } from "../choice-code.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { actionOf, readTap, takeDown, toast } from "./tap.js";

export function decisionButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers">,
): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(DECISION_TRIGGER, (ctx) => {
    const tap = readTap(ctx);
    if (tap === undefined) return;
    const entry = actionOf(deps, tap, "decision");
    if (entry === undefined || tap.choice === undefined) return;
    const reply = deps.prompts.tap(entry.action, tap.choice, tap.from.name);
    toast(deps.outbox, tap, reply.toast);
    if (reply.removeButtons) takeDown(deps.outbox, tap);
  });
  return buttons;
}
