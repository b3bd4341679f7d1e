// Adapts the SQLite store to the session layer's records port: resume tokens per chat and
// project, and the life of every run (so a restart can find the ones cut off).
import type { RunEndState, SessionKey, SessionRecords } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import { localDay } from "../../domain/index.js";

export function storeSessionRecords(store: Store): SessionRecords {
  return {
    lastSessionId: (key: SessionKey) => store.sessions.current(key.chatId, key.project)?.sessionId,
    rememberSession(key, sessionId) {
      store.sessions.record({ sessionId, chatId: key.chatId, project: key.project });
    },
    runStarted({ runId, key, sessionId }) {
      store.runs.start({ runId, chatId: key.chatId, project: key.project, sessionId: sessionId ?? null });
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
