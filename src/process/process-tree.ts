// Finds the processes a CLI left behind. The CLI runs each Bash command in a session of its
// own, so signalling the CLI's process group does not reach them, and after a crash they are
// re-parented. Every process we spawn carries a unique environment tag that its descendants
// inherit; on Linux we find them by it. Elsewhere, descendants are listed with `ps` beforehand.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";

/** The environment variable that marks a CLI process and everything it starts. */
export const PROCESS_TAG_VAR = "TELECODE_PROCESS_TAG";

const isLinux = process.platform === "linux";

async function readStat(pid: string): Promise<{ state: string; pgrp: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid pgrp …": comm may contain spaces, so parse after the last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return state === undefined ? undefined : { state, pgrp: Number(pgrp) };
  } catch {
    return undefined;
  }
}

const running = (state: string): boolean => state !== "Z" && state !== "X";

/** Whether any process of the group runs (zombies do not count on Linux). */
export async function isGroupAlive(pgid: number): Promise<boolean> {
  if (isLinux) {
    const entries = await readdir("/proc").catch(() => [] as string[]);
    const stats = await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map((e) => readStat(e)));
    return stats.some((s) => s !== undefined && s.pgrp === pgid && running(s.state));
  }
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether a process runs (zombies count as gone on Linux: they no longer do anything). */
export async function isProcessAlive(pid: number): Promise<boolean> {
  if (isLinux) {
    const stat = await readStat(String(pid));
    return stat !== undefined && running(stat.state);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Live processes whose environment holds `PROCESS_TAG_VAR=tag` (Linux; empty elsewhere). */
export async function findTaggedProcesses(tag: string): Promise<number[]> {
  if (!isLinux) return [];
  const needle = Buffer.from(`\0${PROCESS_TAG_VAR}=${tag}\0`);
  const found: number[] = [];
  const entries = await readdir("/proc").catch(() => [] as string[]);
  await Promise.all(
    entries.map(async (entry) => {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) return;
      try {
        const env = Buffer.concat([Buffer.from([0]), await readFile(`/proc/${entry}/environ`), Buffer.from([0])]);
        if (env.includes(needle) && (await isProcessAlive(Number(entry)))) found.push(Number(entry));
      } catch {
        // gone, or not ours to read
      }
    }),
  );
  return found;
}

/** Descendants of `pid` from one `ps` snapshot (for systems without /proc). */
export function listDescendants(pid: number): Promise<number[]> {
  if (isLinux) return Promise.resolve([]);
  return new Promise((resolve) => {
    execFile("ps", ["-A", "-o", "pid=,ppid="], { timeout: 5_000 }, (error, stdout) => {
      if (error !== null) return resolve([]);
      const children = new Map<number, number[]>();
      for (const line of String(stdout).split("\n")) {
        const [p, pp] = line.trim().split(/\s+/).map(Number);
        if (p === undefined || pp === undefined || Number.isNaN(p)) continue;
        children.set(pp, [...(children.get(pp) ?? []), p]);
      }
      const out: number[] = [];
      const walk = (parent: number): void => {
        for (const child of children.get(parent) ?? []) {
          out.push(child);
          walk(child);
        }
      };
      walk(pid);
      resolve(out);
    });
  });
}
