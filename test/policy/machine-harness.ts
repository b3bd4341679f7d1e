// Test helper: drives the pure session machine step by step and keeps its state, so tests
// read as a conversation (request → prompt → answer → response).
import type { ApprovalRequest, TelecodeEvent } from "../../src/domain/events.js";
import {
  initialPolicyState,
  stepPolicy,
  type DecisionSettings,
  type PersonAnswer,
  type PolicyEffect,
  type PolicyInput,
  type PolicyState,
  type PolicyStep,
  type RunInfo,
} from "../../src/policy/index.js";

export type Machine = {
  state: PolicyState;
  step(input: PolicyInput): PolicyStep;
  request(request: ApprovalRequest, opts?: { decisionId?: string; run?: RunInfo; nowMs?: number }): PolicyStep;
  answer(decisionId: string, answer: PersonAnswer, nowMs?: number): PolicyStep;
  tap(decisionId: string, choiceId: string): PolicyStep;
  observe(...events: TelecodeEvent[]): void;
};

export function machine(settings: Partial<DecisionSettings> = {}): Machine {
  const m: Machine = {
    state: initialPolicyState(settings),
    step(input) {
      const s = stepPolicy(m.state, input);
      m.state = s.state;
      return s;
    },
    request(request, opts = {}) {
      return m.step({
        type: "request",
        decisionId: opts.decisionId ?? request.requestId,
        request,
        run: opts.run,
        nowMs: opts.nowMs ?? 0,
      });
    },
    answer(decisionId, answer, nowMs = 0) {
      return m.step({ type: "answer", decisionId, answer, nowMs });
    },
    tap(decisionId, choiceId) {
      return m.answer(decisionId, { kind: "choice", choiceId, by: "ann" });
    },
    observe(...events) {
      for (const event of events) m.step({ type: "observed", event });
    },
  };
  return m;
}

export function responded(step: PolicyStep): Extract<PolicyEffect, { type: "respond" }>["answer"] | undefined {
  const e = step.effects.find((x): x is Extract<PolicyEffect, { type: "respond" }> => x.type === "respond");
  return e?.answer;
}

export function asked(step: PolicyStep): Extract<PolicyEffect, { type: "askPerson" }>["prompt"] | undefined {
  const e = step.effects.find((x): x is Extract<PolicyEffect, { type: "askPerson" }> => x.type === "askPerson");
  return e?.prompt;
}

export function informed(step: PolicyStep): Extract<PolicyEffect, { type: "inform" }>["info"][] {
  return step.effects.flatMap((x) => (x.type === "inform" ? [x.info] : []));
}

export function effectTypes(step: PolicyStep): string[] {
  return step.effects.map((e) => e.type);
}

export const text = (t: string, parentToolUseId: string | null = null): TelecodeEvent => ({
  type: "text",
  text: t,
  parentToolUseId,
});
