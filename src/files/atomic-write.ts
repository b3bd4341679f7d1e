// Writing a file whole or not at all: a temporary file beside it (hidden, named for this
// process), then renamed over it. A write that fails (a full disk) leaves neither a half-written
// file nor the temporary one, and the error is the caller's.
import { randomBytes } from "node:crypto";
import { chmodSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { chmod, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

function temporaryFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}-${randomBytes(4).toString("hex")}.tmp`);
}

/** Replaces `path` with `data` (mode `mode`, 0600 unless given) at once. Throws what the file system throws. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, mode = 0o600): void {
  const temporary = temporaryFor(path);
  try {
    writeFileSync(temporary, data, { mode });
    chmodSync(temporary, mode);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** `writeFileAtomicSync` without blocking. Rejects with what the file system throws. */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o600): Promise<void> {
  const temporary = temporaryFor(path);
  try {
    await writeFile(temporary, data, { mode });
    await chmod(temporary, mode);
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
