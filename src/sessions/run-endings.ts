// The run_completed events the session layer writes itself (a run that never started, a
// handle whose stream ended mid-run) and how a run_completed is recorded. Pure functions.
import { carriedFailure, FAILS_UNTIL_FIXED, type RunCompleted, type RunFailure } from "../domain/index.js";
import type { RunEndState } from "./ports.js";

/** A queued run that never reached the engine because Telecode stopped. */
export const NOT_STARTED: RunFailure = {
  reason: "not_started",
  what: "Telecode stopped before this message ran.",
  hint: "Send it again.",
};

/** The failure of a run that could not be started: the engine's own words when it gave them. */
export function startFailure(error: unknown): RunFailure {
  return (
    carriedFailure(error) ?? {
      reason: "start_failed",
      what: error instanceof Error ? error.message : String(error),
      hint: `Fix the setup on the computer running Telecode (\`telecode doctor\` checks it); ${FAILS_UNTIL_FIXED}.`,
    }
  );
}

/** The failure without its offer of Retry (the request it names was not kept). */
export function withoutRetry(failure: RunFailure): RunFailure {
  const { retry: _, ...rest } = failure;
  return rest;
}

/** The completion of a queued run that never reached the engine (cancelled: no failure). */
export function unstartedCompletion(runId: string, state: RunEndState, error: RunFailure | undefined): RunCompleted {
  const event: RunCompleted = {
    type: "run_completed",
    runId,
    ok: false,
    answer: "",
    interrupted: state === "interrupted",
    cancelled: state === "cancelled",
    costUsd: 0,
    durationMs: 0,
    unstarted: true,
  };
  if (error !== undefined) event.error = error;
  return event;
}

/** The completion of a run whose handle's events ended before the engine completed it. */
export function sessionEndedCompletion(run: { runId: string; startedAtMs: number }, nowMs: number): RunCompleted {
  return {
    type: "run_completed",
    runId: run.runId,
    ok: false,
    answer: "",
    interrupted: true,
    cancelled: false,
    costUsd: 0,
    durationMs: nowMs - run.startedAtMs,
    error: {
      reason: "session_ended",
      what: "The Claude session ended before this run finished.",
      hint: "Send the message again to continue.",
    },
  };
}

export function endStateOf(event: RunCompleted): RunEndState {
  if (event.cancelled) return "cancelled";
  if (event.ok) return "completed";
  return event.interrupted ? "interrupted" : "failed";
}
