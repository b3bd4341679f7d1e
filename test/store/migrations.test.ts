// Migrations: from an empty file, from every earlier schema version with data in it, a
// database from a newer Telecode, and a failing migration that must leave nothing behind.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { NO_CAPS, NO_OVERRIDES } from "../../src/schedule/index.js";
import { DATABASE_FILE, LATEST_SCHEMA_VERSION, openStore, StoreError } from "../../src/store/index.js";
import { migrate, MIGRATIONS, schemaVersion } from "../../src/store/migrations.js";
import { prepareFailure } from "../../src/store/open-store.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("store");

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

const NOON_2030_01_01 = new Date(2030, 0, 1, 12).getTime();

/** Writes one row into each table that exists at `version`, the way that version would have. */
function seed(db: Database.Database, version: number): void {
  if (version >= 1) {
    db.prepare(
      "INSERT INTO chats (chat_id, mode, model, effort, project, preview, questions, listen_to_all, updated_at) VALUES (7, 'plan', 'opus', 'high', 'app', 0, 1, 0, 1000)",
    ).run();
    db.prepare("INSERT INTO kv (key, value) VALUES ('offset.telegram', '42')").run();
  }
  if (version >= 2) {
    db.prepare(
      "INSERT INTO sessions (session_id, chat_id, project, title, created_at, last_used_at, live, current) VALUES ('s1', 7, 'app', NULL, 1000, 2000, 1, 1)",
    ).run();
    db.prepare(
      "INSERT INTO runs (run_id, chat_id, project, session_id, state, started_at) VALUES ('r1', 7, 'app', 's1', 'running', 1500)",
    ).run();
    // Ended at noon on 2030-01-01, this machine's time: what the chat spent that day.
    db.prepare(
      "INSERT INTO runs (run_id, chat_id, project, state, started_at, ended_at, cost_usd) VALUES ('r0', 7, 'app', 'completed', ?, ?, 0.4)",
    ).run(NOON_2030_01_01 - 1000, NOON_2030_01_01);
  }
  if (version >= 3) {
    db.prepare(
      "INSERT INTO decisions (decision_id, chat_id, run_id, kind, request_id, state, created_at) VALUES ('d1', 7, 'r1', 'approval', 'req-1', 'pending', 1600)",
    ).run();
    db.prepare("INSERT INTO usage_daily (day, cost_usd, runs) VALUES ('2030-01-01', 0.5, 2)").run();
  }
  if (version >= 4) {
    db.prepare(
      "INSERT INTO webhook_deliveries (webhook_id, delivery_id, received_at) VALUES ('github-push', 'd-1', 1700)",
    ).run();
  }
  if (version >= 5) {
    db.prepare(
      `INSERT INTO schedules (schedule_id, kind, chat_id, project, session_mode, timing, cron, time_zone, prompt,
         recurring, created_by, created_by_ref, created_at, next_fire_at, state, updated_at)
       VALUES ('config:morning', 'config', 7, 'app', 'new', 'cron', '0 9 * * 1-5', 'Europe/Berlin', 'review',
         1, 'config', 'morning', 1000, 5000, 'active', 1000)`,
    ).run();
  }
  if (version >= 7) {
    db.prepare("INSERT INTO session_costs (session_id, total_usd, updated_at) VALUES ('s1', 0.0364, 1800)").run();
  }
  if (version >= 9) {
    db.prepare("INSERT INTO triggers_paused (id, paused, config_paused, changed_at) VALUES (1, 1, 0, 1900)").run();
    db.prepare(
      "INSERT INTO webhook_day_costs (webhook_id, day, cost_usd, told) VALUES ('gh', '2030-01-01', 1.5, 1)",
    ).run();
    db.prepare("INSERT INTO trigger_results (trigger_id, result, at) VALUES ('webhook:gh', 'day_capped', 1950)").run();
  }
  if (version >= 19) {
    db.prepare(
      "INSERT INTO topics (chat_id, parent_chat_id, thread_id, name, created_at) VALUES (?, -9, 4, 'Ops', 1000)",
    ).run(-(2 ** 48) - 1);
  }
  // From 20 on, what a chat spent a day is written as its runs end (before, it is taken from them).
  if (version >= 20)
    db.prepare("INSERT INTO chat_day_costs (chat_id, day, cost_usd) VALUES (7, '2030-01-01', 0.4)").run();
}

