// Finds the processes a CLI left behind: it runs each Bash command in a session of its own, and
// orphans are re-parented, so every process we spawn carries an environment tag its descendants
// inherit, found through /proc on Linux (read synchronously: a file takes microseconds, where an
// async read is four thread-pool trips) and elsewhere from a `ps` listing taken beforehand.
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The environment variable that marks a CLI process and everything it starts. */
export const PROCESS_TAG_VAR = "TELECODE_PROCESS_TAG";

/**
 * The variable Claude Code sets for its hooks' commands and its MCP servers, not for its Bash
 * tool's commands: what holds it was started by what the user configured, not by Claude.
 */
export const HOOK_VAR = "CLAUDE_PROJECT_DIR";

const isLinux = process.platform === "linux";

/** Whether a process's environment can be read here (/proc): elsewhere nothing is told apart by it. */
export const readsEnvironments = isLinux;

/** PF_KTHREAD in /proc/<pid>/stat's flags: a kernel thread, which has no environment at all. */
const KERNEL_THREAD = 0x00200000;

type Stat = { state: string; ppid: number; pgrp: number; kernelThread: boolean; startTick: number };

function readStat(pid: string): Stat | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state ppid pgrp session tty tpgid flags … starttime …" (starttime is the 22nd):
    // comm may contain spaces, so parse after the last ")".
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const [state, ppid, pgrp, , , , flags] = fields;
    if (state === undefined) return undefined;
    const kernelThread = (Number(flags) & KERNEL_THREAD) !== 0;
    return { state, ppid: Number(ppid), pgrp: Number(pgrp), kernelThread, startTick: Number(fields[19]) };
  } catch {
    return undefined;
  }
}

const running = (state: string): boolean => state !== "Z" && state !== "X";

/** Whether a process runs or waits to (R), or waits in the kernel (D): not one that sleeps. */
const onCpu = (pid: string): boolean => {
  const state = readStat(pid)?.state;
  return state === "R" || state === "D";
};

