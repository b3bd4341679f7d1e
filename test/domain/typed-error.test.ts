import { describe, expect, it } from "vitest";
import { hostFailureInWords, isDatabaseFailure, TypedError } from "../../src/domain/index.js";

/** An error as better-sqlite3 throws it: an Error with a SQLITE_ code. */
const sqliteError = (message: string) => Object.assign(new Error(message), { code: "SQLITE_ERROR" });

describe("a failure on the computer running Telecode, in words for a chat", () => {
  it("names the database with its own message: SQLite's errors and the store's", () => {
    expect(hostFailureInWords(sqliteError("no such table: runs"), "x.failed")).toBe(
      "Telecode's database failed (no such table: runs)",
    );
    const store = new TypedError("store.locked", "the database is locked by another Telecode");
    expect(isDatabaseFailure(store)).toBe(true);
    expect(hostFailureInWords(store, "x.failed")).toBe(
      "Telecode's database failed (the database is locked by another Telecode)",
    );
  });

  it("keeps anything else out of the chat and names the log event that has it", () => {
    const other = new TypedError("engine.crashed", "at /home/ann/secret/path.js:12");
    expect(isDatabaseFailure(other)).toBe(false);
    expect(hostFailureInWords(other, "webhook.handler_failed")).toBe(
      "an unexpected error (in Telecode's log as webhook.handler_failed)",
    );
    expect(hostFailureInWords("a string", "x.failed")).toBe("an unexpected error (in Telecode's log as x.failed)");
    expect(isDatabaseFailure({ code: "SQLITE_BUSY" })).toBe(false);
  });
});
