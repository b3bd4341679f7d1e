// Finding kept CLIs after a restart: every keeper directory's state file, with its keeper's pid
// and start time checked, so a keeper that died (SIGKILL, a crash, a reboot) is told apart
// from a live one, and its CLI, if still running, is ended instead of lingering.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { Clock } from "../ports/index.js";
import { endProcessTree } from "../process/index.js";
import { readKeeperState, type KeeperState } from "./keeper-state.js";
import { endsWithin, isSameProcessRunning } from "./process-identity.js";

/** A keeper as its state file describes it, and where that file is. */
export type KeeperRecord = KeeperState & { readonly dir: string };

export type FoundKeeper =
  /** Its keeper runs: attach to it. */
  | { kind: "running"; record: KeeperRecord }
  /** Its keeper is gone (killed, crashed, or the machine rebooted): `reapGoneKeeper` ends what is left. */
  | { kind: "gone"; record: KeeperRecord }
  /** Written by a Telecode with another keeper protocol: `retireKeeper` asks it to let its CLI finish and end. */
  | { kind: "other_version"; dir: string; protocol: number; running: boolean; socketPath: string | null }
  /** No usable state file (a keeper still starting, or files damaged). */
  | { kind: "unreadable"; dir: string; problem: string };

/** Every keeper directory under `keepersDir` (none when it does not exist). */
export async function findKeepers(keepersDir: string): Promise<FoundKeeper[]> {
  let names: string[];
  try {
    names = readdirSync(keepersDir);
  } catch {
    return [];
  }
  return Promise.all(
    names.sort().map(async (name): Promise<FoundKeeper> => {
      const dir = join(keepersDir, name);
      const file = readKeeperState(join(dir, "state.json"));
      switch (file.kind) {
        case "unreadable":
          return { kind: "unreadable", dir, problem: file.problem };
        case "other_version":
          return {
            kind: "other_version",
            dir,
            protocol: file.protocol,
            running: file.keeper !== null && (await isSameProcessRunning(file.keeper)),
            socketPath: file.socketPath,
          };
        case "current": {
          const record = { ...file.state, dir };
          return { kind: (await isSameProcessRunning(record.keeper)) ? "running" : "gone", record };
        }
      }
    }),
  );
}

/**
 * After its keeper died: ends the CLI if it is still the same process (its group and every
 * process it started), then removes the keeper's files. Never signals a pid reused by another process.
 */
export async function reapGoneKeeper(record: KeeperRecord, clock: Clock): Promise<void> {
  const cliRunning = await isSameProcessRunning(record.cli);
  await endProcessTree({ groupPid: cliRunning ? record.cli.pid : undefined, tag: record.cli.tag }, clock);
  removeKeeperFiles(record);
}

/**
 * A keeper found running that refused an attach may be dying (killed just before the start):
 * reaps it once it is gone, waiting a second for that (true), else leaves it (false).
 */
export async function reapIfGone(record: KeeperRecord, clock: Clock): Promise<boolean> {
  if (!(await endsWithin(record.keeper, 1000, clock))) return false;
  await reapGoneKeeper(record, clock);
  return true;
}

export function removeKeeperFiles(record: Pick<KeeperRecord, "dir" | "socketPath">): void {
  rmSync(record.dir, { recursive: true, force: true });
  rmSync(record.socketPath, { force: true });
}
