// The decision driver (one per session, the engine's SessionController) and the registry where
// front ends deliver answers. Pure decisions live in src/policy; this folder only runs them.
export { createDecisionDriver } from "./driver.js";
export type { DecisionDriver, DecisionDriverOptions, DriverDecision } from "./driver.js";
export { createDecisionRegistry } from "./registry.js";
export type { DecisionJournal, DecisionRegistry, DecisionRegistryOptions, DeliverAnswer } from "./registry.js";
export { createLinePersonPort } from "./line-person-port.js";
export type { LinePersonPort, LinePersonPortOptions, LineSubmitResult } from "./line-person-port.js";
export type {
  DecisionAnswers,
  DecisionSessionControls,
  OwnHookHandler,
  PendingDecisionView,
  PersonPort,
} from "./ports.js";
