// Adapts the SQLite store to the session layer's records port: resume tokens per lane, and the life of every run (so a restart can find the ones cut off).
import type { RunEndState, SessionRecords } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import { localDay, type Lane } from "../../domain/index.js";

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