/** The pids /proc lists now. */
function procPids(): string[] {
  try {
    return readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
}

function groupRuns(pgid: number): boolean {
  return isLinux ? groupMembers(pgid).length > 0 : signalReaches(-pgid);
}

function processRuns(pid: number): boolean {
  if (!isLinux) return signalReaches(pid);
  const stat = readStat(String(pid));
  return stat !== undefined && running(stat.state);
}

/** Whether a signal sent to `target` (a pid, or minus a group's id) would reach a process we may signal. */
function signalReaches(target: number): boolean {
  return signalZero(target) === undefined;
}

/** kill(target, 0): undefined when it would be delivered, else why not ("ESRCH": no such process or group). */
function signalZero(target: number): string | undefined {
  try {
    process.kill(target, 0);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? "unknown";
  }
}

/** When a process started, in /proc's clock ticks since boot (Linux; undefined elsewhere or once it is gone). */
export function startTick(pid: number): number | undefined {
  return isLinux ? readStat(String(pid))?.startTick : undefined;
}

/** The running members of a process group (Linux; empty elsewhere). */
export function groupMembers(pgid: number): number[] {
  // No member left at all, not even a zombie (the usual case once a CLI has exited): one system
  // call says so, where reading every process's stat takes milliseconds.
  if (!isLinux || signalZero(-pgid) === "ESRCH") return [];
  return runningWhere((stat) => stat.pgrp === pgid);
}

/** The running children of a process (Linux; empty elsewhere). */
export function childrenOf(pid: number): number[] {
  return isLinux ? runningWhere((stat) => stat.ppid === pid) : [];
}

/** The running processes whose stat `match`es, from one pass over /proc. */
function runningWhere(match: (stat: Stat) => boolean): number[] {
  return procPids()
    .filter((pid) => {
      const stat = readStat(pid);
      return stat !== undefined && running(stat.state) && match(stat);
    })
    .map(Number);
}

/** The value of `name` in a process's environment as it started (Linux; undefined elsewhere, or when it has none). */
export function environmentValue(pid: number, name: string): string | undefined {
  const env = readProcFile(String(pid), "environ");
  const prefix = Buffer.from(`${name}=`);
  const at = env === undefined ? -1 : variableAt(env, prefix);
  if (env === undefined || at === -1) return undefined;
  const end = env.indexOf(0, at);
  return env.toString("utf8", at + prefix.length, end === -1 ? env.length : end);
}

/** Which processes to leave running: those whose environment names `variable`, started from `fromTick`. */
export type Spare = { variable: string; fromTick: number };

/** Whether a process is one `spare` leaves running (Linux; false elsewhere). */
export function isSpared(pid: number, spare: Spare): boolean {
  const env = readProcFile(String(pid), "environ");
  return env !== undefined && namesVariable(env, Buffer.from(`${spare.variable}=`)) && startedFrom(pid, spare);
}

const startedFrom = (pid: number, spare: Spare): boolean => (startTick(pid) ?? -1) >= spare.fromTick;

/** Whether any process of the group runs (zombies do not count on Linux). */
export function isGroupAlive(pgid: number): Promise<boolean> {
  return Promise.resolve(groupRuns(pgid));
}

/** Whether a process runs (zombies count as gone on Linux: they no longer do anything). */
export function isProcessAlive(pid: number): Promise<boolean> {
  return Promise.resolve(processRuns(pid));
}

/**
 * Live processes whose environment holds `PROCESS_TAG_VAR=tag` (Linux; empty elsewhere). One
 * caught inside `execve` is read again a moment later, until its new program has started.
 */
export async function findTaggedProcesses(tag: string): Promise<number[]> {
  return (await scanTagged(tag)).tagged;
}

/**
 * The tagged processes, as `findTaggedProcesses` finds them, less those `spare` leaves running
 * (the variable read on the same reading as the tag): those are `spared`.
 */
export async function scanTagged(tag: string, spare?: Spare): Promise<{ tagged: number[]; spared: number[] }> {
  if (!isLinux) return { tagged: [], spared: [] };
  const needle = tagNeedle(tag);
  const marker = spare === undefined ? undefined : Buffer.from(`${spare.variable}=`);
  const tagged: number[] = [];
  const spared: number[] = [];
  /** Reads `pid`'s tag and keeps `pid` when it carries it; true while it is inside `execve`. */
  const inExecve = (pid: string): boolean => {
    const reading = readTag(pid, needle, marker);
    if (reading !== false && reading !== "in execve" && processRuns(Number(pid)))
      (reading === "marked" && startedFrom(Number(pid), spare!) ? spared : tagged).push(Number(pid));
    return reading === "in execve";
  };
  let pending = procPids().filter((pid) => Number(pid) !== process.pid && inExecve(pid));
  for (let round = 0; round < EXECVE_REREADS && pending.length > 0; round++) {
    await new Promise((resolve) => setTimeout(resolve, EXECVE_REREAD_MS));
    pending = pending.filter(inExecve);
  }
  return { tagged: tagged.sort((a, b) => a - b), spared: spared.sort((a, b) => a - b) };
}

// An `execve` shows nothing for well under a millisecond; a process that started with neither
// arguments nor environment (which no shell does), or with no environment and busy on a CPU,
// costs a scan 25 ms.
const EXECVE_REREADS = 25;
const EXECVE_REREAD_MS = 1;

/** The variable `readTag` looks for, as the bytes of /proc/<pid>/environ hold it. */
export const tagNeedle = (tag: string): Buffer => Buffer.from(`${PROCESS_TAG_VAR}=${tag}`);

/**
 * Whether a process's environment holds `needle` ("NAME=value") as a whole variable; "marked" when
 * it does and also names the variable `marker` ("NAME=") starts. An empty environment is none at
 * all (a kernel thread, a zombie, a process started without one) or a process inside `execve`,
 * which shows neither environment nor command line until its new program's stack is laid out,
 * and then, for a moment, its command line alone: "in execve" then.
 */
export function readTag(pid: string, needle: Buffer, marker?: Buffer): boolean | "marked" | "in execve" {
  const env = readProcFile(pid, "environ");
  if (env === undefined) return false; // gone, or not ours to read
  if (env.length === 0 && readProcFile(pid, "cmdline")?.length === 0) {
    const stat = readStat(pid);
    return stat !== undefined && running(stat.state) && !stat.kernelThread ? "in execve" : false;
  }
  // A command line and no environment: started without one, or its execve ended between the
  // reads, or is laying out the new program's stack (its arguments first, then its
  // environment): a process on a CPU, or waiting to be, that reads so is taken to be there.
  const read = env.length > 0 ? env : readProcFile(pid, "environ");
  if (read?.length === 0 && onCpu(pid)) return "in execve";
  if (read === undefined || !holdsVariable(read, needle)) return false;
  return marker !== undefined && namesVariable(read, marker) ? "marked" : true;
}

function readProcFile(pid: string, name: "environ" | "cmdline"): Buffer | undefined {
  try {
    return readFileSync(`/proc/${pid}/${name}`);
  } catch {
    return undefined;
  }
}

/** Whether NUL-separated variables hold one that starts with `prefix` ("NAME="). */
const namesVariable = (env: Buffer, prefix: Buffer): boolean => variableAt(env, prefix) !== -1;

/** Where the first of NUL-separated variables that starts with `prefix` ("NAME=") is; -1 when none does. */
function variableAt(env: Buffer, prefix: Buffer): number {
  for (let at = env.indexOf(prefix); at !== -1; at = env.indexOf(prefix, at + 1))
    if (at === 0 || env[at - 1] === 0) return at;
  return -1;
}

/** Whether NUL-separated variables hold `needle` whole (read as they are, without a copy). */
function holdsVariable(env: Buffer, needle: Buffer): boolean {
  for (let at = env.indexOf(needle); at !== -1; at = env.indexOf(needle, at + 1)) {
    const end = at + needle.length;
    if ((at === 0 || env[at - 1] === 0) && (end === env.length || env[end] === 0)) return true;
  }
  return false;
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
