// What a CLI leaves running, as the engine and the keeper look for it after the CLI exited: its
// process group, and the processes that carry its tag (a Bash command the CLI started in a
// session of its own). Real processes.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { findTaggedProcesses, isGroupAlive, PROCESS_TAG_VAR } from "../../src/process/index.js";
import { readTag, tagNeedle } from "../../src/process/process-tree.js";
import { listProcesses, useProcessGroups } from "../support/processes.js";
import { useTempDirs } from "../support/temp-dirs.js";

/** A process in a group of its own, running `script` in sh, with `env` added to ours. */
const { shell: group, track } = useProcessGroups();
const tempDir = useTempDirs("exec");

describe.runIf(process.platform === "linux")("a CLI's leftovers", () => {
  it("are its group while a process of it runs, and the processes carrying its tag", async () => {
    const child = await group("exec sleep 60", { [PROCESS_TAG_VAR]: "tag-one" });
    expect(await isGroupAlive(child.pid!)).toBe(true);
    expect(await findTaggedProcesses("tag-one")).toEqual([child.pid]);
  });

  it("include a group whose leader has exited while a process it started goes on", async () => {
    const child = await group("sleep 60 & exit 0", { [PROCESS_TAG_VAR]: "tag-two" });
    await once(child, "exit");
    // The shell may exit before its child has become `sleep`.
    const orphan = await vi.waitFor(
      () => {
        const [found] = listProcesses().filter((p) => p.pgrp === child.pid);
        expect(found?.argv).toEqual(["sleep", "60"]);
        return found!;
      },
      { timeout: 10_000, interval: 10 },
    );
    expect(await isGroupAlive(child.pid!)).toBe(true);
    expect(await findTaggedProcesses("tag-two")).toEqual([orphan.pid]);
  });

  it("are nothing once the group has ended", async () => {
    const child = await group("exec sleep 60", { [PROCESS_TAG_VAR]: "tag-three" });
    process.kill(-child.pid!, "SIGKILL");
    await once(child, "exit");
    expect(await isGroupAlive(child.pid!)).toBe(false);
    expect(await findTaggedProcesses("tag-three")).toEqual([]);
  });

  it("carry the tag as a whole variable: a tag that only begins one, or ends another, does not count", async () => {
    await group("exec sleep 60", { [PROCESS_TAG_VAR]: "tag-four-and-more", [`X${PROCESS_TAG_VAR}`]: "tag-four" });
    expect(await findTaggedProcesses("tag-four")).toEqual([]);
    expect(await findTaggedProcesses("tag-four-and-more")).toHaveLength(1);
  });

  it("include a process in the middle of execve, whose environment reads empty for that moment", async () => {
    // A shell that replaces itself with itself without pause spends about a quarter of its time
    // inside execve: a scan that took an empty environment for an untagged one missed it about
    // as often.
    const script = join(tempDir(), "again.sh");
    writeFileSync(script, `exec /bin/sh ${script}\n`);
    const child = await group(`exec /bin/sh ${script}`, { [PROCESS_TAG_VAR]: "tag-five" });
    for (let scan = 0; scan < 30; scan++) expect(await findTaggedProcesses("tag-five")).toEqual([child.pid]);
  });

  it("pass over a process started with no environment at all", async () => {
    const bare = await track(spawn("sleep", ["60"], { env: {}, detached: true, stdio: "ignore" }));
    const tagged = await group("exec sleep 60", { [PROCESS_TAG_VAR]: "tag-six" });
    expect(await findTaggedProcesses("tag-six")).toEqual([tagged.pid]);
    // Read as untagged at once: its command line, and its sleeping, tell it from one inside
    // execve, which a scan would wait on.
    expect(readTag(String(bare.pid), tagNeedle("tag-six"))).toBe(false);
  });

  it("wait on a busy process with a command line and no environment, as an execve laying out its stack reads so", async () => {
    // Between writing the new program's arguments and its environment, an execve shows the one
    // without the other; a process preempted there stays so as long as it waits for a CPU.
    const busy = await track(
      spawn(process.execPath, ["-e", "for (;;);"], { env: {}, detached: true, stdio: "ignore" }),
    );
    await vi.waitFor(() => expect(readFileSync(`/proc/${busy.pid}/cmdline`).length).toBeGreaterThan(0));
    await vi.waitFor(() => expect(readTag(String(busy.pid), tagNeedle("tag-seven"))).toBe("in execve"));
    // A scan reads it again a while, then passes over it: no tag ever shows.
    const tagged = await group("exec sleep 60", { [PROCESS_TAG_VAR]: "tag-seven" });
    expect(await findTaggedProcesses("tag-seven")).toEqual([tagged.pid]);
  });
});
