// The session layer's public surface: orchestration of runs over live session handles.
export { SessionManager } from "./session-manager.js";
export type {
  AdoptedRun,
  CancelOutcome,
  SessionManagerDeps,
  SessionStatus,
  Submission,
  SubmitOutcome,
} from "./session-manager.js";
export type {
  BackgroundObserver,
  EnginePort,
  KeptSubmission,
  OpenRequest,
  RunEndState,
  RunInput,
  RunObserver,
  RunTrigger,
  SessionChoice,
  SessionHandle,
  SessionRecords,
} from "./ports.js";
