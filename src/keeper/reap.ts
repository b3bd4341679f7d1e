// Ends what a CLI leaves running: its process group and every process carrying its tag (the CLI
// runs each Bash command in a session of its own, out of reach of a group signal). Used by the
// keeper after its CLI exited, and by a client that finds a keeper gone with its CLI still alive.
import type { Clock } from "../ports/index.js";
import { findTaggedProcesses, isGroupAlive, isProcessAlive } from "../process/index.js";

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // ESRCH: already gone.
  }
}

/**
 * SIGTERM to the group led by `groupPid` (left out when that pid can no longer be trusted to
 * be ours) and to every process tagged `tag`, then SIGKILL to what is still there after
 * `graceMs`. Resolves once nothing is left (or 2 s after SIGKILL).
 */
export async function reapProcessTree(options: {
  groupPid: number | undefined;
  tag: string;
  clock: Clock;
  graceMs?: number;
}): Promise<void> {
  const { groupPid, clock } = options;
  const tagged = await findTaggedProcesses(options.tag);
  const survivors = async (): Promise<number[]> => {
    const alive = await Promise.all(tagged.map(async (p) => ((await isProcessAlive(p)) ? p : undefined)));
    return alive.filter((p): p is number => p !== undefined);
  };
  const groupAlive = async (): Promise<boolean> => groupPid !== undefined && (await isGroupAlive(groupPid));
  const anyLeft = async (): Promise<boolean> => (await groupAlive()) || (await survivors()).length > 0;
  if (!(await anyLeft())) return;
  if (groupPid !== undefined) signal(-groupPid, "SIGTERM");
  for (const pid of tagged) signal(pid, "SIGTERM");
  for (let waited = 0; waited < (options.graceMs ?? 1000); waited += 50) {
    await new Promise<void>((resolve) => clock.setTimer(50, resolve));
    if (!(await anyLeft())) return;
  }
  if (groupPid !== undefined) signal(-groupPid, "SIGKILL");
  for (const pid of await survivors()) signal(pid, "SIGKILL");
  // SIGKILL cannot be refused, but a busy machine takes a moment to carry it out.
  for (let waited = 0; waited < 2000 && (await anyLeft()); waited += 50)
    await new Promise<void>((resolve) => clock.setTimer(50, resolve));
}
