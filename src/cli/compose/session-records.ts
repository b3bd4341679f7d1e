// Adapts the SQLite store to the session layer's records port (resume tokens per lane, accepted
// requests until their run starts, and the life of every run with its input, so a restart finds
// the ones cut off, runs the ones that never started, and Continue can send a prompt again) and
// to the engine's session book (each session's last running cost and plan).
import type { SessionBook } from "../../claude/index.js";
import type { RunEndState, SessionRecords } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import { localDay, type Lane } from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";

export function storeSessionRecords(store: Store): SessionRecords {
  return {
    lastSessionId: (lane: Lane) => store.sessions.current(lane.chatId, lane.project)?.sessionId,
    rememberSession(lane, sessionId, title) {
      store.sessions.record({ sessionId, chatId: lane.chatId, project: lane.project, title: title ?? null });
    },
    forgetSession(lane, sessionId) {
      if (store.sessions.current(lane.chatId, lane.project)?.sessionId !== sessionId) return false;
      store.sessions.clearCurrent(lane.chatId, lane.project);
      return true;
    },
    runAccepted({ runId, lane, input, acceptedAtMs, promptMessageId }) {
      store.queuedRuns.add({
        runId,
        chatId: lane.chatId,
        project: lane.project,
        input,
        promptMessageId: promptMessageId ?? null,
        queuedAt: acceptedAtMs,
      });
      return true;
    },
    runLeftQueue(runId) {
      store.queuedRuns.take(runId);
    },
    runHeld: (runId) => store.queuedRuns.markDropped(runId),
    runAmended(runId, input) {
      store.queuedRuns.setInput(runId, input);
    },
    runStarted({ runId, lane, sessionId, input, promptMessageId }) {
      // One transaction: a crash leaves the request either waiting or running, never both or neither.
      store.transaction(() => {
        const accepted = store.queuedRuns.take(runId);
        store.runs.start({
          runId,
          chatId: lane.chatId,
          project: lane.project,
          sessionId: sessionId ?? null,
          input,
          promptMessageId: promptMessageId ?? accepted?.promptMessageId ?? null,
          progressMessageId: accepted?.messageId ?? null,
        });
      });
    },
    runTaken(runId, sessionId, promptUuid) {
      store.runs.setTaken(runId, sessionId, promptUuid);
    },
    runFinished({ runId, lane, state, costUsd, error, sessionId }) {
      store.transaction(() => {
        if (sessionId) store.runs.setSession(runId, sessionId);
        // When a session was last used, as /sessions lists them.
        if (sessionId) store.sessions.touch(sessionId);
        store.runs.finish(runId, { state: state satisfies RunEndState, costUsd, error: error ?? null });
        store.usage.add(localDay(new Date()), costUsd, lane.chatId);
      });
    },
  };
}

/**
 * What is known of each session across processes (its last running cost, its plan), in SQLite;
 * a failed read or write is logged, never thrown at the engine.
 */
export function storeSessionBook(store: Store, logger: Logger): SessionBook {
  const safely = <R>(what: "cost" | "plan", sessionId: string, fallback: R, fn: () => R): R => {
    try {
      return fn();
    } catch (error) {
      logger.event(`store.session_${what}_failed`, { err: error, sessionId }, "error");
      return fallback;
    }
  };
  return {
    lastTotalUsd: (id) => safely("cost", id, undefined, () => store.sessionCosts.lastTotalUsd(id)),
    recordTotalUsd: (id, totalUsd) =>
      safely("cost", id, undefined, () => store.sessionCosts.recordTotalUsd(id, totalUsd)),
    planOf: (id) => safely("plan", id, undefined, () => store.sessionPlans.planOf(id)),
    recordPlan: (id, items) => safely("plan", id, undefined, () => store.sessionPlans.recordPlan(id, items)),
  };
}
