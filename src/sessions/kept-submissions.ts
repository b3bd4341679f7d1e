// A person's submission is kept in the records from the moment it is accepted until its run
// starts, so a crash or a restart loses none: the next start runs it again. Unattended runs
// (schedules, webhooks) are fired again by their own source and are not kept.
import { definedFields, type Lane } from "../domain/index.js";
import type { Clock } from "../ports/index.js";
import { recordSafely } from "./lane-entry.js";
import type { RunInput, SessionRecords } from "./ports.js";

export type Recording = {
  records: SessionRecords;
  clock: Clock;
  /** A records write failed; the run goes on regardless. */
  report(error: unknown, lane: Lane, runId: string): void;
};

type Submitted = RunInput & { lane: Lane; promptMessageId?: number };

/** What the records keep of a submission: the prompt, mode and session choice, and for a run nobody typed, its trigger. */
export function runInputOf(submission: RunInput): RunInput {
  return {
    prompt: submission.prompt,
    mode: submission.mode,
    choice: submission.choice,
    ...(submission.unattended === true ? { unattended: true } : {}),
    ...definedFields({ trigger: submission.trigger, requester: submission.requester }),
  };
}

/** Keeps the submission until it starts; true when the records keep it. */
export function keepSubmission(deps: Recording, submission: Submitted, runId: string): boolean {
  if (submission.unattended === true) return false;
  try {
    return deps.records.runAccepted({
      runId,
      lane: submission.lane,
      input: runInputOf(submission),
      acceptedAtMs: deps.clock.now(),
      ...definedFields({ promptMessageId: submission.promptMessageId }),
    });
  } catch (error) {
    deps.report(error, submission.lane, runId);
    return false;
  }
}

/** A kept submission left the queue without starting (cancelled, or it could not start). */
export function releaseKept(deps: Recording, lane: Lane, runId: string): void {
  recordSafely(deps, lane, runId, () => deps.records.runLeftQueue(runId));
}

/** A kept submission refused at its start is kept for Retry; false when the records did not keep it. */
export function holdKept(deps: Recording, lane: Lane, runId: string): boolean {
  try {
    return deps.records.runHeld(runId);
  } catch (error) {
    deps.report(error, lane, runId);
    return false;
  }
}

/** A kept submission is to run with another prompt: the records keep that one instead. */
export function amendKept(deps: Recording, submission: Submitted, runId: string): void {
  recordSafely(deps, submission.lane, runId, () => deps.records.runAmended(runId, runInputOf(submission)));
}
