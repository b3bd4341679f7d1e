// Polling offsets (the Telegram update offset), kept so updates that arrived while Telecode
// was down are fetched, not skipped, and none is handled twice.
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";

export type OffsetsRepository = {
  /** The stored offset for a source ("telegram" unless told), or null before the first. */
  get(source?: string): number | null;
  set(value: number, source?: string): void;
};

export function createOffsetsRepository(db: Database): OffsetsRepository {
  const select = db.prepare<[string], { value: string }>("SELECT value FROM kv WHERE key = ?");
  const upsert = db.prepare(
    "INSERT INTO kv (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
  );
  const key = (source: string): string => `offset.${source}`;

  return {
    get: (source = "telegram") => {
      const row = select.get(key(source));
      if (row === undefined) return null;
      const value = Number(row.value);
      if (!Number.isSafeInteger(value)) {
        throw new StoreError(
          "store.corrupt_row",
          `The stored ${source} offset is not a whole number. Run \`telecode doctor\` to check the database.`,
          { details: { source, value: row.value } },
        );
      }
      return value;
    },
    set: (value, source = "telegram") => {
      if (!Number.isSafeInteger(value))
        throw new StoreError("store.invalid_input", `offset must be a whole number, got ${value}`);
      upsert.run(key(source), String(value));
    },
  };
}
