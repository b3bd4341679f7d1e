// Telegram updates taken and not yet handled. getUpdates confirms an update to Telegram as soon
// as a later call passes a higher offset, so from then on this table holds its only copy: a
// message whose handling a crash cut short (a voice note being transcribed, a file downloading)
// is handled after the restart instead of being lost.
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";

export type InboxEntry = {
  updateId: number;
  /** The update as the Bot API sent it. */
  update: unknown;
  takenAt: number;
  /** Starts that found it unfinished before this one. */
  attempts: number;
};

export type InboxRepository = {
  /** Keeps the updates just taken (one already kept is left as it is). */
  keep<U extends { update_id: number }>(updates: readonly U[]): void;
  /** Forgets a handled update. */
  done(updateId: number): void;
  /** What an earlier process left unhandled, oldest first; each is counted as tried once more. */
  unfinished(): InboxEntry[];
};

type Row = { update_id: number; body: string; taken_at: number; attempts: number };

export function createInboxRepository(db: Database, now: () => number): InboxRepository {
  const insert = db.prepare("INSERT OR IGNORE INTO inbox (update_id, body, taken_at) VALUES (?, ?, ?)");
  const remove = db.prepare("DELETE FROM inbox WHERE update_id = ?");
  const selectAll = db.prepare<[], Row>("SELECT * FROM inbox ORDER BY update_id");
  const countAttempt = db.prepare("UPDATE inbox SET attempts = attempts + 1");
  const keep = db.transaction((updates: readonly { update_id: number }[]) => {
    const at = now();
    for (const update of updates) insert.run(update.update_id, JSON.stringify(update), at);
  });
  const unfinished = db.transaction((): InboxEntry[] => {
    const rows = selectAll.all();
    countAttempt.run();
    return rows.map(toEntry);
  });
  return {
    keep: (updates) => {
      if (updates.length > 0) keep(updates);
    },
    done: (updateId) => {
      remove.run(updateId);
    },
    unfinished: () => unfinished(),
  };
}

function toEntry(row: Row): InboxEntry {
  let update: unknown;
  try {
    update = JSON.parse(row.body);
  } catch (cause) {
    throw new StoreError(
      "store.corrupt_row",
      `The kept Telegram update ${row.update_id} is not JSON. Run \`telecode doctor\` to check the database.`,
      { cause, details: { updateId: row.update_id } },
    );
  }
  return { updateId: row.update_id, update, takenAt: row.taken_at, attempts: row.attempts };
}
