// The schedules repository against a real SQLite file: every kind of schedule written and read
// back whole, filters, due queries, compare-and-set updates, and rows damaged outside Telecode.
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { NO_CAPS, NO_OVERRIDES, type ScheduleDraft } from "../../src/schedule/index.js";
import { DATABASE_FILE, openStore, StoreError, type Store } from "../../src/store/index.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("store-schedules");
let dir: string;
let clock: number;
let store: Store;

beforeEach(() => {
  dir = tempDir();
  clock = 1_000;
  store = openStore(dir, { now: () => clock });
});
afterEach(() => store.close());

function reopen(): Store {
  store.close();
  store = openStore(dir, { now: () => clock });
  return store;
}

const draft = (over: Partial<ScheduleDraft> = {}): ScheduleDraft => ({
  kind: "loop",
  chatId: 42,
  project: "app",
  session: { mode: "id", sessionId: "s-1" },
  timing: { kind: "cron", cron: "*/5 * * * *" },
  timeZone: "Europe/Berlin",
  prompt: "check the build",
  note: null,
  recurring: true,
  createdBy: { kind: "claude", turn: "toolu_1" },
  nextFireAt: 300_000,
  state: "active",
  stateReason: null,
  caps: { ...NO_CAPS, maxIterations: 50, expiresAt: 9_000_000, maxCostUsd: 5 },
  overrides: NO_OVERRIDES,
  attended: false,
  ...over,
});

describe("schedules", () => {
  it("read back every kind whole, with fresh counters, across a reopen", () => {
    const loop = store.schedules.insert(draft());
    expect(loop).toEqual({
      ...draft(),
      id: loop.id,
      createdAt: 1_000,
      updatedAt: 1_000,
      lastFiredAt: null,
      lastSlotAt: null,
      iterations: 0,
      busyStreak: 0,
      costUsd: 0,
      costDay: null,
      costDayUsd: 0,
    });
    expect(loop.id).toMatch(/^[0-9a-f]{8}$/);
    const others = [
      draft({
        id: "config:morning",
        kind: "config",
        session: { mode: "new" },
        createdBy: { kind: "config", configId: "morning" },
        caps: { ...NO_CAPS, maxRunCostUsd: 1, maxDayCostUsd: 3 },
        overrides: { permissionMode: "plan", model: "opus", effort: "high" },
      }),
      draft({
        kind: "chat",
        session: { mode: "continue" },
        timing: { kind: "every", everyMs: 7_200_000, anchorMs: 5_000 },
        createdBy: { kind: "person", userId: 99 },
        attended: true,
      }),
      draft({
        kind: "wakeup",
        timing: { kind: "once", atMs: 120_000 },
        recurring: false,
        note: "waiting for CI",
      }),
    ].map((d) => store.schedules.insert(d));
    reopen();
    for (const s of [loop, ...others]) expect(store.schedules.get(s.id)).toEqual(s);
    expect(store.schedules.get("missing")).toBeNull();
  });

  it("list, count and find due ones by chat, kind and state", () => {
    const a = store.schedules.insert(draft({ nextFireAt: 500 }));
    const b = store.schedules.insert(
      draft({ kind: "chat", createdBy: { kind: "person", userId: 1 }, nextFireAt: 200 }),
    );
    const c = store.schedules.insert(draft({ chatId: 7, nextFireAt: 100, state: "paused" }));
    store.schedules.insert(draft({ chatId: 7, kind: "config", nextFireAt: 900 }));
    expect(store.schedules.list({ chatId: 42 }).map((s) => s.id)).toEqual([a.id, b.id]);
    expect(store.schedules.count({ kinds: ["loop"], states: ["active", "paused"] })).toBe(2);
    expect(store.schedules.count({ kinds: [] })).toBe(0);
    expect(store.schedules.listDue(500, ["loop", "chat", "config"]).map((s) => s.id)).toEqual([b.id, a.id]);
    expect(store.schedules.listDue(500, ["loop"]).map((s) => s.id)).toEqual([a.id]);
    expect(store.schedules.earliestDue(["loop", "chat", "config", "wakeup"])).toBe(200);
    expect(store.schedules.earliestDue(["wakeup"])).toBeNull();
    expect(c.state).toBe("paused");
  });

  it("update only when the row still is as expected, and stamp the change", () => {
    const s = store.schedules.insert(draft());
    clock = 2_000;
    expect(store.schedules.update(s.id, { iterations: 1, nextFireAt: 600_000 }, { nextFireAt: 999 })).toBeNull();
    const moved = store.schedules.update(
      s.id,
      { iterations: 1, nextFireAt: 600_000 },
      { nextFireAt: 300_000, state: "active" },
    );
    expect(moved).toMatchObject({ iterations: 1, nextFireAt: 600_000, updatedAt: 2_000, createdAt: 1_000 });
    expect(store.schedules.update(s.id, { state: "paused" }, { state: "cancelled" })).toBeNull();
    expect(store.schedules.update("missing", { state: "paused" })).toBeNull();
    expect(reopen().schedules.get(s.id)?.iterations).toBe(1);
  });

  it("refuse columns that do not fit together, and rows damaged outside Telecode", () => {
    expect(() => store.schedules.insert(draft({ session: { mode: "id", sessionId: "" } }))).toThrow();
    const s = store.schedules.insert(draft());
    store.close();
    const db = new Database(join(dir, DATABASE_FILE));
    db.prepare("UPDATE schedules SET state_reason = 'bored' WHERE schedule_id = ?").run(s.id);
    db.close();
    store = openStore(dir);
    expect(() => store.schedules.get(s.id)).toThrow(StoreError);
    expect(() => store.schedules.list()).toThrow(/schedules table/);
  });

  it("roll a transaction's writes back together", () => {
    expect(() =>
      store.schedules.transaction(() => {
        store.schedules.insert(draft());
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(store.schedules.list()).toEqual([]);
  });
});
