// `telecode run` as a process of its own (the built bin), as a shell or a script runs it: what
// happens to it and to Claude Code when the CLI dies under it or it is told to end. In a test's
// own process other handles keep Node alive; here nothing does, so an await nothing wakes ends
// the command early, as it would for a person. Real Claude Code, fake Messages API.
import { spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { listProcesses, processesRunning } from "../support/processes.js";
import { startRunWorkspace, type RunWorkspace } from "../support/run-workspace.js";
import { telecodeBin } from "../support/telecode-bin.js";

let current: RunWorkspace | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** `telecode run` on a slow script (`sleep <seconds>`), approving it, once the script runs. */
async function runningSlowScript(seconds: string) {
  current = await startRunWorkspace([reply.bash("bash ./slow.sh", "Wait")]);
  await writeFile(join(current.cwd, "slow.sh"), `sleep ${seconds}\necho finished\n`);
  const args = ["run", "--cwd", current.cwd, "--config", current.config, "--approve", "all", "Run the slow script"];
  const child = spawn(process.execPath, [telecodeBin, ...args], {
    env: current.env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  child.stdout.resume();
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  await vi.waitFor(() => expect(processesRunning(["sleep", seconds])).toHaveLength(1), { timeout: 20_000 });
  const cli = listProcesses().find((p) => p.ppid === child.pid && p.argv.includes("stream-json"));
  return { child, cli: cli!.pid, exited, stderr: () => stderr };
}

describe("telecode run as a process of its own", () => {
  it("says so and exits 1 when Claude Code dies in the middle of a tool, and ends the tool", async () => {
    const run = await runningSlowScript("47.5");
    process.kill(run.cli, "SIGKILL");
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain("error: Claude Code exited unexpectedly (signal SIGKILL).");
    expect(processesRunning(["sleep", "47.5"])).toEqual([]);
  });

  it("ended by SIGTERM (`timeout`, `kill`), it ends Claude Code and the tool with it and exits 143", async () => {
    const run = await runningSlowScript("48.5");
    run.child.kill("SIGTERM");
    expect(await run.exited).toBe(143);
    expect(run.stderr()).toMatch(/telecode run: ended by SIGTERM, and Claude Code with it\.\n$/);
    expect(processesRunning(["sleep", "48.5"])).toEqual([]);
    expect(listProcesses().filter((p) => p.pid === run.cli && p.state !== "Z")).toEqual([]);
  });
});
