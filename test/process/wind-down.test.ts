// How long a CLI whose input closed is waited for before it is taken for hung: its grace, and on
// past it while it runs a hook it started since (a SessionEnd hook), up to the budget Claude Code
// gives such hooks. The "CLI" is a shell that starts its children when the test says so; the
// wait's own clock is counted, not waited out.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { HOOK_VAR, WindDown, type ExitWithin } from "../../src/process/index.js";
import { listProcesses, useProcessGroups } from "../support/processes.js";
import { useTempDirs } from "../support/temp-dirs.js";

const { shell } = useProcessGroups();
const tempDir = useTempDirs("wind-down");

/**
 * A stand-in CLI that never exits by itself: it runs `before` at once and `after` once the test
 * calls `go()` (after its input closed), each line in the background.
 */
async function standInCli(options: { before?: string; after: string; env?: Record<string, string> }) {
  const go = join(tempDir(), "go");
  const script = `${options.before ?? ""}\nwhile [ ! -e ${go} ]; do sleep 0.02; done\n${options.after}\nwhile :; do sleep 1; done`;
  const cli = await shell(script, options.env);
  return { pid: cli.pid!, go: () => writeFileSync(go, "") };
}

/** A stand-in CLI whose input has closed, running a hook it started since: `sleep <seconds>`. */
async function runningHook(seconds: string, env: Record<string, string> = {}) {
  const cli = await standInCli({ after: `${HOOK_VAR}=/project sleep ${seconds} &`, env });
  const windDown = new WindDown(cli.pid);
  windDown.inputClosed();
  cli.go();
  await vi.waitFor(() => expect(childrenRunning(cli.pid, `sleep ${seconds}`)).toHaveLength(1), { timeout: 10_000 });
  return { cli, windDown };
}

/** The running children of `pid` whose command line is `argv`. */
const childrenRunning = (pid: number, argv: string): number[] =>
  listProcesses()
    .filter((p) => p.ppid === pid && p.state !== "Z" && p.argv.join(" ") === argv)
    .map((p) => p.pid);

/** A wait that never sees the CLI exit: it counts the time it was asked to wait, and calls `onWait` with the total. */
function countingWait(onWait: (total: number) => Promise<void> = () => Promise.resolve()) {
  const clock = { waited: 0 };
  const exitWithin: ExitWithin = async (ms) => {
    clock.waited += ms;
    await onWait(clock.waited);
    return false;
  };
  return { clock, exitWithin };
}

const tickPassed = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 30));

describe.runIf(process.platform === "linux")("a CLI winding down", () => {
  it("is waited for past its grace while it runs a hook it started after its input closed, up to 60 s", async () => {
    const { windDown } = await runningHook("71");
    const { clock, exitWithin } = countingWait();
    expect(await windDown.exitsWithin(2000, exitWithin)).toBe(false);
    // Claude Code gives a hook at most 60 s by its `timeout`; the grace is on top.
    expect(clock.waited).toBe(62_000);
  });

  it("stops waiting once the hook is done, though the CLI has not exited", async () => {
    const { cli, windDown } = await runningHook("72");
    const { clock, exitWithin } = countingWait(async (total) => {
      if (total !== 5000) return;
      const [hook] = childrenRunning(cli.pid, "sleep 72");
      process.kill(hook!, "SIGKILL");
      await vi.waitFor(() => expect(childrenRunning(cli.pid, "sleep 72")).toEqual([]), { timeout: 10_000 });
    });
    expect(await windDown.exitsWithin(2000, exitWithin)).toBe(false);
    expect(clock.waited).toBe(5000);
  });

  it("takes the longer budget the CLI's CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS gives its hooks", async () => {
    const { windDown } = await runningHook("73", { CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS: "75000" });
    const { clock, exitWithin } = countingWait();
    expect(await windDown.exitsWithin(2000, exitWithin)).toBe(false);
    expect(clock.waited).toBe(77_000);
  });

  it("takes it from the hook's environment, where a settings file's `env` block sets it", async () => {
    // Claude Code applies that block inside itself: the hooks it starts get it, its own /proc environ does not.
    const variable = "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS=80000";
    const cli = await standInCli({ after: `${HOOK_VAR}=/project ${variable} sleep 70.5 &` });
    const windDown = new WindDown(cli.pid);
    windDown.inputClosed();
    cli.go();
    await vi.waitFor(() => expect(childrenRunning(cli.pid, "sleep 70.5")).toHaveLength(1), { timeout: 10_000 });
    const { clock, exitWithin } = countingWait();
    expect(await windDown.exitsWithin(2000, exitWithin)).toBe(false);
    expect(clock.waited).toBe(82_000);
  });

  it("gives only the grace when what runs is not a hook started as it wound down", async () => {
    // Marked as a hook's but started with the session (an MCP server); started after the input
    // closed but not marked (a command); a hook's background work, no longer the CLI's child.
    const cli = await standInCli({
      before: `${HOOK_VAR}=/project sleep 74 &`,
      after: `sleep 75 &\n${HOOK_VAR}=/project sh -c 'sleep 76 &'`,
    });
    await vi.waitFor(() => expect(childrenRunning(cli.pid, "sleep 74")).toHaveLength(1), { timeout: 10_000 });
    await tickPassed();
    const windDown = new WindDown(cli.pid);
    windDown.inputClosed();
    cli.go();
    await vi.waitFor(() => expect(childrenRunning(cli.pid, "sleep 75")).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(listProcesses().filter((p) => p.argv.join(" ") === "sleep 76")).toHaveLength(1), {
      timeout: 10_000,
    });
    const { clock, exitWithin } = countingWait();
    expect(await windDown.exitsWithin(2000, exitWithin)).toBe(false);
    expect(clock.waited).toBe(2000);
  });

  it("does not wait at all once the CLI exits within its grace", async () => {
    const windDown = new WindDown(process.pid);
    windDown.inputClosed();
    const asked: number[] = [];
    expect(await windDown.exitsWithin(2000, (ms) => (asked.push(ms), Promise.resolve(true)))).toBe(true);
    expect(asked).toEqual([2000]);
  });
});
