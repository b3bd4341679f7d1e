// A small tmpfs for tests of a full disk, where this machine lets a test mount one (root, in a
// container that allows it); `tmpfsMountable` says whether it does, for `it.runIf`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

function probe(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "telecode-mount-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir], { stdio: "ignore" });
    execFileSync("umount", [dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const tmpfsMountable = probe();

/**
 * Mounts a tmpfs of `size` (such as "256k") on the existing directory `dir`, read-only if asked;
 * returns its unmount. A process just ended may hold the mount a moment longer (one caught
 * inside `execve` reads as gone to a look at /proc), so a busy mount is tried again for up to
 * 2 s; one still held then fails, as something left running would.
 */
export function mountTmpfs(dir: string, size: string, options: { readOnly?: boolean } = {}): () => void {
  execFileSync("mount", ["-t", "tmpfs", "-o", `${options.readOnly === true ? "ro," : ""}size=${size}`, "tmpfs", dir]);
  return () => {
    for (let attempt = 1; ; attempt++) {
      try {
        execFileSync("umount", [dir], { stdio: "pipe" });
        return;
      } catch (error) {
        const stderr = (error as { stderr?: Buffer }).stderr;
        const busy = stderr?.toString("utf8").includes("busy") === true;
        if (!busy || attempt >= 40) throw error;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
      }
    }
  };
}

/** Fills the disk holding `dir` to its last byte. */
export function fillDisk(dir: string): void {
  for (const blockSize of ["4k", "1"])
    try {
      execFileSync("dd", ["if=/dev/zero", `of=${join(dir, `filler-${blockSize}`)}`, `bs=${blockSize}`], {
        stdio: "ignore",
      });
    } catch {
      // dd ends with "No space left on device": full.
    }
}
