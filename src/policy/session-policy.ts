// One session's decisions as a pure machine: (state, input) → (state, effects). Routes each
// request through the decision table, runs the plan, question and re-arm machines, and answers
// every request exactly once. No I/O, no timers: time is an input, timers are effects.
import type { ApprovalAnswer, ApprovalRequest, TelecodeEvent } from "../domain/index.js";
import { approvalPrompt, resolveApproval } from "./approval-prompt.js";
import { routeToolRequest, type Route } from "./decision-table.js";
import { noLongerPendingMessage, questionTimedOutMessage, timedOutMessage } from "./messages.js";
import {
  disarmedGate,
  gateAfterText,
  planApprovalCaption,
  planAutoApprovedSections,
  planPrompt,
  resolvePlanAnswer,
} from "./plan-machine.js";
import type { DecisionPrompt, InfoMessage, PersonAnswer } from "./prompt-types.js";
import {
  answerQuestion,
  parseQuestions,
  questionAnswerResponse,
  questionPrompt,
  startQuestionFlow,
  summarizeAnswers,
} from "./questions.js";
import { answerElicitation, elicitationPrompt, startElicitation } from "./elicitation.js";
import { decideRearm, initialRearm, onTaskChanged, onTurnClosed } from "./rearm.js";
import type { ElicitationFlow } from "./elicitation.js";
import {
  PolicyError,
  type PendingDecision,
  type PendingFlow,
  type PolicyEffect,
  type PolicyInput,
  type PolicyState,
  type PolicyStep,
} from "./session-policy-types.js";
import { defaultDecisionSettings, type DecisionSettings, type RunInfo } from "./settings.js";
import { approvePlanIn, close, denyTitles, timerEffects, withPending } from "./policy-steps.js";

export function initialPolicyState(settings: Partial<DecisionSettings> = {}): PolicyState {
  return {
    settings: { ...defaultDecisionSettings, ...settings },
    cliMode: undefined,
    turn: 0,
    gate: disarmedGate,
    previewSkipRunId: undefined,
    rearm: initialRearm,
    pending: new Map(),
    ended: false,
  };
}

/** How the decision table routes `request` in `state`. */
function routeOf(state: PolicyState, request: ApprovalRequest, run: RunInfo | undefined): Route {
  const s = state.settings;
  return routeToolRequest({
    request,
    mode: s.mode,
    previewChanges: s.previewChanges,
    questionsEnabled: s.questionsEnabled,
    cliMode: state.cliMode,
    unattended: run?.unattended === true,
    planApprovedInRun: run !== undefined && state.previewSkipRunId === run.id,
    gate: state.gate,
  });
}

/** Whether `request` would be put to the person now (what it shows is worth preparing then). */
export function asksPerson(state: PolicyState, request: ApprovalRequest, run: RunInfo | undefined): boolean {
  return !state.ended && routeOf(state, request, run).kind === "ask";
}

function onRequest(state: PolicyState, input: Extract<PolicyInput, { type: "request" }>): PolicyStep {
  const { decisionId, request, run, nowMs } = input;
  if (state.pending.has(decisionId))
    throw new PolicyError("policy.duplicate_decision", `Decision id ${decisionId} is already open.`);
  if (state.ended) {
    return {
      state,
      effects: [
        {
          type: "respond",
          decisionId,
          answer: { behavior: "deny", message: noLongerPendingMessage },
          by: "session end",
        },
      ],
    };
  }
  const route = routeOf(state, request, run);
  // Decided by the chat's settings, no person asked.
  const allow: ApprovalAnswer = {
    behavior: "allow",
    updatedInput: { ...request.input },
    decisionClassification: "config",
  };
  switch (route.kind) {
    case "allow":
      return { state, effects: [{ type: "respond", decisionId, answer: allow, by: "policy" }] };
    case "deny": {
      const respond: PolicyEffect = {
        type: "respond",
        decisionId,
        answer: { behavior: "deny", message: route.message, decisionClassification: "config" },
        by: "policy",
      };
      // An unattended run's denial is told where its tool's line says why; a message for each
      // denied call would only fill a chat nobody is watching.
      if (route.reason === "unattended") return { state, effects: [respond] };
      const title = denyTitles[route.reason](request.toolName);
      return { state, effects: [respond, { type: "inform", info: { kind: "auto_denied", title, sections: [] } }] };
    }
    case "plan_auto_approve":
      return {
        state: approvePlanIn(state, run?.id, nowMs),
        effects: [
          { type: "respond", decisionId, answer: allow, by: "policy" },
          {
            type: "inform",
            info: {
              kind: "plan_auto_approved",
              title: "Plan approved automatically (plan-auto)",
              sections: planAutoApprovedSections(request),
            },
          },
        ],
      };
    case "ask": {
      let flow: PendingFlow;
      let prompt: DecisionPrompt;
      if (route.ask === "plan" || route.ask === "plan_after_outline") {
        const afterOutline = route.ask === "plan_after_outline";
        flow = { kind: "plan", afterOutline };
        const caption = planApprovalCaption({
          chatMode: state.settings.mode,
          rearmEnabled: state.settings.rearmPlanMode,
          agentsDeferringRearm: state.rearm.deferringTasks.length,
        });
        prompt = planPrompt(request, afterOutline, caption);
      } else if (route.ask === "question") {
        const questions = startQuestionFlow(parseQuestions(request.input));
        flow = { kind: "question", flow: questions };
        prompt = questionPrompt(questions);
      } else if (route.ask === "elicitation") {
        const asked = startElicitation(request.input);
        flow = { kind: "elicitation", flow: asked };
        prompt = elicitationPrompt(asked);
      } else {
        flow = { kind: "approval", preview: route.ask === "preview" };
        prompt = approvalPrompt(request, {
          preview: route.ask === "preview",
          projectRoot: state.settings.projectRoot,
        });
      }
      const pending: PendingDecision = { decisionId, request, runId: run?.id, flow };
      return {
        state: withPending(state, pending),
        effects: [{ type: "askPerson", decisionId, prompt }, ...timerEffects(state, decisionId)],
      };
    }
  }
}

