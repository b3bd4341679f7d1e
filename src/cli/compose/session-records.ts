// Adapts the SQLite store to the session layer's records port (resume tokens per lane, accepted
// requests until their run starts, and the life of every run with its input, so a restart finds
// the ones cut off, runs the ones that never started, and Continue can send a prompt again) and
// to the engine's cost book.
import type { SessionCostBook } from "../../claude/index.js";
import type { RunEndState, SessionRecords } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import { localDay, type Lane } from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";

export function storeSessionRecords(store: Store): SessionRecords {
  return {
    lastSessionId: (lane: Lane) => store.sessions.current(lane.chatId, lane.project)?.sessionId,
    rememberSession(lane, sessionId) {
      store.sessions.record({ sessionId, chatId: lane.chatId, project: lane.project });
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
    runFinished({ runId, state, costUsd, error, sessionId }) {
      store.transaction(() => {
        if (sessionId) store.runs.setSession(runId, sessionId);
        store.runs.finish(runId, { state: state satisfies RunEndState, costUsd, error: error ?? null });
        store.usage.add(localDay(new Date()), costUsd);
      });
    },
  };
}

/** Each session's last running cost, in SQLite; a failed read or write is logged, never thrown at the engine. */
export function storeSessionCostBook(store: Store, logger: Logger): SessionCostBook {
  return {
    lastTotalUsd(sessionId) {
      try {
        return store.sessionCosts.lastTotalUsd(sessionId);
      } catch (error) {
        logger.event("store.session_cost_failed", { err: error, sessionId }, "error");
        return undefined;
      }
    },
    recordTotalUsd(sessionId, totalUsd) {
      try {
        store.sessionCosts.recordTotalUsd(sessionId, totalUsd);
      } catch (error) {
        logger.event("store.session_cost_failed", { err: error, sessionId }, "error");
      }
    },
  };
}
