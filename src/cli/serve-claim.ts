// What `telecode` (serve) takes before anything else: the data directory (checked as `telecode
// doctor` checks it), this process's lock on it (one Telecode per directory), and its log file.
// Each failure is one clear message on stderr, never a stack trace.
import type { Config } from "../config/index.js";
import { createLogger, LogError, type ClosableLogger } from "../log/index.js";
import { acquireInstanceLock, StoreError, type InstanceLock } from "../store/index.js";
import { dataDirProblem } from "./data-dir.js";
import type { CommandIo } from "./command-io.js";

export type DataDirClaim = {
  /** The log, in the data directory the process started with. */
  readonly logger: ClosableLogger;
  /** Moves the lock to `dir` when a restart brings a new state.dir; false (after saying why) when it cannot. */
  cover(dir: string): boolean;
  /** Releases the lock and closes the log. */
  release(): void;
};

function lockDir(dir: string, io: CommandIo): InstanceLock | undefined {
  const problem = dataDirProblem(dir);
  if (problem !== undefined) {
    io.stderr.write(`telecode: the data directory ${problem.detail}; ${problem.fix}.\n`);
    return undefined;
  }
  try {
    return acquireInstanceLock(dir);
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    io.stderr.write(`telecode: ${error.message}\n`);
    return undefined;
  }
}

/** Checks, locks and opens the log in `config.state.dir`; undefined (after saying why) when it cannot. */
export function claimDataDir(config: Config, io: CommandIo, secrets: readonly string[]): DataDirClaim | undefined {
  let lock = lockDir(config.state.dir, io);
  if (lock === undefined) return undefined;
  let logger: ClosableLogger;
  try {
    logger = createLogger({ dataDir: config.state.dir, secrets });
  } catch (error) {
    lock.release();
    if (!(error instanceof LogError)) throw error;
    io.stderr.write(`telecode: ${error.message}\n`);
    return undefined;
  }
  logger.event("serve.instance_locked", { dir: lock.dir });
  return {
    logger,
    cover(dir) {
      if (lock?.dir === dir) return true;
      const next = lockDir(dir, io);
      if (next === undefined) return false;
      lock?.release();
      lock = next;
      logger.event("serve.instance_locked", { dir });
      return true;
    },
    release() {
      lock?.release();
      lock = undefined;
      logger.close();
    },
  };
}
