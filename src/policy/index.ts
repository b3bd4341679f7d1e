// Decisions, pure: the decision table, the plan / outline / re-arm / question machines, the
// prompts a person sees and the messages the model reads. Other folders import from here.
export { cliModeFor, describeMode, isAutonomousMode, isPlanChat, MODE_SUMMARIES } from "./modes.js";
export { defaultDecisionSettings } from "./settings.js";
export type { DecisionSettings, RunInfo } from "./settings.js";
export { housekeepingSubtypes, previewTools, routeHousekeeping, routeToolRequest } from "./decision-table.js";
export type { AskKind, DenyReason, HousekeepingRoute, Route, TableInput } from "./decision-table.js";
export {
  approvalChoiceIds,
  approvalPrompt,
  describeSessionPermissions,
  resolveApproval,
  sessionPermissionUpdates,
} from "./approval-prompt.js";
export {
  armGate,
  disarmedGate,
  gateAfterText,
  isGateSatisfied,
  isSteeredPlanSummary,
  outlineMinChars,
  planApprovalCaption,
  planChoiceIds,
  planPrompt,
  resolvePlanAnswer,
} from "./plan-machine.js";
export type { OutlineGate, PlanResolution } from "./plan-machine.js";
export {
  answerQuestion,
  doneChoiceId,
  optionChoiceId,
  parseQuestions,
  questionAnswerResponse,
  questionPrompt,
  startQuestionFlow,
  typeChoiceId,
} from "./questions.js";
export type { Question, QuestionFlow, QuestionStep } from "./questions.js";
export {
  answerElicitation,
  elicitationPrompt,
  isLocalLink,
  parseElicitation,
  startElicitation,
} from "./elicitation.js";
export type { Elicitation, ElicitationFlow, ElicitationStep } from "./elicitation.js";
export { typedValue } from "./elicitation-fields.js";
export type { ElicitationField, FieldOption } from "./elicitation-fields.js";
export { decideRearm, initialRearm, onPlanApproved, onTaskChanged, onTurnClosed } from "./rearm.js";
export type { RearmDecision, RearmState } from "./rearm.js";
export { asksPerson, initialPolicyState, stepPolicy } from "./session-policy.js";
export { PolicyError } from "./session-policy-types.js";
export type {
  PendingDecision,
  PendingFlow,
  PolicyEffect,
  PolicyInput,
  PolicyState,
  PolicyStep,
} from "./session-policy-types.js";
export { closeDecision, emptyPendingBook, openDecision, verdictFor } from "./pending-book.js";
export type { ClosedHow, PendingBook } from "./pending-book.js";
export { compactLineDiff } from "./line-diff.js";
export { describeToolCall, toolCallTitle } from "./tool-summary.js";
export { diffHeading, diffLineText, infoLines, outcomeText, promptLines, sectionLines } from "./prompt-text.js";
export { findEditSite, lineCount } from "./edit-site.js";
export { headLines, oneLine, splitLongText } from "./text.js";
export { answerFromTypedLine } from "./typed-reply.js";
export {
  discussPlanMessage,
  isSteeringAnswer,
  noLongerPendingMessage,
  outlineRequestedMessage,
  outlineStillMissingMessage,
  personDeniedMessage,
  personRepliedMessage,
  planDeniedMessage,
  questionsOffMessage,
  questionTimedOutMessage,
  questionUnattendedMessage,
  refusalInWords,
  stillInPlanModeMessage,
  timedOutMessage,
  unattendedMessage,
} from "./messages.js";
export type {
  AnswerVerdict,
  DecisionOutcome,
  DecisionPrompt,
  DecisionPromptKind,
  DiffLine,
  InfoKind,
  InfoMessage,
  PersonAnswer,
  PromptChoice,
  PromptSection,
  TypedWords,
} from "./prompt-types.js";
export { shownWords } from "./prompt-types.js";
