// `telecode run` as a process of its own (the built bin), as a shell or a script runs it: what
// happens to it and to Claude Code when the CLI dies under it, it is told to end, or its output
// lands on a full disk. In a test's own process other handles keep Node alive; here nothing does,
// so an await nothing wakes ends the command early, as it would for a person. Real Claude Code,
// fake Messages API.
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { reply, type FakeReply } from "../support/fake-anthropic/index.js";
import { listProcesses, processesRunning } from "../support/processes.js";
import { startRunWorkspace, type RunWorkspace } from "../support/run-workspace.js";
import { telecodeBin } from "../support/telecode-bin.js";

let current: RunWorkspace | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

/** A workspace whose project holds `files` (path → text). */
async function workspace(replies: FakeReply[], files: Record<string, string>): Promise<RunWorkspace> {
  current = await startRunWorkspace(replies);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(current.cwd, path, ".."), { recursive: true });
    await writeFile(join(current.cwd, path), text);
  }
  return current;
}

/**
 * The built `telecode run` on `prompt`, with what it prints and how it ends; `stdout: "full"`
 * writes its output to a full disk (/dev/full).
 */
function start(ws: RunWorkspace, approve: string, prompt: string, options: { stdout?: "full"; json?: boolean } = {}) {
  const args = ["run", "--cwd", ws.cwd, "--config", ws.config, "--approve", approve, prompt];
  if (options.json === true) args.push("--json");
  const full = options.stdout === "full" ? openSync("/dev/full", "w") : "pipe";
  const child = spawn(process.execPath, [telecodeBin, ...args], { env: ws.env, stdio: ["ignore", full, "pipe"] });
  if (typeof full === "number") closeSync(full);
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** `telecode run` on a slow script (`sleep <seconds>`), approving it, once the script runs. */
async function runningSlowScript(seconds: string) {
  const files = { "slow.sh": `sleep ${seconds}\necho finished\n` };
  const run = start(await workspace([reply.bash("bash ./slow.sh", "Wait")], files), "all", "Run the slow script");
  await vi.waitFor(() => expect(processesRunning(["sleep", seconds])).toHaveLength(1), { timeout: 20_000 });
  const cli = listProcesses().find((p) => p.ppid === run.child.pid && p.argv.includes("stream-json"));
  return { ...run, cli: cli!.pid };
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

  it("Ctrl-C while Claude Code runs its SessionEnd hooks ends them, says so and exits 130", async () => {
    const hooks = {
      SessionEnd: [{ hooks: [{ type: "command", command: "sleep 49.5 && touch hook-done", timeout: 60 }] }],
    };
    const ws = await workspace([reply.text("Done here.")], { ".claude/settings.json": JSON.stringify({ hooks }) });
    const run = start(ws, "none", "Finish");
    await vi.waitFor(() => expect(run.stderr()).toContain("(Ctrl-C cuts them short)"), { timeout: 20_000 });
    run.child.kill("SIGINT");
    expect(await run.exited).toBe(130);
    expect(run.stdout()).toBe("Done here.\n");
    expect(run.stderr()).toMatch(/\^C Claude Code's SessionEnd hooks were cut short\.\n$/);
    expect(processesRunning(["sleep", "49.5"])).toEqual([]);
    expect(existsSync(join(ws.cwd, "hook-done"))).toBe(false);
  });
});

describe.runIf(existsSync("/dev/full"))("telecode run with its output on a full disk", () => {
  it("says the answer could not be written, how to go on in the session, and exits 1", async () => {
    const run = start(await workspace([reply.text("The answer is 42.")], {}), "none", "What is it?", {
      stdout: "full",
    });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(
      /telecode run: the answer could not be written \(ENOSPC: no space left on the device\)\. To go on in the same session, run: telecode run --cwd \S+ --resume [0-9a-f-]{36} PROMPT\n$/,
    );
  });

  it("with --json, cancels the run at the first event it cannot write, says why, and exits 1", async () => {
    const files = { "slow.sh": "sleep 46.5\necho finished\n" };
    const ws = await workspace([reply.bash("bash ./slow.sh", "Wait"), reply.text("Finished.")], files);
    const run = start(ws, "all", "Run the slow script", { stdout: "full", json: true });
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toMatch(
      /telecode run: the output could not be written \(ENOSPC: no space left on the device\), so the run was cancelled\.\n$/,
    );
    expect(processesRunning(["sleep", "46.5"])).toEqual([]);
  });
});