function onAnswer(state: PolicyState, p: PendingDecision, answer: PersonAnswer, nowMs: number): PolicyStep {
  const none: PolicyStep = { state, effects: [], verdict: "not_a_choice" };
  switch (p.flow.kind) {
    case "approval": {
      const r = resolveApproval(p.request, answer);
      return r ? close(state, p, r.answer, r.outcome) : none;
    }
    case "elicitation":
      return onElicitationAnswer(state, p, p.flow.flow, answer);
    case "plan": {
      const r = resolvePlanAnswer(p.request, p.flow.afterOutline, answer);
      if (!r) return none;
      const next = r.approved ? approvePlanIn(state, p.runId, nowMs) : { ...state, gate: r.gate };
      return close(next, p, r.answer, r.outcome);
    }
    case "question": {
      const step = answerQuestion(p.flow.flow, answer);
      switch (step.kind) {
        case "stale":
          return { state, effects: [], verdict: "already_answered" };
        case "continue": {
          const updated: PendingDecision = { ...p, flow: { kind: "question", flow: step.flow } };
          return {
            state: withPending(state, updated),
            effects: [
              { type: "askPerson", decisionId: p.decisionId, prompt: questionPrompt(step.flow) },
              ...timerEffects(state, p.decisionId),
            ],
            verdict: "accepted",
          };
        }
        case "complete": {
          const by = answer.by !== undefined ? { by: answer.by } : {};
          const summary = summarizeAnswers(p.flow.flow.questions, step.shown);
          return close(state, p, questionAnswerResponse(p.request.input, step.answers), {
            decision: "allow",
            reason: "person",
            ...by,
            summary,
          });
        }
      }
    }
  }
}

function onElicitationAnswer(
  state: PolicyState,
  p: PendingDecision,
  flow: ElicitationFlow,
  answer: PersonAnswer,
): PolicyStep {
  const step = answerElicitation(flow, answer);
  const by = answer.by !== undefined ? { by: answer.by } : {};
  switch (step.kind) {
    case "stale":
      return { state, effects: [], verdict: "already_answered" };
    case "continue":
      return {
        state: withPending(state, { ...p, flow: { kind: "elicitation", flow: step.flow } }),
        effects: [
          { type: "askPerson", decisionId: p.decisionId, prompt: elicitationPrompt(step.flow) },
          ...timerEffects(state, p.decisionId),
        ],
        verdict: "accepted",
      };
    case "complete":
      return close(state, p, step.answer, { decision: "allow", reason: "person", ...by, summary: step.summary });
    case "declined":
      return close(
        state,
        p,
        { behavior: "deny", message: "The person declined.", declined: true },
        { decision: "deny", reason: "person", ...by, summary: "Declined" },
      );
  }
}

