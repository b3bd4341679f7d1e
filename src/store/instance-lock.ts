// One Telecode per data directory: an exclusive SQLite lock on DATA_DIR/instance.lock, held by
// an open transaction. SQLite's locks are the OS's (fcntl), so they die with the process, even a
// SIGKILLed one. instance.pid beside it only says who holds the lock, for the message.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { writeFileAtomicSync } from "../files/index.js";
import { StoreError } from "./errors.js";

export const LOCK_FILE = "instance.lock";
export const HOLDER_FILE = "instance.pid";

export type InstanceLock = {
  /** The data directory this lock covers. */
  readonly dir: string;
  /** Lets the next instance start; idempotent. The lock also ends when the process does. */
  release(): void;
};

export type InstanceState = { running: false } | { running: true; pid: number | null };

/** How long taking the lock waits for a brief reader (`telecode doctor`'s probe) to let go. */
const WAIT_FOR_PROBE_MS = 1000;

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === "SQLITE_BUSY" || code === "SQLITE_LOCKED";
}

/** The pid the holder wrote, or null when it is missing or unreadable. */
function readHolder(dir: string): number | null {
  try {
    const pid = Number.parseInt(readFileSync(join(dir, HOLDER_FILE), "utf8").trim(), 10);
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Takes this process's exclusive lock on `dir` (which must exist). Throws StoreError
 * `store.locked` (details.pid: the other instance, or null) when another process holds it,
 * `store.open_failed` when the lock file cannot be opened.
 */
export function acquireInstanceLock(dir: string, pid: number = process.pid): InstanceLock {
  const path = join(dir, LOCK_FILE);
  let db: Database.Database;
  try {
    db = new Database(path, { timeout: WAIT_FOR_PROBE_MS });
  } catch (cause) {
    throw new StoreError(
      "store.open_failed",
      `Could not open ${path}. Check that the data directory (state.dir) is writable.`,
      { cause, details: { path } },
    );
  }
  try {
    db.exec("BEGIN EXCLUSIVE");
  } catch (cause) {
    db.close();
    if (!isBusy(cause))
      throw new StoreError("store.open_failed", `Could not lock ${path}.`, { cause, details: { path } });
    const holder = readHolder(dir);
    throw new StoreError(
      "store.locked",
      `Another Telecode${holder === null ? "" : ` (pid ${holder})`} is already running on ${dir}. Stop it first, or give this one its own state.dir (or TELECODE_DATA_DIR).`,
      { cause, details: { dir, pid: holder } },
    );
  }
  const holderPath = join(dir, HOLDER_FILE);
  writeFileAtomicSync(holderPath, `${pid}\n`);
  let held = true;
  return {
    dir,
    release() {
      if (!held) return;
      held = false;
      rmSync(holderPath, { force: true });
      db.close();
    },
  };
}

/**
 * Whether a Telecode holds the lock on `dir`, asked without taking it: a read needs a shared
 * lock, which the holder's exclusive lock refuses. Never throws.
 */
export function instanceState(dir: string): InstanceState {
  let db: Database.Database;
  try {
    db = new Database(join(dir, LOCK_FILE), { readonly: true, fileMustExist: true, timeout: 0 });
  } catch {
    // No lock file: no Telecode ever started here.
    return { running: false };
  }
  try {
    db.prepare("SELECT count(*) FROM sqlite_master").get();
    return { running: false };
  } catch (error) {
    return isBusy(error) ? { running: true, pid: readHolder(dir) } : { running: false };
  } finally {
    db.close();
  }
}
