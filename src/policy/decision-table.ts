// The decision table: per control request, what is answered at once and what waits for a
// person. One place, in the order it applies (README: docs/decisions.md). Pure.
//
//  1. Housekeeping (initialize, mcp_message, rewind_files, interrupt, and hook_callbacks whose
//     callback id is not one of Telecode's own): answered at once, payload unread.
//  2. Unattended runs (scheduled, webhook, loop): whatever rows 3–4 would ask a person is denied
//     at once with a message saying nobody is there.
//  3. Autonomous modes (plan, plan-auto, auto, dontAsk, bypassPermissions): can_use_tool is
//     allowed, except
//       a. ExitPlanMode → the plan machine (plan-auto approves it without asking);
//       b. AskUserQuestion → asked (or denied at once when questions are off);
//       c. a request the CLI makes because its mode forbids the call (decision_reason_type
//          "mode"): while the CLI is in plan mode it is denied, telling the model to present its
//          plan first (allowing it would write files before any plan was approved); in other
//          modes it is asked, never allowed unseen;
//       d. Edit/Write/MultiEdit/Bash when the chat previews changes → asked with the diff,
//          unless a plan was approved earlier in the same run.
//  4. Prompting modes (default, acceptEdits): every can_use_tool is asked (ExitPlanMode with the
//     plan prompt, AskUserQuestion as questions); questions off still denies at once.
//  An MCP server's question (elicitation) is asked in every mode: only the person has its
//  answer. Unattended, nobody is there to give it, and it is cancelled at once (row 2).
import { ELICITATION_TOOL, type ApprovalRequest, type PermissionMode } from "../domain/index.js";
import {
  outlineStillMissingMessage,
  questionsOffMessage,
  questionUnattendedMessage,
  stillInPlanModeMessage,
  unattendedMessage,
} from "./messages.js";
import { isAutonomousMode, isPlanChat } from "./modes.js";
import { isGateSatisfied, type OutlineGate } from "./plan-machine.js";
import { parseQuestions } from "./questions.js";

/** Control request subtypes answered without looking at them (row 1). */
export const housekeepingSubtypes: readonly string[] = ["initialize", "mcp_message", "rewind_files", "interrupt"];

export type HousekeepingRoute =
  { kind: "answer_now"; response: Record<string, unknown> } | { kind: "own_hook" } | { kind: "not_housekeeping" };

/**
 * Row 1. `ownCallbackIds` are the hook callback ids Telecode registered itself (scheduling hooks);
 * those go to their owner. Any other hook callback gets the empty hook output `{}`, which lets the
 * CLI carry on as if no hook were set.
 */
export function routeHousekeeping(
  subtype: string,
  callbackId: string | undefined,
  ownCallbackIds: ReadonlySet<string>,
): HousekeepingRoute {
  if (subtype === "hook_callback") {
    return callbackId !== undefined && ownCallbackIds.has(callbackId)
      ? { kind: "own_hook" }
      : { kind: "answer_now", response: {} };
  }
  return housekeepingSubtypes.includes(subtype) ? { kind: "answer_now", response: {} } : { kind: "not_housekeeping" };
}

/** Edit/Write/MultiEdit/Bash: the calls "preview changes" shows before they run. */
export const previewTools: readonly string[] = ["Edit", "Write", "MultiEdit", "Bash"];

export type TableInput = {
  request: ApprovalRequest;
  mode: PermissionMode;
  previewChanges: boolean;
  questionsEnabled: boolean;
  /** The CLI's mode as it last reported it (undefined: not reported yet). */
  cliMode: string | undefined;
  unattended: boolean;
  /** A plan was approved earlier in this run: its previews are skipped. */
  planApprovedInRun: boolean;
  gate: OutlineGate;
};

export type AskKind = "approval" | "preview" | "plan" | "plan_after_outline" | "question" | "elicitation";

export type DenyReason = "unattended" | "plan_mode" | "outline_gate" | "questions_off" | "no_questions";

export type Route =
  | { kind: "allow"; row: 3 }
  | { kind: "deny"; row: 2 | 3 | 4; reason: DenyReason; message: string }
  | { kind: "plan_auto_approve"; row: 3 | 4 }
  | { kind: "ask"; row: 3 | 4; ask: AskKind };

function cliInPlanMode(input: TableInput): boolean {
  return input.cliMode === undefined ? isPlanChat(input.mode) : input.cliMode === "plan";
}

/** Rows 3 and 4 for ExitPlanMode / AskUserQuestion, shared by both rows. */
function routeSpecialTool(input: TableInput, row: 3 | 4): Route | undefined {
  const { request } = input;
  if (request.toolName === ELICITATION_TOOL) return { kind: "ask", row, ask: "elicitation" };
  if (request.toolName === "ExitPlanMode") {
    if (input.mode === "plan-auto") return { kind: "plan_auto_approve", row };
    if (input.gate.armed) {
      return isGateSatisfied(input.gate, request)
        ? { kind: "ask", row, ask: "plan_after_outline" }
        : { kind: "deny", row, reason: "outline_gate", message: outlineStillMissingMessage };
    }
    return { kind: "ask", row, ask: "plan" };
  }
  if (request.toolName === "AskUserQuestion") {
    if (!input.questionsEnabled) return { kind: "deny", row, reason: "questions_off", message: questionsOffMessage };
    if (parseQuestions(request.input).length === 0) {
      return {
        kind: "deny",
        row,
        reason: "no_questions",
        message: "The question could not be shown: it had no question text. Ask in your reply instead.",
      };
    }
    return { kind: "ask", row, ask: "question" };
  }
  return undefined;
}

/** Rows 3 and 4, before the unattended check. */
function routeByMode(input: TableInput): Route {
  const { request } = input;
  if (!isAutonomousMode(input.mode)) return routeSpecialTool(input, 4) ?? { kind: "ask", row: 4, ask: "approval" };
  const special = routeSpecialTool(input, 3);
  if (special) return special;
  if (request.decisionReasonType === "mode") {
    return cliInPlanMode(input)
      ? { kind: "deny", row: 3, reason: "plan_mode", message: stillInPlanModeMessage(request.toolName) }
      : { kind: "ask", row: 3, ask: "approval" };
  }
  if (input.previewChanges && previewTools.includes(request.toolName) && !input.planApprovedInRun)
    return { kind: "ask", row: 3, ask: "preview" };
  return { kind: "allow", row: 3 };
}

/** Rows 2–4 for one can_use_tool request. */
export function routeToolRequest(input: TableInput): Route {
  const route = routeByMode(input);
  if (route.kind !== "ask" || !input.unattended) return route;
  const message =
    route.ask === "question" || route.ask === "elicitation"
      ? questionUnattendedMessage
      : unattendedMessage(input.request.toolName);
  return { kind: "deny", row: 2, reason: "unattended", message };
}
