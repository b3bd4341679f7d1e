// A process named by pid and start time, so a pid the system handed to another process after
// ours ended (or after a reboot) is never mistaken for it. Linux reads /proc; elsewhere `ps`.
import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import type { Clock } from "../ports/index.js";

export type ProcessIdentity = Readonly<{ pid: number; startTime: string }>;

/** The running process `pid` with its start time, or undefined when none runs (zombies count as gone). */
export async function identifyProcess(pid: number): Promise<ProcessIdentity | undefined> {
  if (!Number.isSafeInteger(pid) || pid <= 0) return undefined;
  const startTime = process.platform === "linux" ? await linuxStartTime(pid) : await psStartTime(pid);
  return startTime === undefined ? undefined : { pid, startTime };
}

/** Whether the process `identity` names still runs: same pid, same start time. */
export async function isSameProcessRunning(identity: ProcessIdentity): Promise<boolean> {
  return (await identifyProcess(identity.pid))?.startTime === identity.startTime;
}

/** Whether the process `identity` names is gone within `ms` (checked every 50 ms). */
export async function endsWithin(identity: ProcessIdentity, ms: number, clock: Clock): Promise<boolean> {
  for (let waited = 0; ; waited += 50) {
    if (!(await isSameProcessRunning(identity))) return true;
    if (waited >= ms) return false;
    await new Promise<void>((resolve) => clock.setTimer(50, resolve));
  }
}

async function linuxStartTime(pid: number): Promise<string | undefined> {
  try {
    const [stat, bootId] = await Promise.all([
      readFile(`/proc/${pid}/stat`, "utf8"),
      readFile("/proc/sys/kernel/random/boot_id", "utf8"),
    ]);
    // "pid (comm) state ppid … starttime …": comm may hold spaces, so count fields after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const state = fields[0];
    const ticksSinceBoot = fields[19];
    if (state === undefined || state === "Z" || state === "X" || ticksSinceBoot === undefined) return undefined;
    return `${bootId.trim()}/${ticksSinceBoot}`;
  } catch {
    return undefined;
  }
}

function psStartTime(pid: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile("ps", ["-o", "stat=,lstart=", "-p", String(pid)], { timeout: 5_000 }, (error, stdout) => {
      const line = String(stdout).trim();
      if (error !== null || line === "" || line.startsWith("Z")) resolve(undefined);
      else resolve(line.slice(line.indexOf(" ") + 1).trim());
    });
  });
}
