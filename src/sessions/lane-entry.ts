// One lane's live handle as the session manager keeps it, and the pump that routes the
// handle's events, in order and awaited, to the run that owns them (or to the background
// observer), recording each run's start of session and its end.
import {
  failureText,
  type Lane,
  type PermissionMode,
  type RunCompleted,
  type TelecodeEvent,
  type TurnStarted,
} from "../domain/index.js";
import type { Clock } from "../ports/index.js";
import type { BackgroundObserver, RunEndState, RunObserver, SessionHandle, SessionRecords } from "./ports.js";
import { endStateOf, sessionEndedCompletion } from "./run-endings.js";

/** The settings a handle was opened with; a run wanting others gets a fresh handle. */
export type OpenSettings = { cwd: string; mode: PermissionMode; model?: string; effort?: string };

/** The run in flight; `taken` once the CLI began its turn (recorded once). */
export type ActiveRun = {
  runId: string;
  observer: RunObserver;
  startedAtMs: number;
  taken: boolean;
  /** The request's first words: what names a session it starts. */
  title?: string;
};

export type LaneEntry = {
  lane: Lane;
  handle: SessionHandle;
  opened: OpenSettings;
  /** The CLI session the handle works in, once known (the one it resumes, until the CLI says). */
  sessionId: string | undefined;
  /** `sessionId` is recorded as the lane's current session (a resumed one only once the CLI started it). */
  sessionRecorded: boolean;
  /** The CLI no longer has the session the handle resumes: the lane's next run needs another handle. */
  sessionLost: boolean;
  active: ActiveRun | undefined;
  /** How the active run must be recorded whatever its run_completed says (a stop interrupts it). */
  endState: RunEndState | undefined;
  /** A turn no run of this lane asked for is open (a schedule's fire, a Monitor event): its events are not the run's. */
  foreignTurn: boolean;
  /** Settles once the handle's event stream ended and every event was routed. */
  pump: Promise<void>;
};

export type RoutingDeps = {
  records: SessionRecords;
  clock: Clock;
  background: BackgroundObserver | undefined;
  /** Something unexpected failed while routing (an observer threw, the stream failed). */
  report(error: unknown, lane: Lane, runId?: string): void;
  /** The entry's run is no longer active (its run_completed is about to be recorded and delivered). */
  onRunCleared(): void;
  /** The entry's run ended and was delivered: the next queued run may start. */
  onRunEnded(entry: LaneEntry): void;
};

export function sameSettings(a: OpenSettings, b: OpenSettings): boolean {
  return a.cwd === b.cwd && a.mode === b.mode && a.model === b.model && a.effort === b.effort;
}

/** Routes every event of the entry's handle until its stream ends; a run left open then ends too. */
export async function pumpEvents(deps: RoutingDeps, entry: LaneEntry): Promise<void> {
  try {
    for await (const event of entry.handle.events()) await routeEvent(deps, entry, event);
  } catch (error) {
    deps.report(error, entry.lane, entry.active?.runId);
  }
  const active = entry.active;
  if (active && entry.handle.handedOver === true) {
    // The run goes on in its kept process, for the next Telecode to show.
    entry.active = undefined;
    deps.onRunCleared();
    active.observer.handedOver?.();
    return;
  }
  // The engine promises a run_completed per run; if its stream ended without one, say so.
  if (active) await routeEvent(deps, entry, sessionEndedCompletion(active, deps.clock.now()));
}

async function routeEvent(deps: RoutingDeps, entry: LaneEntry, event: TelecodeEvent): Promise<void> {
  if (event.type === "session_started" && (event.sessionId !== entry.sessionId || !entry.sessionRecorded)) {
    entry.sessionId = event.sessionId;
    entry.sessionRecorded = true;
    const title = entry.active?.title;
    recordSafely(deps, entry.lane, undefined, () => deps.records.rememberSession(entry.lane, event.sessionId, title));
  }
  const active = entry.active;
  if (event.type === "turn_started") entry.foreignTurn = !answersRun(event, active?.runId);
  if (!active || (entry.foreignTurn && event.type !== "run_completed")) {
    if (event.type === "turn_finished") entry.foreignTurn = false;
    await deps.background?.(entry.lane, event);
    return;
  }
  if (event.type === "turn_started" && !active.taken) {
    active.taken = true;
    recordSafely(deps, entry.lane, active.runId, () =>
      deps.records.runTaken(active.runId, event.sessionId, event.promptUuid),
    );
  }
  if (event.type !== "run_completed") {
    await deliver(deps, active.observer, event, entry.lane, active.runId);
    return;
  }
  entry.active = undefined;
  deps.onRunCleared();
  const state = entry.endState ?? endStateOf(event);
  entry.endState = undefined;
  const sessionId = event.sessionId ?? entry.sessionId;
  const error =
    event.error?.reason === "session_not_found" && sessionId !== undefined
      ? { ...event.error, hint: forgetLostSession(deps, entry, sessionId) }
      : event.error;
  recordSafely(deps, entry.lane, active.runId, () =>
    deps.records.runFinished({
      runId: active.runId,
      lane: entry.lane,
      state,
      costUsd: event.costUsd,
      endedAtMs: deps.clock.now(),
      ...(error ? { error: failureText(error) } : {}),
      ...(sessionId ? { sessionId } : {}),
    }),
  );
  const completed: RunCompleted = {
    ...event,
    ...(sessionId ? { sessionId } : {}),
    ...(error === undefined ? {} : { error }),
  };
  await deliver(deps, active.observer, completed, entry.lane, active.runId);
  deps.onRunEnded(entry);
}

/**
 * The session a run resumed is gone (the CLI's transcript was removed): the lane lets go of it,
 * so the next message does not fail the same way. Returns what the person can do now.
 */
function forgetLostSession(deps: RoutingDeps, entry: LaneEntry, sessionId: string): string {
  if (entry.sessionId === sessionId) entry.sessionLost = true;
  let wasCurrent = false;
  recordSafely(deps, entry.lane, entry.active?.runId, () => {
    wasCurrent = deps.records.forgetSession(entry.lane, sessionId);
  });
  return wasCurrent
    ? "The next message starts a fresh session."
    : "That session can no longer be continued; other messages go on in the current one.";
}

/**
 * A records write that failed (the disk is full, the database locked) is reported, and the run
 * goes on as if it had been written: the person still sees the run and its end, and the lane
 * stays free for the next one.
 */
export function recordSafely(
  deps: Pick<RoutingDeps, "report">,
  lane: Lane,
  runId: string | undefined,
  write: () => void,
): void {
  try {
    write();
  } catch (error) {
    deps.report(error, lane, runId);
  }
}

/** Whether a turn answers the active run: it names the run, or (a CLI that names none) it is a person's. */
function answersRun(turn: TurnStarted, runId: string | undefined): boolean {
  if (runId === undefined) return false;
  return turn.runId === undefined ? turn.origin === "person" : turn.runId === runId;
}

/** Hands one event to a run's observer; an observer that throws is reported, never breaks the pump. */
export async function deliver(
  deps: Pick<RoutingDeps, "report">,
  observer: RunObserver,
  event: TelecodeEvent,
  lane: Lane,
  runId: string,
): Promise<void> {
  try {
    await observer.onEvent(event);
  } catch (error) {
    deps.report(error, lane, runId);
  }
}
