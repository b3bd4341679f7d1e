// A keeper started ahead of need: the next run's CLI starts in it (no Node start in front of
// it), it runs the CLI like any keeper, and an unused one ends (told to, or when its Telecode's
// pipe closes) leaving no files; `telecode keeper` given nothing ends quietly.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import type { CommandIo } from "../../src/cli/command-io.js";
import { runKeeperCommand } from "../../src/cli/keeper.js";
import { WarmKeeper } from "../../src/keeper/index.js";
import { fakeClaudePath, line, writeFakeClaudeScript } from "../support/fake-claude/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { launcherFor, Sink, useKeepers, userLine } from "./keeper-harness.js";

const tempDir = useTempDirs("warm-keeper");
const keepers = useKeepers();

const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("a keeper started ahead of need", () => {
  it("runs the next CLI in the process already started", async () => {
    const dir = tempDir();
    const launcher = launcherFor(join(dir, "keepers"));
    const warm = WarmKeeper.start(launcher);
    const script = await writeFakeClaudeScript(dir, {
      steps: [{ awaitIn: { type: "user" } }, { out: line.text("from the warm keeper") }, { awaitIn: { type: "user" } }],
    });
    const { record } = await keepers.startFull(
      launcher,
      { cli: { path: fakeClaudePath, args: [], cwd: dir, env: { PATH: process.env["PATH"] ?? "", ...script.env } } },
      warm,
    );
    expect(record.keeper.pid).toBe(warm.pid);
    expect(record.keeperId).toBe(warm.keeperId);
    expect(warm.alive).toBe(false);
    const sink = new Sink();
    const connection = await keepers.attach(record, { sink });
    await connection.write(userLine("go"));
    await sink.waitFor((r) => r.line.includes("from the warm keeper"));
  });

  it("ends unused when told, or when its Telecode's pipe closes, and leaves no files", async () => {
    const keepersDir = join(tempDir(), "keepers");
    const warm = WarmKeeper.start(launcherFor(keepersDir));
    const pid = warm.pid ?? -1;
    expect(isRunning(pid)).toBe(true);
    warm.end();
    await vi.waitFor(() => expect(isRunning(pid)).toBe(false), { timeout: 10_000, interval: 25 });
    expect(existsSync(keepersDir) ? readdirSync(keepersDir) : []).toEqual([]);

    // Its Telecode gone: stdin ends with no spec, and `telecode keeper` returns 0, saying nothing.
    const stdin = new PassThrough();
    const said = new PassThrough();
    const io: CommandIo = { stdout: said, stderr: said, env: {} };
    const done = runKeeperCommand([], io, stdin);
    stdin.end();
    expect(await done).toBe(0);
    expect(said.read()).toBeNull();
  });
});
