// Creating a directory with its parents, with the file system's true reason when it cannot:
// Node's recursive mkdir reports ENOENT where a plain one says EROFS or EACCES.
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

/** Creates `path` and any missing parents (mode `mode`, 0700 unless given). Throws what the file system throws. */
export function createDirectory(path: string, mode = 0o700): void {
  try {
    mkdirSync(path, { recursive: true, mode });
  } catch (error) {
    // Where the parent is there, a plain mkdir names the real reason (a read-only file system, say).
    if ((error as NodeJS.ErrnoException).code === "ENOENT" && existsSync(dirname(path))) mkdirSync(path, { mode });
    throw error;
  }
}
