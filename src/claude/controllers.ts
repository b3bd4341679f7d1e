// Simple approval controllers for tests and `telecode run`: allow everything, deny everything
// (nobody is there), or ask through a callback. The real policy controller lives in src/policy.
import type { ApprovalRequest } from "../domain/index.js";
import type { ApprovalDecision, SessionController } from "./spec.js";

/** What the model reads when nobody can approve. */
export const NOBODY_TO_APPROVE_MESSAGE = "nobody is available to approve this; continue without it";

export function allowAllController(): SessionController {
  return {
    decide: (request) =>
      Promise.resolve({
        behavior: "allow",
        updatedInput: { ...request.input },
        decisionClassification: "config",
        by: "approve all",
      }),
  };
}

export function denyAllController(message = NOBODY_TO_APPROVE_MESSAGE): SessionController {
  return {
    decide: () => Promise.resolve({ behavior: "deny", message, decisionClassification: "config", by: "nobody" }),
  };
}

/** Asks `ask` for every request; `ask` should stop waiting when `signal` aborts (withdrawn or session end). */
export function askController(
  ask: (request: ApprovalRequest, signal: AbortSignal) => Promise<ApprovalDecision>,
): SessionController {
  return { decide: (request, ctx) => ask(request, ctx.signal) };
}
