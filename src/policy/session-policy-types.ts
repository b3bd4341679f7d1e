// The session machine's data: its state, the inputs it takes and the effects it asks for.
// Types only (plus the contract error); the transitions live in session-policy.ts.
import type { ApprovalAnswer, ApprovalRequest, TelecodeEvent } from "../domain/index.js";
import type { OutlineGate } from "./plan-machine.js";
import type { AnswerVerdict, DecisionOutcome, DecisionPrompt, InfoMessage, PersonAnswer } from "./prompt-types.js";
import type { ElicitationFlow } from "./elicitation.js";
import type { QuestionFlow } from "./questions.js";
import type { RearmState } from "./rearm.js";
import type { DecisionSettings, RunInfo } from "./settings.js";

/** A caller broke the machine's contract (a bug, not an outcome). */
export class PolicyError extends Error {
  readonly code: "policy.duplicate_decision";
  constructor(code: "policy.duplicate_decision", message: string) {
    super(message);
    this.name = "PolicyError";
    this.code = code;
  }
}

export type PendingFlow =
  | { kind: "approval"; preview: boolean }
  | { kind: "plan"; afterOutline: boolean }
  | { kind: "question"; flow: QuestionFlow }
  | { kind: "elicitation"; flow: ElicitationFlow };

export type PendingDecision = {
  decisionId: string;
  request: ApprovalRequest;
  runId: string | undefined;
  flow: PendingFlow;
};

export type PolicyState = {
  settings: DecisionSettings;
  cliMode: string | undefined;
  turn: number;
  gate: OutlineGate;
  /** The run in which a plan was approved: its Edit/Write/Bash previews are skipped. */
  previewSkipRunId: string | undefined;
  rearm: RearmState;
  pending: ReadonlyMap<string, PendingDecision>;
  ended: boolean;
};

export type PolicyInput =
  | { type: "request"; decisionId: string; request: ApprovalRequest; run: RunInfo | undefined; nowMs: number }
  | { type: "answer"; decisionId: string; answer: PersonAnswer; nowMs: number }
  | { type: "timeout"; decisionId: string }
  /** The request's abort signal fired (withdrawn, or the process went away). */
  | { type: "withdrawn"; decisionId: string }
  | { type: "observed"; event: TelecodeEvent }
  /** A turn is about to close (before its turn_finished is delivered). */
  | { type: "turn_closing"; nowMs: number }
  /** A follow-up message is about to be written to the CLI. */
  | { type: "follow_up"; nowMs: number }
  | { type: "mode_set"; mode: string }
  | { type: "mode_set_failed"; mode: string; error: string }
  | { type: "settings_changed"; settings: Partial<DecisionSettings> }
  | { type: "session_ended" };

export type PolicyEffect =
  /** Answer the CLI's request (resolves the engine's decide call). */
  | { type: "respond"; decisionId: string; answer: ApprovalAnswer; by: string }
  /** Show a prompt, or replace the prompt of the same decision (next question, toggles). */
  | { type: "askPerson"; decisionId: string; prompt: DecisionPrompt }
  | { type: "settle"; decisionId: string; outcome: DecisionOutcome }
  | { type: "inform"; info: InfoMessage }
  /** Send set_permission_mode and feed back mode_set / mode_set_failed when it is acked. */
  | { type: "setPermissionMode"; mode: string }
  /** (Re)start the decision's answer timeout; fire `timeout` after delayMs. */
  | { type: "startTimer"; decisionId: string; delayMs: number }
  | { type: "cancelTimer"; decisionId: string };

export type PolicyStep = { state: PolicyState; effects: PolicyEffect[]; verdict?: AnswerVerdict };
