// Where a submission runs: the lane's live handle when its settings and session fit, else a
// new handle opened as the session choice says (current / new / continue / resume); and the
// run's start on that handle, recorded first so a crash right after still knows of it.
import { definedFields, excerpt, failureText, promptText, type Lane, type Prompt } from "../domain/index.js";
import { runInputOf } from "./kept-submissions.js";
import {
  pumpEvents,
  recordSafely,
  sameSettings,
  type LaneEntry,
  type OpenSettings,
  type RoutingDeps,
} from "./lane-entry.js";
import type { EnginePort, OpenRequest } from "./ports.js";
import { startFailure } from "./run-endings.js";
import type { Submission } from "./submission.js";

/** A session's name in lists: the first words of the request that started it, on one line. */
const titleOf = (prompt: Prompt): string => excerpt(promptText(prompt).replace(/\s+/g, " ").trim(), 80);

/** A submission on its way to a handle: its run id is known. */
export type StartingRun = Submission & { runId: string };

/** The settings `next` wants its handle opened with. */
function settingsOf(next: Submission): OpenSettings {
  return {
    cwd: next.cwd,
    mode: next.mode,
    ...(next.model ? { model: next.model } : {}),
    ...(next.effort ? { effort: next.effort } : {}),
  };
}

/** The session the lane's live handle works in, unless the CLI no longer has it. */
export function liveSessionOf(existing: LaneEntry | undefined): string | undefined {
  return existing?.sessionLost === true ? undefined : (existing?.sessionId ?? existing?.handle.sessionId);
}

/** Whether `next` can run on the lane's live handle as it is. */
export function fitsLiveHandle(existing: LaneEntry, next: Submission): boolean {
  if (existing.sessionLost || !sameSettings(existing.opened, settingsOf(next))) return false;
  const choice = next.choice;
  return choice.kind === "current" || (choice.kind === "resume" && liveSessionOf(existing) === choice.sessionId);
}

/**
 * A new entry for `next`, its handle opened as the session choice says. `current`: the session
 * of the lane's handle it replaces (liveSessionOf), else `lastSessionId` asks the records.
 */
export function openEntry(
  deps: { engine: EnginePort; routing: RoutingDeps; lastSessionId: (lane: Lane) => string | undefined },
  next: Submission,
  current: string | undefined,
): LaneEntry {
  const wanted = settingsOf(next);
  const choice = next.choice;
  const request: OpenRequest = { lane: next.lane, ...wanted };
  if (choice.kind === "continue") request.continueLatest = true;
  const resume =
    choice.kind === "resume"
      ? choice.sessionId
      : choice.kind === "current"
        ? (current ?? deps.lastSessionId(next.lane))
        : undefined;
  if (resume) request.resume = resume;
  // The lane's own session, not one the person asked for by replying: gone, it gives way to a fresh one.
  if (resume && choice.kind === "current") request.freshIfGone = true;
  const entry: LaneEntry = {
    lane: next.lane,
    handle: deps.engine.openSession(request),
    opened: wanted,
    sessionId: resume,
    sessionRecorded: false,
    sessionLost: false,
    active: undefined,
    endState: undefined,
    foreignTurn: false,
    pump: Promise.resolve(),
  };
  entry.pump = pumpEvents(deps.routing, entry);
  return entry;
}

/**
 * Makes `next` the entry's active run and starts it on the handle. It is recorded as running
 * first; when the handle refuses it, its end is recorded too (or a restart would find it
 * interrupted) and the error is thrown.
 */
export async function startRunOn(routing: RoutingDeps, entry: LaneEntry, next: StartingRun): Promise<void> {
  const { records, clock } = routing;
  const startedAtMs = clock.now();
  entry.active = { runId: next.runId, observer: next.observer, startedAtMs, taken: false, title: titleOf(next.prompt) };
  entry.endState = undefined;
  recordSafely(routing, next.lane, next.runId, () =>
    records.runStarted({
      runId: next.runId,
      lane: next.lane,
      sessionId: entry.sessionId ?? entry.handle.sessionId,
      startedAtMs,
      input: runInputOf(next),
      ...definedFields({ promptMessageId: next.promptMessageId }),
    }),
  );
  try {
    await entry.handle.startRun(next.prompt, {
      unattended: next.unattended ?? false,
      runId: next.runId,
      ...definedFields({ origin: next.origin }),
    });
  } catch (error) {
    entry.active = undefined;
    recordSafely(routing, next.lane, next.runId, () =>
      records.runFinished({
        runId: next.runId,
        lane: next.lane,
        state: "failed",
        costUsd: 0,
        endedAtMs: clock.now(),
        error: failureText(startFailure(error)),
      }),
    );
    throw error;
  }
}
