// Counters that only go up across starts (the keeper fence: each Telecode start takes the next
// number, so a keeper can tell the newest Telecode from an older one still running).
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";

export type CountersRepository = {
  /** Increments the named counter and returns its new value (1 the first time). */
  next(name: string): number;
};

export function createCountersRepository(db: Database): CountersRepository {
  const select = db.prepare<[string], { value: string }>("SELECT value FROM kv WHERE key = ?");
  const upsert = db.prepare(
    "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const next = db.transaction((key: string): number => {
    const row = select.get(key);
    const current = row === undefined ? 0 : Number(row.value);
    if (!Number.isSafeInteger(current) || current < 0)
      throw new StoreError(
        "store.corrupt_row",
        `The stored counter ${key} is not a whole number. Run \`telecode doctor\` to check the database.`,
        { details: { key, value: row?.value } },
      );
    upsert.run(key, String(current + 1));
    return current + 1;
  });
  return { next: (name) => next(`counter.${name}`) };
}
