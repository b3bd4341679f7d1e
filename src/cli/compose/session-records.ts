// Adapts the SQLite store to the session layer's records port (resume tokens per lane, the life
// of every run, so a restart can find the ones cut off) and to the engine's cost book.
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
    runStarted({ runId, lane, sessionId }) {
      store.runs.start({ runId, chatId: lane.chatId, project: lane.project, sessionId: sessionId ?? null });
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
