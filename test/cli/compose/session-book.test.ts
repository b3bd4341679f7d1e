// The engine's session book in Telecode: each session's cost and plan in SQLite, and a database
// that fails is logged, never thrown at the engine (a run goes on without what it could not read).
import { afterEach, describe, expect, it } from "vitest";
import { storeSessionBook } from "../../../src/cli/compose/session-records.js";
import { silentLogger, type Logger } from "../../../src/ports/index.js";
import { openStore, type Store } from "../../../src/store/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("session-book");
let store: Store | undefined;
afterEach(() => store?.close());

function loggedEvents(): Logger & { names: string[] } {
  const names: string[] = [];
  const logger: Logger & { names: string[] } = {
    ...silentLogger,
    event: (name) => void names.push(name),
    child: () => logger,
    names,
  };
  return logger;
}

describe("the session book over the store", () => {
  it("keeps each session's running total and plan", () => {
    store = openStore(tempDir());
    const book = storeSessionBook(store, silentLogger);
    book.recordTotalUsd("s1", 0.25);
    book.recordPlan("s1", [{ id: "1", text: "Run the tests", status: "in_progress" }]);
    expect(book.lastTotalUsd("s1")).toBe(0.25);
    expect(book.planOf("s1")).toEqual([{ id: "1", text: "Run the tests", status: "in_progress" }]);
    expect(book.planOf("s2")).toBeUndefined();
  });

  it("logs a database that fails and reads it as nothing known", () => {
    store = openStore(tempDir());
    const logger = loggedEvents();
    const book = storeSessionBook(store, logger);
    store.close();
    expect(book.planOf("s1")).toBeUndefined();
    expect(() => book.recordPlan("s1", [])).not.toThrow();
    expect(book.lastTotalUsd("s1")).toBeUndefined();
    expect(logger.names).toEqual([
      "store.session_plan_failed",
      "store.session_plan_failed",
      "store.session_cost_failed",
    ]);
    store = undefined;
  });
});
