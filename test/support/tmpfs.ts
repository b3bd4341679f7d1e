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

/** Mounts a tmpfs of `size` (such as "256k") on the existing directory `dir`, read-only if asked; returns its unmount. */
export function mountTmpfs(dir: string, size: string, options: { readOnly?: boolean } = {}): () => void {
  execFileSync("mount", ["-t", "tmpfs", "-o", `${options.readOnly === true ? "ro," : ""}size=${size}`, "tmpfs", dir]);
  return () => execFileSync("umount", [dir]);
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
