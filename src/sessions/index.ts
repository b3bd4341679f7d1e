// The session layer's public surface: orchestration of runs over live session handles.
export { SessionManager } from "./session-manager.js";
export type { SessionManagerDeps } from "./session-manager.js";
export { isNoProcess, SessionsError } from "./errors.js";
export type { SessionsErrorCode } from "./errors.js";
export type { AdoptedRun, CancelOutcome, SessionStatus, Submission, SubmitOutcome } from "./submission.js";
export type {
  BackgroundObserver,
  EnginePort,
  KeptSubmission,
  OpenRequest,
  RunEndState,
  RunInput,
  Requester,
  RunObserver,
  RunTrigger,
  SessionChoice,
  SessionHandle,
  SessionRecords,
} from "./ports.js";
