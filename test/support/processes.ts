// The processes running on this machine as Linux's /proc lists them, for tests that look for
// what a CLI started, or check that it all ended.
import { readdirSync, readFileSync } from "node:fs";

export type ProcessEntry = {
  pid: number;
  ppid: number;
  /** Its process group. */
  pgrp: number;
  /** "R", "S", … ; "Z" for a zombie (dead, not reaped yet). */
  state: string;
  /** Its command line, one argument each. */
  argv: string[];
};

/** Every process /proc lists now; one that ends while it is read is left out. */
export function listProcesses(): ProcessEntry[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      // "pid (comm) state ppid pgrp …": comm may hold spaces, so read after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state = "", ppid, pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").slice(0, -1);
      return [{ pid: Number(entry), ppid: Number(ppid), pgrp: Number(pgrp), state, argv }];
    } catch {
      return []; // it ended while we looked
    }
  });
}

/** Pids of the processes whose command line is exactly `argv`. */
export function processesRunning(argv: readonly string[]): number[] {
  const want = argv.join("\0");
  return listProcesses()
    .filter((p) => p.argv.join("\0") === want)
    .map((p) => p.pid);
}
