// The processes running on this machine as Linux's /proc lists them, for tests that look for
// what a CLI started, or check that it all ended.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { afterEach } from "vitest";

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

/** Pids of the processes started with `name=value` in their environment (one of ours, so readable). */
export function processesWithEnv(name: string, value: string): number[] {
  const want = `${name}=${value}`;
  return listProcesses()
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p.pid}/environ`, "utf8").split("\0").includes(want);
      } catch {
        return false; // it ended, or is not ours
      }
    })
    .map((p) => p.pid);
}

/**
 * Call at module level. `shell` runs `script` in sh in a process group of its own (as the CLI
 * runs a Bash command), with `env` over this process's; `track` takes a child started otherwise.
 * After each test, each one's group (or the child alone) is SIGKILLed and its exit waited for.
 */
export function useProcessGroups(): {
  shell: (script: string, env?: NodeJS.ProcessEnv) => Promise<ChildProcess>;
  track: (child: ChildProcess) => Promise<ChildProcess>;
} {
  const started: ChildProcess[] = [];
  afterEach(async () => {
    for (const child of started.splice(0)) {
      if (!signalled(-child.pid!)) signalled(child.pid!);
      if (child.exitCode === null && child.signalCode === null) await once(child, "exit");
    }
  });
  const track = async (child: ChildProcess): Promise<ChildProcess> => {
    started.push(child);
    await once(child, "spawn");
    return child;
  };
  const shell = (script: string, env: NodeJS.ProcessEnv = {}): Promise<ChildProcess> =>
    track(spawn("sh", ["-c", script], { env: { ...process.env, ...env }, detached: true, stdio: "ignore" }));
  return { shell, track };
}

/** SIGKILL to `target` (a pid, or minus a group's id): false when there was nothing to kill. */
function signalled(target: number): boolean {
  try {
    process.kill(target, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}
