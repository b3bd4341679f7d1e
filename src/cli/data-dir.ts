// Whether the data directory (state.dir) can be used: created when missing, a directory,
// writable, with room left on its disk. `telecode doctor` and `telecode` (serve) check it the
// same way, with the same words. Also names the files in it that more than one command shares.
import { rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ioErrorWords, isDiskFull } from "../domain/index.js";
import { createDirectory } from "../files/index.js";

/** What the Claude CLI binaries supported when probed (`telecode` and `telecode run` share it). */
export function claudeProbeCacheFile(dataDir: string): string {
  return join(dataDir, "claude-cli.json");
}

export type DataDirProblem = Readonly<{ detail: string; fix: string }>;

const ELSEWHERE = "or set state.dir (or TELECODE_DATA_DIR) to a writable directory";

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Below this much free space, SQLite cannot grow its files: the disk counts as full. */
const FULL_BELOW_BYTES = 1024 * 1024;

/** Bytes this user may still write on the disk holding `dir`; undefined where the system cannot say. */
function freeBytes(dir: string): number | undefined {
  try {
    const disk = statfsSync(dir);
    return disk.bavail * disk.bsize;
  } catch {
    return undefined;
  }
}

/**
 * Undefined when `dir` is a writable directory (created, mode 0700, if it was missing) on a
 * disk with room left.
 */
export function dataDirProblem(dir: string): DataDirProblem | undefined {
  try {
    createDirectory(dir);
    const probe = join(dir, `.probe-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
    // An empty file fits on a full disk: its free space is asked for.
    const free = freeBytes(dir);
    if (free !== undefined && free < FULL_BELOW_BYTES)
      return {
        detail: `${dir} is on a full disk (${Math.floor(free / 1024)} KiB free)`,
        fix: `free some space there, ${ELSEWHERE}`,
      };
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    if (code === "EEXIST" && !isDirectory(dir))
      return { detail: `${dir} is not a directory`, fix: `move that file away, ${ELSEWHERE}` };
    if (code === "ENOTDIR")
      return { detail: `${dir} cannot be created: part of its path is a file`, fix: `fix the path, ${ELSEWHERE}` };
    if (code === "EROFS")
      return { detail: `${dir} is on a read-only file system (EROFS)`, fix: `mount it writable, ${ELSEWHERE}` };
    if (isDiskFull(error))
      return {
        detail: `${dir} is on a full disk (${ioErrorWords(error)})`,
        fix: `free some space there, ${ELSEWHERE}`,
      };
    return { detail: `${dir} is not writable (${ioErrorWords(error)})`, fix: `fix its permissions, ${ELSEWHERE}` };
  }
}
