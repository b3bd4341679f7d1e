// Ends what a CLI leaves running: its process group and every process carrying its tag (the CLI
// runs each Bash command in a session of its own, out of reach of a group signal). The engine
// calls it once its CLI has exited, the keeper once its CLI has, and a client that finds a keeper
// gone with its CLI still alive.
import type { Clock } from "../ports/index.js";
import {
  findTaggedProcesses,
  groupMembers,
  HOOK_VAR,
  isGroupAlive,
  isProcessAlive,
  isSpared,
  readsEnvironments,
  scanTagged,
} from "./process-tree.js";

/** What a CLI may have left running. */
export type ProcessTree = {
  /** The group the CLI led; undefined when that pid can no longer be trusted to be ours. */
  groupPid: number | undefined;
  /** The CLI's tag (`PROCESS_TAG_VAR`), which everything it starts inherits. */
  tag: string;
  /** Its descendants as listed before it ended, where there is no /proc to find tags in. */
  known?: readonly number[];
  /**
   * Set when the CLI exited cleanly (status 0) after its input closed, to that moment
   * (`WindDown.windDownFrom`): what its hooks started since runs on, as it does without Telecode (a
   * SessionEnd hook's summary, put in the background to outlast the CLI's short budget for such
   * hooks). Unset after a crash or a signal: everything is ended.
   */
  windDownFrom?: number | undefined;
};

/** How long SIGTERM is given before SIGKILL. */
const GRACE_MS = 1000;
/** How often the tree is looked at again while it ends. */
const LOOK_EVERY_MS = 50;
/** How long SIGKILL is given: it cannot be refused, but a busy machine takes a moment to carry it out. */
const KILL_WAIT_MS = 2000;

/**
 * SIGTERM to the group and to every tagged process, then SIGKILL to all that is there a second
 * later. The tree is looked at again every 50 ms, not only once: what appears after the first
 * look (a loop's next command, one whose `execve` outlasted that look) is still there to be
 * killed, and a look that finds nothing ends the wait early. What appears during the grace gets
 * no SIGTERM of its own, so a clean-up a SIGTERM started (a shutdown handler's child) has the
 * grace to finish. Resolves once nothing is left, or 2 s after SIGKILL.
 */
export async function endProcessTree(tree: ProcessTree, clock: Clock): Promise<void> {
  // Work to finish: a `telecode run` whose CLI died with a tool running has nothing else keeping
  // it alive, and Node would exit in the middle of the grace, leaving the run unreported.
  const pause = (): Promise<void> =>
    new Promise((resolve) => clock.setTimer(LOOK_EVERY_MS, resolve, { keepsProcessAlive: true }));
  const signalAll = (left: Left, name: NodeJS.Signals): void => {
    if (left.group) signal(-tree.groupPid!, name);
    for (const pid of left.pids) signal(pid, name);
  };
  let left = await lookAt(tree);
  if (isEmpty(left)) return;
  signalAll(left, "SIGTERM");
  for (let waited = 0; waited < GRACE_MS; waited += LOOK_EVERY_MS) {
    await pause();
    left = await lookAt(tree);
    if (isEmpty(left)) return;
  }
  for (let waited = 0; waited <= KILL_WAIT_MS; waited += LOOK_EVERY_MS) {
    signalAll(left, "SIGKILL");
    await pause();
    left = await lookAt(tree);
    if (isEmpty(left)) return;
  }
}

type Left = { group: boolean; pids: number[] };

async function lookAt(tree: ProcessTree): Promise<Left> {
  if (tree.windDownFrom !== undefined && readsEnvironments) {
    // The group is signalled member by member, so that a hook's processes in it are not. Its
    // members carry the tag, unless they were started without the CLI's environment.
    const spare = { variable: HOOK_VAR, fromTick: tree.windDownFrom };
    const { tagged, spared } = await scanTagged(tree.tag, spare);
    const seen = new Set([...tagged, ...spared]);
    const members = tree.groupPid === undefined ? [] : groupMembers(tree.groupPid);
    const untagged = members.filter((pid) => !seen.has(pid) && !isSpared(pid, spare));
    return { group: false, pids: [...tagged, ...untagged] };
  }
  const tagged = await findTaggedProcesses(tree.tag);
  const known = await Promise.all((tree.known ?? []).map(async (p) => ((await isProcessAlive(p)) ? p : undefined)));
  return {
    group: tree.groupPid !== undefined && (await isGroupAlive(tree.groupPid)),
    pids: [...new Set([...tagged, ...known.filter((p): p is number => p !== undefined)])],
  };
}

const isEmpty = (left: Left): boolean => !left.group && left.pids.length === 0;

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // ESRCH: already gone.
  }
}
