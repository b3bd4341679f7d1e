// The run_completed events the session layer writes itself (a run that never started, a
// handle whose stream ended mid-run) and how a run_completed is recorded. Pure functions.
import type { RunCompleted } from "../domain/index.js";
import type { RunEndState } from "./ports.js";

/** The completion of a queued run that never reached the engine. */
export function unstartedCompletion(runId: string, state: RunEndState, error: string): RunCompleted {
  return {
    type: "run_completed",
    runId,
    ok: false,
    answer: "",
    error,
    interrupted: state === "interrupted",
    cancelled: state === "cancelled",
    costUsd: 0,
    durationMs: 0,
  };
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
    error: "The Claude session ended before this run finished; send the message again to continue.",
  };
}

export function endStateOf(event: RunCompleted): RunEndState {
  if (event.cancelled) return "cancelled";
  if (event.ok) return "completed";
  return event.interrupted ? "interrupted" : "failed";
}
