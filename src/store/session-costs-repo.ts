// Each CLI session's last running cost (the result's total_cost_usd), kept across processes and
// restarts: the CLI carries the total into a resumed process, so a turn's own cost needs it.
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";

export type SessionCostsRepository = {
  /** The session's last recorded running total in USD, or undefined when never recorded. */
  lastTotalUsd(sessionId: string): number | undefined;
  /** Records the session's running total in USD (a finite amount of 0 or more). */
  recordTotalUsd(sessionId: string, totalUsd: number): void;
};

export function createSessionCostsRepository(db: Database, now: () => number): SessionCostsRepository {
  const select = db.prepare<[string], { total_usd: unknown }>(
    "SELECT total_usd FROM session_costs WHERE session_id = ?",
  );
  const upsert = db.prepare(`
    INSERT INTO session_costs (session_id, total_usd, updated_at) VALUES (?, ?, ?)
    ON CONFLICT (session_id) DO UPDATE SET total_usd = excluded.total_usd, updated_at = excluded.updated_at`);

  return {
    lastTotalUsd: (sessionId) => {
      const row = select.get(sessionId);
      if (row === undefined) return undefined;
      if (typeof row.total_usd !== "number" || !Number.isFinite(row.total_usd) || row.total_usd < 0)
        throw new StoreError(
          "store.corrupt_row",
          "A row in the session_costs table does not have the expected shape. The database may have been edited or damaged; run `telecode doctor`.",
          { details: { table: "session_costs", sessionId } },
        );
      return row.total_usd;
    },
    recordTotalUsd: (sessionId, totalUsd) => {
      if (sessionId === "" || !Number.isFinite(totalUsd) || totalUsd < 0)
        throw new StoreError(
          "store.invalid_input",
          `A session's cost needs a session id and a finite amount of 0 or more, got ${JSON.stringify(sessionId)} and ${totalUsd}`,
        );
      upsert.run(sessionId, totalUsd, now());
    },
  };
}
