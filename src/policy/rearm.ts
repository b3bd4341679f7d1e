// Plan re-arm: after a plan is approved the CLI leaves plan mode; a plan-mode chat puts it
// back at every turn close (and before a follow-up), unless background agents started in the
// approving turn still run (they would inherit plan mode) and the ceiling has not passed.
import type { PermissionMode, TaskChanged } from "../domain/index.js";
import { isPlanChat } from "./modes.js";

export type RearmState = {
  /** The turn in which a plan was approved, while that turn is open. */
  approvalTurn: number | undefined;
  /** When the last plan was approved (epoch ms): the deferral ceiling counts from here. */
  approvedAtMs: number | undefined;
  /** Subagents started in the approving turn after the approval that have not ended. */
  deferringTasks: readonly string[];
};

export const initialRearm: RearmState = { approvalTurn: undefined, approvedAtMs: undefined, deferringTasks: [] };

export function onPlanApproved(state: RearmState, turn: number, nowMs: number): RearmState {
  return { approvalTurn: turn, approvedAtMs: nowMs, deferringTasks: state.deferringTasks };
}

/** Subagent tasks only: a long shell command keeps running whatever the mode. */
function isAgentTask(event: TaskChanged): boolean {
  return event.taskType === undefined || event.taskType === "local_agent";
}

export function onTaskChanged(state: RearmState, currentTurn: number, event: TaskChanged): RearmState {
  if (event.phase === "finished") {
    if (!state.deferringTasks.includes(event.taskId)) return state;
    return { ...state, deferringTasks: state.deferringTasks.filter((t) => t !== event.taskId) };
  }
  if (
    event.phase === "started" &&
    isAgentTask(event) &&
    state.approvalTurn === currentTurn &&
    !state.deferringTasks.includes(event.taskId)
  ) {
    return { ...state, deferringTasks: [...state.deferringTasks, event.taskId] };
  }
  return state;
}

export type RearmContext = {
  chatMode: PermissionMode;
  rearmEnabled: boolean;
  /** The CLI's mode as last reported; undefined when not known yet. */
  cliMode: string | undefined;
  nowMs: number;
  deferCeilingMs: number;
};

export type RearmDecision =
  | { kind: "none" }
  /** Send set_permission_mode plan and wait for the ack. */
  | { kind: "set_plan" }
  /** Not yet: this many agents still run; say so. */
  | { kind: "defer"; agents: number };

/**
 * Decides at a turn close or before a follow-up. A deferral ends when the agents end or
 * `deferCeilingMs` after the approval, whichever is first.
 */
export function decideRearm(state: RearmState, ctx: RearmContext): { state: RearmState; decision: RearmDecision } {
  if (!isPlanChat(ctx.chatMode) || !ctx.rearmEnabled || ctx.cliMode === "plan")
    return { state, decision: { kind: "none" } };
  const ceilingPassed = state.approvedAtMs !== undefined && ctx.nowMs >= state.approvedAtMs + ctx.deferCeilingMs;
  if (state.deferringTasks.length > 0 && !ceilingPassed)
    return { state, decision: { kind: "defer", agents: state.deferringTasks.length } };
  return { state: { ...state, deferringTasks: [] }, decision: { kind: "set_plan" } };
}

/** The approving turn has closed: agents started later no longer defer the re-arm. */
export function onTurnClosed(state: RearmState): RearmState {
  return state.approvalTurn === undefined ? state : { ...state, approvalTurn: undefined };
}
