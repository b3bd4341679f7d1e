// Each session's plan in SQLite: what a resumed session or a restarted Telecode shows again.
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DATABASE_FILE, openStore, StoreError, type Store } from "../../src/store/index.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("store-plans");
let dir: string;
let store: Store;

beforeEach(() => {
  dir = tempDir();
  store = openStore(dir, { now: () => 1_000 });
});
afterEach(() => store.close());

const plan = [
  { id: "1", text: "Read the code", activeText: "Reading the code", status: "completed" as const },
  { id: "2", text: "Run the tests", status: "in_progress" as const },
  { text: "Fix the bug", status: "pending" as const },
];

describe("session plans", () => {
  it("keep each session's last plan across a reopen, unknown until recorded, an empty one too", () => {
    expect(store.sessionPlans.planOf("s1")).toBeUndefined();
    store.sessionPlans.recordPlan("s1", plan.slice(0, 1));
    store.sessionPlans.recordPlan("s1", plan);
    store.sessionPlans.recordPlan("s2", []);
    store.close();
    store = openStore(dir, { now: () => 2_000 });
    expect(store.sessionPlans.planOf("s1")).toEqual(plan);
    expect(store.sessionPlans.planOf("s2")).toEqual([]);
  });

  it("forget the plans recorded before a time", () => {
    store.sessionPlans.recordPlan("old", plan);
    store.close();
    store = openStore(dir, { now: () => 5_000 });
    store.sessionPlans.recordPlan("new", plan);
    expect(store.sessionPlans.pruneRecordedBefore(5_000)).toBe(1);
    expect(store.sessionPlans.planOf("old")).toBeUndefined();
    expect(store.sessionPlans.planOf("new")).toEqual(plan);
  });

  it("refuse what is not a plan, and a row damaged outside Telecode", () => {
    expect(() => store.sessionPlans.recordPlan("", plan)).toThrow(StoreError);
    expect(() => store.sessionPlans.recordPlan("s1", [{ text: "x", status: "later" as "pending" }])).toThrow(
      StoreError,
    );
    store.close();
    const db = new Database(join(dir, DATABASE_FILE));
    const insert = db.prepare("INSERT INTO session_plans (session_id, items, updated_at) VALUES (?, ?, 1)");
    insert.run("torn", '[{"text":"a","status":"pend');
    insert.run("shape", '[{"text":1,"status":"pending"}]');
    db.close();
    store = openStore(dir, { now: () => 1_000 });
    expect(() => store.sessionPlans.planOf("torn")).toThrow(/session_plans/);
    expect(() => store.sessionPlans.planOf("shape")).toThrow(/session_plans/);
  });
});
