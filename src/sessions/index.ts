// The session layer's public surface: orchestration of runs over live engine sessions.
export { SessionManager } from "./session-manager.js";
export type { CancelOutcome, SessionManagerDeps, SessionStatus, Submission, SubmitOutcome } from "./session-manager.js";
export type {
  BackgroundObserver,
  Clock,
  EnginePort,
  LiveSession,
  OpenRequest,
  RunEndState,
  RunObserver,
  SessionChoice,
  SessionKey,
  SessionRecords,
} from "./ports.js";
