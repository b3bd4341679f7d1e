// Opens (creating if needed) DATA_DIR/telecode.db: WAL journal, a busy timeout so two
// connections wait for each other instead of failing, and every migration applied.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { createChatsRepository, type ChatsRepository } from "./chats-repo.js";
import { createClaudeCommandsRepository, type ClaudeCommandsRepository } from "./claude-commands-repo.js";
import { createCountersRepository, type CountersRepository } from "./counters-repo.js";
import { createDecisionsRepository, type DecisionsRepository } from "./decisions-repo.js";
import { StoreError } from "./errors.js";
import { createInboxRepository, type InboxRepository } from "./inbox-repo.js";
import { migrate, schemaVersion } from "./migrations.js";
import { createOffsetsRepository, type OffsetsRepository } from "./offsets-repo.js";
import { createQueuedRunsRepository, type QueuedRunsRepository } from "./queued-runs-repo.js";
import { createRunsRepository, type RunsRepository } from "./runs-repo.js";
import { createSessionsRepository, type SessionsRepository } from "./sessions-repo.js";
import type { DecisionRecord, RunRecord } from "./records.js";
import { createSessionCostsRepository, type SessionCostsRepository } from "./session-costs-repo.js";
import { createSessionPlansRepository, type SessionPlansRepository } from "./session-plans-repo.js";
import { createSchedulesRepository, type SchedulesRepository } from "./schedules-repo.js";
import { createUsageRepository, type UsageRepository } from "./usage-repo.js";
import { createTriggersRepository, type TriggersRepository } from "./triggers-repo.js";
import { createWebhookDeliveriesRepository, type WebhookDeliveriesRepository } from "./webhook-deliveries-repo.js";

export const DATABASE_FILE = "telecode.db";

export type OpenStoreOptions = {
  /** Milliseconds since the epoch; injected so tests control timestamps. */
  now?: () => number;
  /** How long a write waits for another connection's lock before failing. */
  busyTimeoutMs?: number;
};

export type RestartRecovery = {
  interruptedRuns: RunRecord[];
  expiredDecisions: DecisionRecord[];
  /** How many sessions were still marked live. */
  sessionsDetached: number;
};

export type Store = {
  readonly path: string;
  /** The schema version after migrating. */
  readonly schemaVersion: number;
  /** Versions applied by this open (empty when the database was already current). */
  readonly appliedMigrations: readonly number[];
  readonly chats: ChatsRepository;
  readonly sessions: SessionsRepository;
  /** Each CLI session's last running cost. */
  readonly sessionCosts: SessionCostsRepository;
  /** Each CLI session's plan (its task list) as it last stood. */
  readonly sessionPlans: SessionPlansRepository;
  readonly runs: RunsRepository;
  readonly queuedRuns: QueuedRunsRepository;
  readonly decisions: DecisionsRepository;
  readonly offsets: OffsetsRepository;
  /** Telegram updates taken and not yet handled. */
  readonly inbox: InboxRepository;
  readonly usage: UsageRepository;
  readonly webhookDeliveries: WebhookDeliveriesRepository;
  /** The chat's pause, webhook day costs, held deliveries, each trigger's last result. */
  readonly triggers: TriggersRepository;
  readonly schedules: SchedulesRepository;
  readonly counters: CountersRepository;
  /** The Claude Code slash commands last seen per project. */
  readonly claudeCommands: ClaudeCommandsRepository;
  /**
   * What a start after any stop does first, in one transaction: runs still "running" become
   * interrupted, pending decisions expire, no session is live; runs in `keepRunIds` (taken in
   * again: their processes ran on under keepers) and their decisions are left as they are.
   * Returns what changed, so the caller can edit those runs' progress messages and take the
   * buttons off those decisions.
   */
  recoverAfterRestart(reason?: string, keepRunIds?: ReadonlySet<string>): RestartRecovery;
  /** Runs `fn` in one transaction: all of its repository writes land, or none do. */
  transaction<T>(fn: () => T): T;
  /** SQLite's own check; "ok" when the file is sound. */
  integrityCheck(): string;
  close(): void;
};

