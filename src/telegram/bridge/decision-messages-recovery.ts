// After a stop, every decision message is brought to the state the ledger recorded: one still
// pending lost its buttons with the restart, and one whose settled edit a crash lost (an Allow
// recorded, its message still showing buttons) reads as decided. Nothing live-looking stays.
import { isSteeredPlanSummary, type DecisionOutcome } from "../../policy/index.js";
import { escapeTelegramHtml } from "../../render/index.js";
import type { DecisionRecord } from "../../store/index.js";
import { outcomeIcon, renderSettledHtml } from "./prompt-html.js";
import type { BridgeServices } from "./services.js";

/** What a decision still pending when Telecode stopped says afterwards. */
// Its run was interrupted by the same stop, and its progress message carries Continue.
export const RESTARTED_DECISION_NOTE =
  "Telecode restarted, so this request is no longer pending. Tap Continue on the interrupted task to pick up where it left off.";

type Deps = Pick<BridgeServices, "store" | "logger" | "outbox">;

/** Edits each decision message that does not show its recorded state; `expiredNow` were pending at this start. */
export function showRecordedDecisions(deps: Deps, expiredNow: ReadonlySet<string>): DecisionRecord[] {
  const { store, logger } = deps;
  let unshown: DecisionRecord[] = [];
  try {
    unshown = store.decisions.listUnshown();
  } catch (error) {
    logger.event("telegram.recovery_failed", { err: error }, "error");
  }
  for (const decision of unshown) {
    if (decision.messageId === null) continue;
    const outcome = recordedOutcome(decision, expiredNow.has(decision.decisionId));
    logger.event("telegram.decision_reshown", {
      chatId: decision.chatId,
      decisionId: decision.decisionId,
      state: decision.state,
    });
    showOutcome(deps, decision, decision.messageId, outcome);
  }
  return unshown;
}

function showOutcome(deps: Deps, decision: DecisionRecord, messageId: number, outcome: DecisionOutcome): void {
  const { store, outbox, logger } = deps;
  const markShown = (ok: boolean): void => {
    if (!ok) return;
    try {
      store.decisions.markShown(decision.decisionId);
    } catch (error) {
      logger.event("telegram.decision_record_failed", { err: error }, "error");
    }
  };
  if (decision.messageHtml !== null) {
    const html = renderSettledHtml(decision.messageHtml, outcome);
    void outbox
      .edit(decision.chatId, messageId, { html }, { mustDeliver: true })
      .then((delivery) => markShown(delivery.ok));
    return;
  }
  // A message recorded before its text was kept: its buttons go, and a reply says how it ended.
  void outbox.editKeyboard(decision.chatId, messageId, undefined).then((delivery) => markShown(delivery.ok));
  void outbox.send(
    decision.chatId,
    { html: `${outcomeIcon(outcome)} ${escapeTelegramHtml(outcome.summary)}` },
    { replyTo: messageId, silent: true },
  );
}

/**
 * The outcome line for a decision's recorded state: as its message would have said it, and who
 * decided, when recorded (decisions recorded before that was kept read "Allowed", "Answered").
 */
export function recordedOutcome(decision: DecisionRecord, expiredNow: boolean): DecisionOutcome {
  const plan = decision.kind === "plan";
  const decided = (fallback: string) => ({
    reason: "person" as const,
    summary: decision.outcomeSummary ?? fallback,
    ...(decision.decidedBy === null ? {} : { by: decision.decidedBy }),
  });
  switch (decision.state) {
    case "approved":
      return { decision: "allow", ...decided(plan ? "Plan approved" : "Allowed") };
    case "answered":
      return { decision: "allow", ...decided("Answered") };
    case "denied": {
      // An outline asked for is no refusal, as the live message showed it.
      const steered = plan && isSteeredPlanSummary(decision.outcomeSummary);
      return { decision: "deny", ...decided(plan ? "Plan not approved" : "Denied"), ...(steered ? { steered } : {}) };
    }
    case "withdrawn":
      // Shown at start: the CLI stopped asking while this Telecode was not there to say so.
      return { decision: "none", reason: "withdrawn", summary: "Withdrawn by Claude while Telecode was restarting" };
    case "expired":
    case "pending":
      return {
        decision: "none",
        reason: "session_end",
        summary: expiredNow ? RESTARTED_DECISION_NOTE : "No longer pending",
      };
  }
}
