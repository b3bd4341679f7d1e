// How what a CLI left running is ended, as the engine and the keeper end it after the CLI exited:
// SIGTERM, a grace, SIGKILL, with the tree looked at again throughout. Real processes, each a
// tagged shell in a session of its own, as the CLI runs a Bash command.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createSystemClock } from "../../src/ports/index.js";
import {
  endProcessTree,
  findTaggedProcesses,
  HOOK_VAR,
  isProcessAlive,
  PROCESS_TAG_VAR,
  startTick,
} from "../../src/process/index.js";
import { listProcesses, useProcessGroups } from "../support/processes.js";
import { useTempDirs } from "../support/temp-dirs.js";

const { shell, track } = useProcessGroups();
const tempDir = useTempDirs("end");

/** `script` in sh, tagged `tag`, in a session of its own. */
const taggedShell = (script: string, tag: string, env: Record<string, string> = {}) =>
  shell(script, { ...env, [PROCESS_TAG_VAR]: tag });

describe.runIf(process.platform === "linux")("ending a CLI's leftovers", () => {
  it("kills what a command starts after the first look, though it ignores SIGTERM", async () => {
    // A new `sleep 60` every 100 ms, all of them deaf to SIGTERM: the ones started during the
    // grace were never in the first look.
    await taggedShell(`trap '' TERM; while :; do sleep 60 & sleep 0.1; done`, "end-one");
    await vi.waitFor(async () => expect((await findTaggedProcesses("end-one")).length).toBeGreaterThanOrEqual(3), {
      timeout: 10_000,
      interval: 20,
    });
    await endProcessTree({ groupPid: undefined, tag: "end-one" }, createSystemClock());
    expect(await findTaggedProcesses("end-one")).toEqual([]);
  });

  it("gives a clean-up that SIGTERM started its grace, the processes it starts included", async () => {
    const mark = join(tempDir(), "cleaned");
    await taggedShell(
      `trap 'sh -c "sleep 0.3; echo cleaned > \\"$MARK\\""; exit 0' TERM; while :; do sleep 0.05; done`,
      "end-two",
      { MARK: mark },
    );
    // The shell and one of its sleeps: the loop runs, so the trap is set. (The shell alone may not
    // have read its trap yet, and a SIGTERM then ends it with nothing cleaned: a busy machine's flake.)
    await vi.waitFor(async () => expect((await findTaggedProcesses("end-two")).length).toBeGreaterThanOrEqual(2), {
      timeout: 10_000,
      interval: 20,
    });
    await endProcessTree({ groupPid: undefined, tag: "end-two" }, createSystemClock());
    expect(readFileSync(mark, "utf8")).toBe("cleaned\n");
    expect(await findTaggedProcesses("end-two")).toEqual([]);
  });

  it("after a clean exit, leaves running what a hook started as the CLI wound down, and ends the rest", async () => {
    const hook = { [HOOK_VAR]: "/project" };
    // Marked as a hook's, but started while the session ran (as an MCP server is): it goes.
    const sessions = await taggedShell("exec sleep 64", "end-three", hook);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The moment the CLI's input closed, on /proc's clock.
    const closed = await track(spawn("sleep", ["5"], { stdio: "ignore" }));
    const windDownFrom = startTick(closed.pid!)!;
    // As the CLI leaves them: a group whose leader is gone, holding a hook's process and another,
    // and commands in sessions of their own, carrying the tag, one of them a hook's.
    const leader = await shell(`sleep 60 & ${HOOK_VAR}=/project sleep 61 & exit 0`, { [PROCESS_TAG_VAR]: "other-tag" });
    if (leader.exitCode === null) await once(leader, "exit");
    const hookTagged = await taggedShell("exec sleep 62", "end-three", hook);
    const agentTagged = await taggedShell("exec sleep 63", "end-three");
    const group = leader.pid!;
    const inGroup = (): string[] =>
      listProcesses()
        .filter((p) => p.pgrp === group && p.state !== "Z")
        .map((p) => p.argv.join(" "))
        .sort();
    await vi.waitFor(() => expect(inGroup()).toEqual(["sleep 60", "sleep 61"]), { timeout: 10_000, interval: 20 });

    await endProcessTree({ groupPid: group, tag: "end-three", windDownFrom }, createSystemClock());
    expect(inGroup()).toEqual(["sleep 61"]);
    expect(await findTaggedProcesses("end-three")).toEqual([hookTagged.pid]);
    // The marked process the session started, and the agent's, are gone.
    expect(await isProcessAlive(sessions.pid!)).toBe(false);
    expect(await isProcessAlive(agentTagged.pid!)).toBe(false);

    // After a crash (or a signal), nothing is spared.
    await endProcessTree({ groupPid: group, tag: "end-three" }, createSystemClock());
    expect(inGroup()).toEqual([]);
    expect(await findTaggedProcesses("end-three")).toEqual([]);
  });
});
