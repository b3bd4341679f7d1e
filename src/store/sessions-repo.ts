// Sessions per chat and project: which CLI session a new message continues (the current
// one), which have a live process, and the recent ones a person can resume.
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";
import { readRow, readRows, sessionRow, type SessionRecord } from "./records.js";

export type SessionsRepository = {
  /**
   * Records that `sessionId` is in use for this chat and project and makes it the current one
   * (the previous current session stays in the history). Creating or re-recording is the same call;
   * a session keeps the first title it was recorded with.
   */
  record(input: { sessionId: string; chatId: number; project: string; title?: string | null }): SessionRecord;
  /** The session a new message in this chat and project continues, or null to start fresh. */
  current(chatId: number, project: string): SessionRecord | null;
  get(sessionId: string): SessionRecord | null;
  /** Most recently used first. */
  list(chatId: number, options?: { project?: string; limit?: number }): SessionRecord[];
  /** Updates last-used time; false when the session is unknown. */
  touch(sessionId: string): boolean;
  setLive(sessionId: string, live: boolean): boolean;
  /** After a restart no process is attached to anything. Returns how many were live. */
  markAllNotLive(): number;
  /** The next message starts a new session (e.g. /new); history is kept. */
  clearCurrent(chatId: number, project: string): void;
};

export function createSessionsRepository(db: Database, now: () => number): SessionsRepository {
  const select = db.prepare("SELECT * FROM sessions WHERE session_id = ?");
  const selectCurrent = db.prepare("SELECT * FROM sessions WHERE chat_id = ? AND project = ? AND current = 1");
  const selectByChat = db.prepare(
    "SELECT * FROM sessions WHERE chat_id = @chat_id AND (@project IS NULL OR project = @project) ORDER BY last_used_at DESC, rowid DESC LIMIT @limit",
  );
  const unsetCurrent = db.prepare("UPDATE sessions SET current = 0 WHERE chat_id = ? AND project = ? AND current = 1");
  const upsert = db.prepare(`
    INSERT INTO sessions (session_id, chat_id, project, title, created_at, last_used_at, live, current)
    VALUES (@session_id, @chat_id, @project, @title, @at, @at, 0, 1)
    ON CONFLICT (session_id) DO UPDATE SET
      chat_id = excluded.chat_id, project = excluded.project, last_used_at = excluded.last_used_at,
      title = COALESCE(sessions.title, excluded.title), current = 1`);
  const touch = db.prepare("UPDATE sessions SET last_used_at = ? WHERE session_id = ?");
  const setLive = db.prepare("UPDATE sessions SET live = ? WHERE session_id = ?");
  const clearLive = db.prepare("UPDATE sessions SET live = 0 WHERE live = 1");

  const get = (sessionId: string): SessionRecord | null => {
    const row = select.get(sessionId);
    return row === undefined ? null : readRow(sessionRow, "sessions", row);
  };

  const record = db.transaction(
    (input: { sessionId: string; chatId: number; project: string; title?: string | null }): SessionRecord => {
      const previous = get(input.sessionId);
      if (previous) unsetCurrent.run(previous.chatId, previous.project);
      unsetCurrent.run(input.chatId, input.project);
      upsert.run({
        session_id: input.sessionId,
        chat_id: input.chatId,
        project: input.project,
        title: input.title ?? null,
        at: now(),
      });
      const stored = get(input.sessionId);
      if (!stored)
        throw new StoreError(
          "store.not_found",
          "A session row could not be read back after writing it. Run `telecode doctor` to check the database.",
          { details: { sessionId: input.sessionId } },
        );
      return stored;
    },
  );

  return {
    record: (input) => record(input),
    current: (chatId, project) => {
      const row = selectCurrent.get(chatId, project);
      return row === undefined ? null : readRow(sessionRow, "sessions", row);
    },
    get,
    list: (chatId, options = {}) =>
      readRows(
        sessionRow,
        "sessions",
        selectByChat.all({ chat_id: chatId, project: options.project ?? null, limit: options.limit ?? 20 }),
      ),
    touch: (sessionId) => touch.run(now(), sessionId).changes > 0,
    setLive: (sessionId, live) => setLive.run(live ? 1 : 0, sessionId).changes > 0,
    markAllNotLive: () => clearLive.run().changes,
    clearCurrent: (chatId, project) => {
      unsetCurrent.run(chatId, project);
    },
  };
}
