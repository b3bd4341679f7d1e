// Decision buttons (approve, deny, a question's options…): the tap goes to the decision
// ledger through the decision's message; the toast says what happens next. In a group with
// telegram.group_approvals = "requester", only who asked for the run is heard (answerers.ts).
import type { Composer } from "grammy";
import { DECISION_TRIGGER } from "../choice-code.js";
import type { TelecodeContext } from "../context.js";
import { onlyTheirs, soleAnswerer, type AnswerersDeps } from "../answerers.js";
import type { BridgeServices } from "../services.js";
import { buttonComposer, takeDown, toast } from "./tap.js";

export function decisionButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers"> & AnswerersDeps,
): Composer<TelecodeContext> {
  return buttonComposer(deps, DECISION_TRIGGER, "decision", (tap, action) => {
    if (tap.choice === undefined) return;
    const sole = soleAnswerer(deps, action.chatId, action.decisionId);
    if (sole !== undefined && sole.userId !== tap.from.id) return toast(deps.outbox, tap, onlyTheirs(sole));
    const reply = deps.prompts.tap(action, tap.choice, tap.from.name);
    toast(deps.outbox, tap, reply.toast);
    if (reply.removeButtons) takeDown(deps.outbox, tap);
  });
}