describe("migrations", () => {
  it("are numbered 1, 2, 3 … without gaps", () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(LATEST_SCHEMA_VERSION).toBe(MIGRATIONS.length);
  });

  it("create the whole schema in an empty directory", () => {
    const dir = join(tempDir(), "not", "yet", "there");
    const store = openStore(dir);
    try {
      expect(store.path).toBe(join(dir, DATABASE_FILE));
      expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
      expect(store.appliedMigrations).toEqual(MIGRATIONS.map((m) => m.version));
      expect(store.integrityCheck()).toBe("ok");
      expect(store.runs.listRunning()).toEqual([]);
    } finally {
      store.close();
    }
    const again = openStore(dir);
    expect(again.appliedMigrations).toEqual([]);
    again.close();
  });

  it("use WAL so readers never block the writer", () => {
    const dir = tempDir();
    openStore(dir).close();
    const db = new Database(join(dir, DATABASE_FILE));
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });

  for (let from = 0; from < LATEST_SCHEMA_VERSION; from++) {
    it(`upgrade a database at version ${from} and keep its data`, () => {
      const dir = tempDir();
      const db = new Database(join(dir, DATABASE_FILE));
      migrate(db, from);
      expect(schemaVersion(db)).toBe(from);
      seed(db, from);
      db.close();

      const store = openStore(dir);
      try {
        expect(store.schemaVersion).toBe(LATEST_SCHEMA_VERSION);
        expect(store.appliedMigrations).toEqual(MIGRATIONS.filter((m) => m.version > from).map((m) => m.version));
        expect(store.integrityCheck()).toBe("ok");
        if (from >= 1) {
          expect(store.chats.get(7)).toMatchObject({
            mode: "plan",
            model: "opus",
            effort: "high",
            project: "app",
            preview: false,
            questions: true,
          });
          expect(store.offsets.get()).toBe(42);
        }
        if (from >= 2) {
          expect(store.sessions.current(7, "app")?.sessionId).toBe("s1");
          expect(store.runs.listRunning().map((r) => r.runId)).toEqual(["r1"]);
          // What each chat spent each day is taken from the runs kept.
          expect(store.usage.forChatDay(7, "2030-01-01")).toBe(0.4);
        }
        if (from >= 3) {
          expect(store.decisions.listPending().map((d) => d.decisionId)).toEqual(["d1"]);
          expect(store.usage.forDay("2030-01-01")).toEqual({ day: "2030-01-01", costUsd: 0.5, runs: 2 });
        }
        if (from >= 4) expect(store.webhookDeliveries.recent("github-push", 10)).toEqual(["d-1"]);
        if (from >= 5) {
          expect(store.schedules.get("config:morning")).toMatchObject({
            kind: "config",
            nextFireAt: 5000,
            state: "active",
          });
        }
        if (from >= 7) expect(store.sessionCosts.lastTotalUsd("s1")).toBe(0.0364);
        if (from >= 9) {
          expect(store.triggers.pausedChoice()).toEqual({ paused: true, configPaused: false, changedAt: 1900 });
          expect(store.triggers.webhookDay("gh", "2030-01-01")).toEqual({ costUsd: 1.5, told: true });
          expect(store.triggers.lastResults().get("webhook:gh")).toMatchObject({ result: "day_capped", at: 1950 });
        }
        if (from >= 19) {
          expect(store.chats.topicById(-(2 ** 48) - 1)).toMatchObject({ parentChatId: -9, threadId: 4 });
          // A member's conversation takes the next id below the topics'.
          expect(store.chats.memberChat(-9, 5).chatId).toBe(-(2 ** 48) - 2);
        }
        // Every table of the latest schema takes writes after the upgrade.
        store.chats.update(8, { mode: "auto" });
        const run = store.runs.start({ chatId: 8, project: "app" });
        store.sessions.record({ sessionId: "s-new", chatId: 8, project: "app" });
        store.decisions.add({ chatId: 8, runId: run.runId, kind: "question", requestId: "q" });
        store.usage.add("2030-01-02", 0.1, 8);
        store.offsets.set(43);
        store.sessionCosts.recordTotalUsd("s-new", 0.5);
        store.webhookDeliveries.add("github-push", "d-2", 2000, 100);
        store.triggers.setPausedChoice({ paused: false, configPaused: true, changedAt: 2100 });
        expect(store.triggers.addWebhookCost("gh", "2030-01-02", 0.25)).toBe(0.25);
        expect(store.triggers.markDayCapTold("gh", "2030-01-02")).toBe(true);
        expect(store.triggers.markDayCapTold("gh", "2030-01-02")).toBe(false);
        store.triggers.hold("gh", { prompt: "p" }, 2200);
        expect(store.triggers.takeHeld()).toEqual([
          { seq: 1, webhookId: "gh", trigger: { prompt: "p" }, heldAt: 2200 },
        ]);
        expect(store.triggers.heldCount()).toBe(0);
        store.triggers.recordResult("schedule:config:morning", "ok", 2300);
        store.schedules.insert({
          kind: "chat",
          chatId: 8,
          project: "app",
          session: { mode: "continue" },
          timing: { kind: "every", everyMs: 3_600_000, anchorMs: 0 },
          timeZone: "UTC",
          prompt: "check",
          note: null,
          recurring: true,
          createdBy: { kind: "person", userId: 8 },
          nextFireAt: 3_600_000,
          state: "active",
          stateReason: null,
          caps: NO_CAPS,
          overrides: NO_OVERRIDES,
          attended: false,
        });
      } finally {
        store.close();
      }
    });
  }

  it("refuse a database written by a newer Telecode", () => {
    const dir = tempDir();
    const db = new Database(join(dir, DATABASE_FILE));
    db.pragma(`user_version = ${LATEST_SCHEMA_VERSION + 1}`);
    db.close();
    const error = thrownBy(() => openStore(dir));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe("store.too_new");
    expect((error as StoreError).message).toMatch(/newer than this Telecode knows/);
  });

  it("roll a failing migration back completely", () => {
    const dir = tempDir();
    const db = new Database(join(dir, DATABASE_FILE));
    const broken = [
      ...MIGRATIONS,
      {
        version: LATEST_SCHEMA_VERSION + 1,
        name: "broken",
        sql: "CREATE TABLE half_done (a INTEGER); SELECT * FROM no_such_table;",
      },
    ];
    expect(() => migrate(db, LATEST_SCHEMA_VERSION + 1, broken)).toThrow(/no_such_table/);
    expect(schemaVersion(db)).toBe(LATEST_SCHEMA_VERSION);
    expect(db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 'half_done'").get()).toEqual({ n: 0 });
    db.close();
  });

  it("report a file that is not a database as store.open_failed", () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, DATABASE_FILE),
      "this is not a database, just text that is long enough to look like a header",
    );
    const error = thrownBy(() => openStore(dir));
    expect(error).toBeInstanceOf(StoreError);
    expect((error as StoreError).code).toBe("store.open_failed");
    expect((error as StoreError).message).toBe(
      `Could not prepare the database at ${join(dir, DATABASE_FILE)}: the file is damaged (file is not a database). Move it aside and start again: Telecode starts a new database.`,
    );
    expect((error as StoreError).details["why"]).toBe("damaged");
  });

  it("say a full disk is full, never that the file should be moved aside", () => {
    // SQLite's own SQLITE_FULL, from a database allowed too few pages for a second table.
    const db = new Database(":memory:");
    db.pragma("max_page_count = 2");
    const full = thrownBy(() => db.exec("CREATE TABLE a (x); CREATE TABLE b (x); CREATE TABLE c (x);"));
    db.close();
    expect(full).toMatchObject({ code: "SQLITE_FULL" });
    const error = prepareFailure("/data/telecode.db", full);
    expect(error.message).toBe(
      "Could not prepare the database at /data/telecode.db: the disk is full. Free some space there, then start Telecode again.",
    );
    expect(error.details["why"]).toBe("disk_full");
  });
});