function onRearmPoint(state: PolicyState, nowMs: number, closingTurn: boolean): PolicyStep {
  const s = state.settings;
  const { state: rearm, decision } = decideRearm(state.rearm, {
    chatMode: s.mode,
    rearmEnabled: s.rearmPlanMode,
    cliMode: state.cliMode,
    nowMs,
    deferCeilingMs: s.rearmDeferCeilingMs,
  });
  const next = { ...state, rearm: closingTurn ? onTurnClosed(rearm) : rearm };
  switch (decision.kind) {
    case "none":
      return { state: next, effects: [] };
    case "set_plan":
      return { state: next, effects: [{ type: "setPermissionMode", mode: "plan" }] };
    case "defer": {
      const agents = decision.agents === 1 ? "a background agent" : `${decision.agents} background agents`;
      const info: InfoMessage = {
        kind: "plan_rearm_deferred",
        title: `Plan mode is not restored yet: ${agents} started with the approved plan still running.`,
        sections: [],
      };
      return { state: next, effects: [{ type: "inform", info }] };
    }
  }
}

function onObserved(state: PolicyState, event: TelecodeEvent): PolicyStep {
  switch (event.type) {
    case "session_started":
      return { state: { ...state, cliMode: event.permissionMode }, effects: [] };
    case "mode_changed":
      return { state: { ...state, cliMode: event.mode }, effects: [] };
    case "turn_started":
      return { state: { ...state, turn: event.turn }, effects: [] };
    case "text":
      return event.parentToolUseId === null
        ? { state: { ...state, gate: gateAfterText(state.gate, event.text.length) }, effects: [] }
        : { state, effects: [] };
    case "task_changed":
      return { state: { ...state, rearm: onTaskChanged(state.rearm, state.turn, event) }, effects: [] };
    case "run_completed":
      return state.previewSkipRunId === event.runId
        ? { state: { ...state, previewSkipRunId: undefined }, effects: [] }
        : { state, effects: [] };
    case "approval_withdrawn": {
      const p = [...state.pending.values()].find((x) => x.request.requestId === event.requestId);
      return p ? withdraw(state, p) : { state, effects: [] };
    }
    default:
      return { state, effects: [] };
  }
}

/** The CLI withdrew the request (control_cancel_request), or its abort signal fired. */
function withdraw(state: PolicyState, p: PendingDecision, summary = "Withdrawn by Claude"): PolicyStep {
  return close(
    state,
    p,
    { behavior: "deny", message: noLongerPendingMessage },
    { decision: "none", reason: "withdrawn", summary },
  );
}

/** The one transition function. Effects are to be carried out in order. */
export function stepPolicy(state: PolicyState, input: PolicyInput): PolicyStep {
  switch (input.type) {
    case "request":
      return onRequest(state, input);
    case "answer": {
      const p = state.pending.get(input.decisionId);
      return p ? onAnswer(state, p, input.answer, input.nowMs) : { state, effects: [], verdict: "no_longer_pending" };
    }
    case "timeout": {
      const p = state.pending.get(input.decisionId);
      if (!p) return { state, effects: [] };
      const asked = p.flow.kind === "question" || p.flow.kind === "elicitation";
      const message = asked ? questionTimedOutMessage : timedOutMessage(p.request.toolName);
      return close(
        state,
        p,
        { behavior: "deny", message },
        { decision: "deny", reason: "timeout", summary: "No answer in time" },
      );
    }
    case "withdrawn": {
      const p = state.pending.get(input.decisionId);
      return p ? withdraw(state, p, "No longer pending") : { state, effects: [] };
    }
    case "observed":
      return onObserved(state, input.event);
    case "turn_closing":
      return onRearmPoint(state, input.nowMs, true);
    case "follow_up":
      return onRearmPoint(state, input.nowMs, false);
    case "mode_set":
      return { state: { ...state, cliMode: input.mode }, effects: [] };
    case "mode_set_failed": {
      const info: InfoMessage = {
        kind: "plan_rearm_failed",
        title:
          "Plan mode could not be restored after the approved plan's work. Switch to plan mode again before the next request.",
        sections: [{ kind: "text", label: "Claude Code said", text: input.error }],
      };
      return { state, effects: [{ type: "inform", info }] };
    }
    case "settings_changed":
      return { state: { ...state, settings: { ...state.settings, ...input.settings } }, effects: [] };
    case "session_ended": {
      let step: PolicyStep = { state: { ...state, ended: true }, effects: [] };
      for (const p of state.pending.values()) {
        const closed = close(
          step.state,
          p,
          { behavior: "deny", message: noLongerPendingMessage },
          { decision: "none", reason: "session_end", summary: "Session ended" },
        );
        step = { state: closed.state, effects: [...step.effects, ...closed.effects] };
      }
      return step;
    }
  }
}
