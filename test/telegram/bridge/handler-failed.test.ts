// What a person reads when a bridge handler throws: a database failure names itself and
// points at `telecode doctor`; anything else points at the log, never at a stack or a path.
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { StoreError } from "../../../src/store/index.js";
import { handlerFailedText, tapFailedText } from "../../../src/telegram/bridge/handler-failed.js";

function sqliteError(): unknown {
  const db = new Database(":memory:");
  try {
    db.exec("SELECT * FROM nowhere");
  } catch (error) {
    return error;
  } finally {
    db.close();
  }
  throw new Error("SQLite ran a query on a table that does not exist");
}

describe("a handler that threw", () => {
  it("says the database failed, in SQLite's words or the store's, and what to run", () => {
    expect(handlerFailedText(sqliteError())).toBe(
      "⚠️ Telecode could not finish handling this message: its database failed (no such table: nowhere). Run `telecode doctor` on the computer running Telecode, then send the message again.",
    );
    const store = new StoreError("store.corrupt_row", "A row of runs does not read back as written.");
    expect(handlerFailedText(store)).toContain("its database failed (A row of runs does not read back as written.)");
    expect(tapFailedText(store)).toBe(
      "That did not work: Telecode's database failed. Run telecode doctor on the computer running it, then tap again.",
    );
  });

  it("says nothing of any other error but where the log has it", () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'x') at /home/ann/telecode/dist/a.js");
    expect(handlerFailedText(error)).toBe(
      "⚠️ Telecode could not finish handling this message: an unexpected error (in its log as telegram.handler_failed). Send the message again; if it fails the same way, that log says why.",
    );
    expect(tapFailedText(error)).toBe(
      "That did not work: an unexpected error (in Telecode's log as telegram.handler_failed). Tap again.",
    );
    expect(tapFailedText(undefined)).toContain("an unexpected error");
  });
});