/**
 * Opens the store in `dir` (created with mode 0700 if missing). Throws StoreError
 * `store.open_failed` when the file cannot be opened, `store.too_new` when a newer Telecode
 * wrote it. Durability: a committed write survives the process being killed (WAL with
 * synchronous=NORMAL can lose only the last commits on power loss, never consistency).
 */
export function openStore(dir: string, options: OpenStoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const path = join(dir, DATABASE_FILE);
  let db: Database.Database;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    db = new Database(path);
  } catch (cause) {
    throw new StoreError(
      "store.open_failed",
      `Could not open the database at ${path}. Check that the data directory (state.dir) exists and is writable.`,
      { cause, details: { path } },
    );
  }
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 5000))}`);
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    const appliedMigrations = migrate(db);
    const sessions = createSessionsRepository(db, now);
    const runs = createRunsRepository(db, now);
    const decisions = createDecisionsRepository(db, now);
    const transaction = <T>(fn: () => T): T => db.transaction(fn)();
    return {
      path,
      schemaVersion: schemaVersion(db),
      appliedMigrations,
      chats: createChatsRepository(db, now),
      sessions,
      sessionCosts: createSessionCostsRepository(db, now),
      sessionPlans: createSessionPlansRepository(db, now),
      runs,
      queuedRuns: createQueuedRunsRepository(db, now),
      decisions,
      offsets: createOffsetsRepository(db),
      inbox: createInboxRepository(db, now),
      usage: createUsageRepository(db),
      webhookDeliveries: createWebhookDeliveriesRepository(db),
      triggers: createTriggersRepository(db),
      schedules: createSchedulesRepository(db, now),
      claudeCommands: createClaudeCommandsRepository(db),
      counters: createCountersRepository(db),
      recoverAfterRestart: (reason, keepRunIds = new Set()) =>
        transaction(() => ({
          interruptedRuns: runs.markInterrupted(
            runs
              .listRunning()
              .map((r) => r.runId)
              .filter((runId) => !keepRunIds.has(runId)),
            ...(reason === undefined ? [] : [reason]),
          ),
          expiredDecisions: decisions.expireAll(keepRunIds),
          sessionsDetached: sessions.markAllNotLive(),
        })),
      transaction,
      integrityCheck: () => String(db.pragma("integrity_check", { simple: true })),
      close: () => db.close(),
    };
  } catch (error) {
    db.close();
    if (error instanceof StoreError) throw error;
    throw prepareFailure(path, error);
  }
}

/** Why a database could not be prepared, as the person must act on it. */
export type PrepareFailure = "disk_full" | "read_only" | "damaged" | "other";

/**
 * The database opened and could not be set up or migrated: a full disk and a read-only file
 * are said as such (moving the file aside would lose it for nothing); a damaged one is to be
 * moved aside. `details.why` says which.
 */
export function prepareFailure(path: string, cause: unknown): StoreError {
  const raw = (cause as { code?: unknown } | null)?.code;
  const code = typeof raw === "string" ? raw : "";
  const message = cause instanceof Error ? cause.message : String(cause);
  const [why, words]: [PrepareFailure, string] =
    code === "SQLITE_FULL"
      ? ["disk_full", "the disk is full. Free some space there, then start Telecode again."]
      : code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_CANTOPEN")
        ? [
            "read_only",
            "it cannot be written. Check that the data directory (state.dir) and its files are yours and writable.",
          ]
        : code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB"
          ? [
              "damaged",
              `the file is damaged (${message}). Move it aside and start again: Telecode starts a new database.`,
            ]
          : ["other", `${message}. Run \`telecode doctor\`; if the file is damaged, move it aside and start again.`];
  return new StoreError("store.open_failed", `Could not prepare the database at ${path}: ${words}`, {
    cause,
    details: { path, why },
  });
}
