// Each CLI session's plan (its task list) as it last stood, kept across processes and restarts:
// the CLI keeps the list when a session is resumed, so a new process shows it from the start.
import type { Database } from "better-sqlite3";
import { isChecklistItem, type ChecklistItem } from "../domain/index.js";
import { StoreError } from "./errors.js";

export type SessionPlansRepository = {
  /** The session's plan as last recorded, or undefined when none was. */
  planOf(sessionId: string): readonly ChecklistItem[] | undefined;
  /** Records the session's whole plan (an empty one too: it was finished and cleared). */
  recordPlan(sessionId: string, items: readonly ChecklistItem[]): void;
  /** Forgets the plans last recorded before `beforeMs`; returns how many. */
  pruneRecordedBefore(beforeMs: number): number;
};

export function createSessionPlansRepository(db: Database, now: () => number): SessionPlansRepository {
  const select = db.prepare<[string], { items: unknown }>("SELECT items FROM session_plans WHERE session_id = ?");
  const upsert = db.prepare(`
    INSERT INTO session_plans (session_id, items, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (session_id) DO UPDATE SET items = excluded.items, updated_at = excluded.updated_at`);
  const prune = db.prepare("DELETE FROM session_plans WHERE updated_at < ?");

  const corrupt = (sessionId: string, cause?: unknown): StoreError =>
    new StoreError(
      "store.corrupt_row",
      "A row in the session_plans table does not have the expected shape. The database may have been edited or damaged; run `telecode doctor`.",
      { details: { table: "session_plans", sessionId }, cause },
    );

  return {
    planOf: (sessionId) => {
      const row = select.get(sessionId);
      if (row === undefined) return undefined;
      if (typeof row.items !== "string") throw corrupt(sessionId);
      let items: unknown;
      try {
        items = JSON.parse(row.items);
      } catch (error) {
        throw corrupt(sessionId, error);
      }
      if (!Array.isArray(items) || !items.every(isChecklistItem)) throw corrupt(sessionId);
      return items;
    },
    recordPlan: (sessionId, items) => {
      if (sessionId === "" || !items.every(isChecklistItem))
        throw new StoreError(
          "store.invalid_input",
          `A session's plan needs a session id and items with a text and a status, got ${JSON.stringify(sessionId)}`,
        );
      upsert.run(sessionId, JSON.stringify(items), now());
    },
    pruneRecordedBefore: (beforeMs) => prune.run(beforeMs).changes,
  };
}
