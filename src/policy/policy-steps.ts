// The small steps every decision path of the session policy shares: opening and closing a
// pending decision (the only place a request is answered), its timer, and who decided.
import type { ApprovalAnswer, DecisionClassification } from "../domain/index.js";
import type { DenyReason } from "./decision-table.js";
import { disarmedGate } from "./plan-machine.js";
import type { DecisionOutcome } from "./prompt-types.js";
import { onPlanApproved } from "./rearm.js";
import type { PendingDecision, PolicyEffect, PolicyState, PolicyStep } from "./session-policy-types.js";

/** What a person reads when policy said no without asking (an unattended run's denial is in its progress only). */
export const denyTitles: Record<Exclude<DenyReason, "unattended">, (tool: string) => string> = {
  plan_mode: (tool) => `Blocked ${tool} in plan mode; Claude was told to present its plan first.`,
  outline_gate: () => "Asked Claude to write the outline before presenting the plan again.",
  questions_off: () => "Claude asked a question; questions are off, so it was told to use reasonable defaults.",
  no_questions: () => "Claude sent a question without text; it was told to ask in its reply.",
};

export function timerEffects(state: PolicyState, decisionId: string): PolicyEffect[] {
  const ms = state.settings.approvalTimeoutMs;
  return ms !== null && ms > 0 ? [{ type: "startTimer", decisionId, delayMs: ms }] : [];
}

export function withPending(state: PolicyState, p: PendingDecision | undefined, removeId?: string): PolicyState {
  const pending = new Map(state.pending);
  if (removeId !== undefined) pending.delete(removeId);
  if (p) pending.set(p.decisionId, p);
  return { ...state, pending };
}

/** Who decided, for the engine's approval_resolved: a person's name, or how it ended. */
export function decidedBy(outcome: DecisionOutcome): string {
  switch (outcome.reason) {
    case "person":
    case "typed_reply":
      return outcome.by ?? "person";
    case "timeout":
      return "timeout";
    case "withdrawn":
      return "withdrawn";
    case "session_end":
      return "session end";
  }
}

/**
 * Who decided, for Claude Code's own record: a person's yes (for good when it keeps rules, as
 * "Always allow" does) or no, typed or tapped; an approval timeout is Telecode's configuration.
 * A request withdrawn or left by its session's end was decided by no one.
 */
function classification(answer: ApprovalAnswer, outcome: DecisionOutcome): DecisionClassification | undefined {
  switch (outcome.reason) {
    case "person":
    case "typed_reply":
      if (answer.behavior === "deny") return "user_reject";
      return (answer.updatedPermissions?.length ?? 0) > 0 ? "user_permanent" : "user_temporary";
    case "timeout":
      return "config";
    case "withdrawn":
    case "session_end":
      return undefined;
  }
}

/** The answer as Claude Code gets it: with who decided, when someone did. */
function classified(answer: ApprovalAnswer, outcome: DecisionOutcome): ApprovalAnswer {
  const by = classification(answer, outcome);
  return by === undefined ? answer : { ...answer, decisionClassification: by };
}

/** Ends a pending decision: the only place a pending request is answered. */
export function close(
  state: PolicyState,
  p: PendingDecision,
  answer: ApprovalAnswer,
  outcome: DecisionOutcome,
): PolicyStep {
  return {
    state: withPending(state, undefined, p.decisionId),
    effects: [
      { type: "cancelTimer", decisionId: p.decisionId },
      { type: "respond", decisionId: p.decisionId, answer: classified(answer, outcome), by: decidedBy(outcome) },
      { type: "settle", decisionId: p.decisionId, outcome },
    ],
    verdict: "accepted",
  };
}

export function approvePlanIn(state: PolicyState, runId: string | undefined, nowMs: number): PolicyState {
  return {
    ...state,
    gate: disarmedGate,
    previewSkipRunId: runId ?? state.previewSkipRunId,
    rearm: onPlanApproved(state.rearm, state.turn, nowMs),
  };
}
