// The schema's history: an append-only list of migrations, applied in order inside one
// transaction each, with SQLite's `user_version` recording how far a database has come.
// Never edit a shipped migration; add a new one.
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";

export type Migration = Readonly<{ version: number; name: string; sql: string }>;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "chats and key-value state",
    sql: `
      CREATE TABLE chats (
        chat_id       INTEGER PRIMARY KEY,
        mode          TEXT,
        model         TEXT,
        effort        TEXT,
        project       TEXT,
        preview       INTEGER NOT NULL DEFAULT 0 CHECK (preview IN (0, 1)),
        questions     INTEGER NOT NULL DEFAULT 1 CHECK (questions IN (0, 1)),
        listen_to_all INTEGER NOT NULL DEFAULT 0 CHECK (listen_to_all IN (0, 1)),
        updated_at    INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE kv (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 2,
    name: "sessions and runs",
    sql: `
      CREATE TABLE sessions (
        session_id   TEXT PRIMARY KEY,
        chat_id      INTEGER NOT NULL,
        project      TEXT NOT NULL,
        title        TEXT,
        created_at   INTEGER NOT NULL,
        last_used_at INTEGER NOT NULL,
        live         INTEGER NOT NULL DEFAULT 0 CHECK (live IN (0, 1)),
        current      INTEGER NOT NULL DEFAULT 0 CHECK (current IN (0, 1))
      ) STRICT;
      CREATE INDEX sessions_by_chat ON sessions (chat_id, project, last_used_at DESC);
      CREATE UNIQUE INDEX sessions_one_current ON sessions (chat_id, project) WHERE current = 1;
      CREATE TABLE runs (
        run_id              TEXT PRIMARY KEY,
        chat_id             INTEGER NOT NULL,
        project             TEXT NOT NULL,
        session_id          TEXT,
        state               TEXT NOT NULL CHECK (state IN ('running', 'completed', 'failed', 'cancelled', 'interrupted')),
        prompt_message_id   INTEGER,
        progress_message_id INTEGER,
        started_at          INTEGER NOT NULL,
        ended_at            INTEGER,
        cost_usd            REAL,
        outcome             TEXT,
        error               TEXT
      ) STRICT;
      CREATE INDEX runs_running ON runs (state) WHERE state = 'running';
      CREATE INDEX runs_by_chat ON runs (chat_id, started_at DESC);
    `,
  },
  {
    version: 3,
    name: "pending decisions and daily usage",
    sql: `
      CREATE TABLE decisions (
        decision_id TEXT PRIMARY KEY,
        chat_id     INTEGER NOT NULL,
        run_id      TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        kind        TEXT NOT NULL CHECK (kind IN ('approval', 'plan', 'question')),
        request_id  TEXT NOT NULL,
        message_id  INTEGER,
        state       TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'answered', 'expired', 'withdrawn')),
        created_at  INTEGER NOT NULL,
        resolved_at INTEGER
      ) STRICT;
      CREATE INDEX decisions_pending ON decisions (state) WHERE state = 'pending';
      CREATE UNIQUE INDEX decisions_by_request ON decisions (run_id, request_id);
      CREATE TABLE usage_daily (
        day      TEXT PRIMARY KEY CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        cost_usd REAL NOT NULL DEFAULT 0,
        runs     INTEGER NOT NULL DEFAULT 0
      ) STRICT;
    `,
  },
  {
    version: 4,
    name: "webhook delivery ids",
    sql: `
      CREATE TABLE webhook_deliveries (
        webhook_id  TEXT NOT NULL,
        delivery_id TEXT NOT NULL,
        received_at INTEGER NOT NULL,
        PRIMARY KEY (webhook_id, delivery_id)
      ) STRICT;
      CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id);
    `,
  },
  {
    version: 5,
    name: "schedules: loops, config schedules, chat /at and /every",
    sql: `
      CREATE TABLE schedules (
        schedule_id      TEXT PRIMARY KEY,
        kind             TEXT NOT NULL CHECK (kind IN ('loop', 'wakeup', 'config', 'chat')),
        chat_id          INTEGER NOT NULL,
        project          TEXT NOT NULL,
        session_mode     TEXT NOT NULL CHECK (session_mode IN ('new', 'continue', 'id')),
        session_id       TEXT CHECK ((session_mode = 'id') = (session_id IS NOT NULL)),
        timing           TEXT NOT NULL CHECK (timing IN ('cron', 'every', 'once')),
        cron             TEXT CHECK ((timing = 'cron') = (cron IS NOT NULL)),
        every_ms         INTEGER CHECK ((timing = 'every') = (every_ms IS NOT NULL)),
        at_ms            INTEGER CHECK ((timing = 'cron') = (at_ms IS NULL)),
        time_zone        TEXT NOT NULL,
        prompt           TEXT NOT NULL,
        note             TEXT,
        recurring        INTEGER NOT NULL CHECK (recurring IN (0, 1)),
        created_by       TEXT NOT NULL CHECK (created_by IN ('claude', 'config', 'person')),
        created_by_ref   TEXT NOT NULL,
        created_at       INTEGER NOT NULL,
        next_fire_at     INTEGER,
        last_fired_at    INTEGER,
        last_slot_at     INTEGER,
        iterations       INTEGER NOT NULL DEFAULT 0 CHECK (iterations >= 0),
        busy_streak      INTEGER NOT NULL DEFAULT 0 CHECK (busy_streak >= 0),
        max_iterations   INTEGER,
        expires_at       INTEGER,
        max_cost_usd     REAL,
        max_run_cost_usd REAL,
        max_day_cost_usd REAL,
        cost_usd         REAL NOT NULL DEFAULT 0,
        cost_day         TEXT,
        cost_day_usd     REAL NOT NULL DEFAULT 0,
        state            TEXT NOT NULL CHECK (state IN ('active', 'paused', 'cancelled', 'done', 'capped')),
        state_reason     TEXT,
        permission_mode  TEXT,
        model            TEXT,
        effort           TEXT,
        attended         INTEGER NOT NULL DEFAULT 0 CHECK (attended IN (0, 1)),
        updated_at       INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX schedules_due ON schedules (next_fire_at) WHERE state = 'active';
      CREATE INDEX schedules_by_chat ON schedules (chat_id, created_at);
    `,
  },
  {
    version: 6,
    name: "loops on or off per chat",
    sql: `
      ALTER TABLE chats ADD COLUMN loops INTEGER NOT NULL DEFAULT 1 CHECK (loops IN (0, 1));
    `,
  },
  {
    version: 7,
    name: "each CLI session's last running cost",
    sql: `
      CREATE TABLE session_costs (
        session_id TEXT PRIMARY KEY,
        total_usd  REAL NOT NULL CHECK (total_usd >= 0),
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 8,
    name: "kept requests: queued runs, a run's prompt, decision messages as shown",
    // queued_runs: a person's request from the moment it is accepted until its run starts (a
    // restart runs it, or drops it as too old: state 'dropped', with Retry). runs.input: the
    // prompt, mode and session choice (JSON) while the run may be continued; prompt_taken: the
    // CLI began its turn. decisions.message_html / shown_state: the prompt as sent and the state
    // Telegram is known to show, so a restart can bring the message to the recorded state.
    sql: `
      CREATE TABLE queued_runs (
        run_id            TEXT PRIMARY KEY,
        chat_id           INTEGER NOT NULL,
        project           TEXT NOT NULL,
        input             TEXT NOT NULL,
        prompt_message_id INTEGER,
        message_id        INTEGER,
        queued_at         INTEGER NOT NULL,
        state             TEXT NOT NULL CHECK (state IN ('waiting', 'dropped'))
      ) STRICT;
      CREATE INDEX queued_runs_in_order ON queued_runs (queued_at);
      ALTER TABLE runs ADD COLUMN input TEXT;
      ALTER TABLE runs ADD COLUMN prompt_taken INTEGER NOT NULL DEFAULT 0 CHECK (prompt_taken IN (0, 1));
      ALTER TABLE decisions ADD COLUMN message_html TEXT;
      ALTER TABLE decisions ADD COLUMN shown_state TEXT
        CHECK (shown_state IN ('pending', 'approved', 'denied', 'answered', 'expired', 'withdrawn'));
      UPDATE decisions SET shown_state = state;
      CREATE INDEX decisions_unshown ON decisions (decision_id) WHERE message_id IS NOT NULL AND shown_state IS NOT state;
    `,
  },
  {
    version: 9,
    name: "triggers: the chat's pause, webhook day costs, held deliveries, each trigger's last result",
    // triggers_paused: the last /pause or /resume and the config's [schedule] paused it was
    // given against (a changed config value wins over it). webhook_day_costs: each webhook's
    // spending per calendar day and whether the chat was told its day cap was reached.
    // held_deliveries: webhook deliveries that came while triggers were paused, run on /resume.
    // trigger_results: what each schedule's and webhook's last fire came to, for /status and doctor.
    sql: `
      CREATE TABLE triggers_paused (
        id            INTEGER PRIMARY KEY CHECK (id = 1),
        paused        INTEGER NOT NULL CHECK (paused IN (0, 1)),
        config_paused INTEGER NOT NULL CHECK (config_paused IN (0, 1)),
        changed_at    INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE webhook_day_costs (
        webhook_id TEXT NOT NULL,
        day        TEXT NOT NULL,
        cost_usd   REAL NOT NULL CHECK (cost_usd >= 0),
        told       INTEGER NOT NULL DEFAULT 0 CHECK (told IN (0, 1)),
        PRIMARY KEY (webhook_id, day)
      ) STRICT;
      CREATE TABLE held_deliveries (
        seq        INTEGER PRIMARY KEY AUTOINCREMENT,
        webhook_id TEXT NOT NULL,
        trigger    TEXT NOT NULL,
        held_at    INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE trigger_results (
        trigger_id TEXT PRIMARY KEY,
        result     TEXT NOT NULL
          CHECK (result IN ('ok', 'failed', 'cancelled', 'capped', 'day_capped', 'skipped_busy', 'held', 'missed')),
        at         INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 10,
    name: "kept runs: the keeper, the run's place in its output, decision buttons that outlive a restart",
    sql: `
      ALTER TABLE runs ADD COLUMN keeper_id TEXT;
      ALTER TABLE runs ADD COLUMN start_seq INTEGER CHECK (start_seq >= 0);
      ALTER TABLE runs ADD COLUMN last_seq INTEGER CHECK (last_seq >= 0);
      ALTER TABLE runs ADD COLUMN mode TEXT;
      ALTER TABLE decisions ADD COLUMN callback_token TEXT;
    `,
  },
  {
    version: 11,
    name: "the inbox: Telegram updates taken and not yet handled, handled after a crash",
    sql: `
      CREATE TABLE inbox (
        update_id INTEGER PRIMARY KEY,
        body      TEXT NOT NULL,
        taken_at  INTEGER NOT NULL,
        attempts  INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0)
      ) STRICT;
    `,
  },
  {
    version: 12,
    name: "an interrupted run's Continue, once tapped, is spent across restarts",
    sql: `
      ALTER TABLE runs ADD COLUMN resumed_at INTEGER;
    `,
  },
  {
    version: 13,
    name: "the uuid of the message that started a run's turn: Continue looks for it in the CLI's transcript",
    sql: `
      ALTER TABLE runs ADD COLUMN prompt_uuid TEXT;
    `,
  },
  {
    version: 14,
    name: "a finished run's summary until its progress message shows it: a restart shows it then",
    sql: `
      ALTER TABLE runs ADD COLUMN pending_summary TEXT;
    `,
  },
  {
    version: 15,
    name: "how a decision ended as its message says it, and who decided: a restart shows the same",
    sql: `
      ALTER TABLE decisions ADD COLUMN outcome_summary TEXT;
      ALTER TABLE decisions ADD COLUMN decided_by TEXT;
    `,
  },
  {
    version: 16,
    name: "the login's usage limits as Claude Code last reported them: /usage shows them after a restart",
    sql: `
      CREATE TABLE usage_limits (
        name TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        used_percent REAL,
        resets_at INTEGER,
        extra_usage INTEGER NOT NULL,
        reported_at INTEGER NOT NULL
      );
    `,
  },
  {
    version: 17,
    name: "each CLI session's plan (its task list) as it last stood: a resumed session shows it again",
    sql: `
      CREATE TABLE session_plans (
        session_id TEXT PRIMARY KEY,
        items      TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 18,
    name: "groups that became supergroups: the chat's first id (what everything is kept under) and its id now",
    sql: `
      CREATE TABLE chat_moves (
        from_chat_id INTEGER PRIMARY KEY,
        to_chat_id   INTEGER NOT NULL UNIQUE,
        moved_at     INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 19,
    name: "forum topics: each is a chat of its own, under an id of Telecode's (chat_id), in a Telegram chat and thread",
    sql: `
      CREATE TABLE topics (
        chat_id        INTEGER PRIMARY KEY,
        parent_chat_id INTEGER NOT NULL,
        thread_id      INTEGER NOT NULL,
        name           TEXT,
        created_at     INTEGER NOT NULL,
        UNIQUE (parent_chat_id, thread_id)
      ) STRICT;
    `,
  },
  {
    version: 20,
    name: "what each chat spent each day ([budget]'s per_chat_usd), from the runs kept so far",
    sql: `
      CREATE TABLE chat_day_costs (
        chat_id  INTEGER NOT NULL,
        day      TEXT NOT NULL CHECK (day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'),
        cost_usd REAL NOT NULL CHECK (cost_usd >= 0),
        PRIMARY KEY (chat_id, day)
      ) STRICT;
      INSERT INTO chat_day_costs (chat_id, day, cost_usd)
        SELECT chat_id, date(ended_at / 1000, 'unixepoch', 'localtime'), SUM(cost_usd) FROM runs
        WHERE ended_at IS NOT NULL AND cost_usd > 0 GROUP BY 1, 2;
    `,
  },
  {
    version: 21,
    name: "group members' own conversations (telegram.group_sessions), and which conversation each bot message in a group is of",
    sql: `
      CREATE TABLE member_chats (
        chat_id        INTEGER PRIMARY KEY,
        parent_chat_id INTEGER NOT NULL,
        user_id        INTEGER NOT NULL,
        created_at     INTEGER NOT NULL,
        UNIQUE (parent_chat_id, user_id)
      ) STRICT;
      CREATE TABLE group_messages (
        parent_chat_id INTEGER NOT NULL,
        message_id     INTEGER NOT NULL,
        chat_id        INTEGER NOT NULL,
        written_at     INTEGER NOT NULL,
        PRIMARY KEY (parent_chat_id, message_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX group_messages_written ON group_messages (written_at);
    `,
  },
];

export const LATEST_SCHEMA_VERSION = MIGRATIONS.at(-1)?.version ?? 0;

export function schemaVersion(db: Database): number {
  return Number(db.pragma("user_version", { simple: true }));
}

/**
 * Brings `db` up to `target` (default: the latest), one transaction per migration, so a crash
 * mid-way leaves the database at the last completed version. Returns the versions applied.
 * Throws `store.too_new` when the database was written by a newer Telecode.
 */
export function migrate(
  db: Database,
  target: number = LATEST_SCHEMA_VERSION,
  migrations: readonly Migration[] = MIGRATIONS,
): number[] {
  const from = schemaVersion(db);
  if (from > LATEST_SCHEMA_VERSION) {
    throw new StoreError(
      "store.too_new",
      `The database is at schema version ${from}, newer than this Telecode knows (${LATEST_SCHEMA_VERSION}). Upgrade Telecode, or point state.dir elsewhere.`,
      {
        details: { from, latest: LATEST_SCHEMA_VERSION },
      },
    );
  }
  const applied: number[] = [];
  for (const migration of migrations) {
    if (migration.version <= from || migration.version > target) continue;
    db.transaction(() => {
      db.exec(migration.sql);
      db.pragma(`user_version = ${migration.version}`);
    })();
    applied.push(migration.version);
  }
  return applied;
}
