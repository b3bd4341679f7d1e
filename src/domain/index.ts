// The domain layer's public surface: Telecode's event union and the small pure helpers that
// build and describe events. No I/O, no wire shapes. Import from here, not from the files.
export type { McpSignInEnd, McpSignInStart } from "./mcp-sign-in.js";
export { mcpServersNamed } from "./mcp-sign-in.js";
export type { SideAnswer, SideExchange } from "./side-answer.js";
export { estimateStepCostUsd, pricesInDescription } from "./cost-estimate.js";
export {
  anyCap,
  capsNear,
  capsReached,
  capStandings,
  nearWords,
  notStartedWords,
  standingsWords,
  stoppedWords,
} from "./budget.js";
export type { BudgetCap, BudgetCaps, CapStanding, Spent } from "./budget.js";
export type { ListPrices, OfferedPrices } from "./cost-estimate.js";
export type {
  ToolKind,
  NoteKind,
  PermissionMode,
  TurnOrigin,
  ApprovalRequest,
  EditSite,
  FileNow,
  ApprovalAnswer,
  DecisionClassification,
  PermissionUpdate,
  SessionStarted,
  TurnStarted,
  ToolStarted,
  ToolUpdated,
  ToolFinished,
  TextEmitted,
  ThinkingEmitted,
  NoteEmitted,
  ModeChanged,
  UsageLimitReported,
  TaskChanged,
  ChecklistItem,
  ChecklistChanged,
  ApprovalRequested,
  ApprovalResolved,
  ApprovalWithdrawn,
  QuestionAsked,
  StepUsage,
  UsageReported,
  TurnFinished,
  RunCompleted,
  PromptSuggested,
  TelecodeEvent,
  TelecodeEventType,
} from "./events.js";
export {
  CHECKLIST_STATUSES,
  CHOOSABLE_PERMISSION_MODES,
  PERMISSION_MODES,
  SESSION_GONE_NOTE,
  MCP_SIGN_IN_NOTE,
  TURN_CUT_OFF_NOTE,
} from "./events.js";
export { checklistStatus, isChecklistItem } from "./checklist.js";
export {
  describeTool,
  ELICITATION_TOOL,
  isMcpTool,
  keepsChecklist,
  knowsTool,
  toolDisplayName,
  TOOL_TITLE_MAX_CHARS,
} from "./tool-kind.js";
export type { TaskSubjects, ToolDescription } from "./tool-kind.js";
export {
  excerpt,
  excerptPath,
  cleanToolDetail,
  doneByTelecode,
  LISTED_BY_TELECODE,
  LOOPS_OFF_IN_CHAT,
  LOOPS_OFF_IN_CONFIG,
  SCHEDULING_FAILED,
  SCHEDULED_BY_TELECODE,
  STOPPED_BY_TELECODE,
  relativeToCwd,
  formatCount,
  formatDurationMs,
  formatUsd,
  sentence,
  createClockFormatter,
  createLazyClockFormatter,
  momentInZone,
  localDay,
} from "./text-format.js";
export type { ClockFormatter } from "./text-format.js";
export {
  startProgress,
  reduceProgress,
  runDurationMs,
  tickProgress,
  isProgressFinal,
  DEFAULT_PROGRESS_LIMITS,
} from "./progress.js";
export type {
  ProgressState,
  ProgressPhase,
  ProgressTool,
  ProgressNote,
  ProgressOutcome,
  ProgressStart,
  ProgressLimits,
} from "./progress.js";
export type { ClaudeVersionCheck, VersionVerdict } from "./claude-version.js";
export { closestName, editDistance } from "./edit-distance.js";
export { definedFields } from "./defined-fields.js";
export { laneId } from "./lane.js";
export {
  carriedFailure,
  failedBeforeStart,
  failsUntilFixed,
  failureText,
  HINT_COMMANDS,
  SEND_AGAIN_OR_FRESH,
  FAILS_UNTIL_FIXED,
} from "./run-failure.js";
export type { FailureReason, RunFailure } from "./run-failure.js";
export type { Lane } from "./lane.js";
export type { WrittenDown } from "./written-down.js";
export { DEFAULT_MODEL_NAME, offeredModel, pricesOfOffers } from "./offered-model.js";
export type { OfferedModel } from "./offered-model.js";
export { promptText } from "./prompt.js";
export type { ImageMediaType, Prompt, PromptBlock } from "./prompt.js";
export { hostFailureInWords, isDatabaseFailure, TypedError, type TypedErrorOptions } from "./typed-error.js";
export { ioErrorWords, isDiskFull } from "./io-error.js";
export { FIRST_INNER_CHAT_ID, isInnerChatId } from "./inner-chat-ids.js";
