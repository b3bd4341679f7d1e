// What a CLI binary supports is learnt once and kept in the state directory: a later process
// (a new engine) starts the same binary without probing it, a changed binary is probed again,
// and a CLI that refuses a flag Telecode guessed is started again without it, losing nothing.
import { copyFile, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allowAllController, createClaudeEngine, createCliProbe } from "../../src/claude/index.js";
import type { SessionHandle } from "../../src/claude/index.js";
import type { RunCompleted, TelecodeEvent } from "../../src/domain/index.js";
import { fakeClaudePath, line, writeFakeClaudeScript } from "../support/fake-claude/index.js";
import { collect, processGroupAlive } from "./harness.js";

const FAKE_VARS = ["FAKE_CLAUDE_SCRIPT", "FAKE_CLAUDE_STDIN_LOG", "FAKE_CLAUDE_ARGS_LOG", "FAKE_CLAUDE_UNKNOWN_FLAGS"];

let dirs: string[] = [];
let sessions: SessionHandle[] = [];
afterEach(async () => {
  const pids = sessions.map((s) => s.pid).filter((p): p is number => p !== undefined);
  await Promise.all(sessions.map((s) => s.close()));
  for (const pid of pids) expect(processGroupAlive(pid)).toBe(false);
  // A probe beside a start may still be writing its cache file: removal is retried then.
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true, maxRetries: 5 })));
  dirs = [];
  sessions = [];
});

/** A private copy of the stand-in CLI (so it can be changed), its logs, and the state directory's cache file. */
async function workspace(options: { unknownFlags?: string; print?: boolean } = {}): Promise<{
  dir: string;
  claude: string;
  cacheFile: string;
  env: NodeJS.ProcessEnv;
  args(): Promise<string[][]>;
  stdin(): Promise<Record<string, unknown>[]>;
}> {
  const dir = await mkdtemp(join(tmpdir(), "telecode-probe-"));
  dirs.push(dir);
  const claude = join(dir, "claude");
  await copyFile(fakeClaudePath, claude);
  const answer = [{ out: line.init() }, { out: line.result("Hi there.") }];
  // Print mode: the prompt is in the arguments and stdin is closed at once.
  const script = await writeFakeClaudeScript(
    dir,
    options.print === true
      ? { steps: answer, exitOnEof: false }
      : { steps: [{ awaitIn: { type: "user" } }, ...answer] },
  );
  const lines = async (file: string): Promise<string[]> =>
    (await readFile(file, "utf8").catch(() => "")).split("\n").filter((l) => l !== "");
  return {
    dir,
    claude,
    cacheFile: join(dir, "state", "claude-cli.json"),
    env: { PATH: process.env["PATH"], HOME: dir, FAKE_CLAUDE_UNKNOWN_FLAGS: options.unknownFlags ?? "", ...script.env },
    args: async () => (await lines(script.argsLog)).map((l) => JSON.parse(l) as string[]),
    stdin: async () => (await lines(script.stdinLog)).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

type Workspace = Awaited<ReturnType<typeof workspace>>;

/** One run in a fresh engine, as a new Telecode process would do it; resolves with its completion. */
async function runOnce(ws: Workspace, options: { print?: boolean } = {}): Promise<RunCompleted> {
  const engine = createClaudeEngine({ claudePath: ws.claude, env: ws.env, probeCacheFile: ws.cacheFile });
  const session = engine.openSession(
    { cwd: ws.dir, permissionMode: "default", envAllow: FAKE_VARS, idleMs: 0, ...options },
    allowAllController(),
  );
  sessions.push(session);
  const events = collect(session);
  const runId = await session.startRun("say hi");
  return (await events.waitFor(
    (e: TelecodeEvent): boolean => e.type === "run_completed" && e.runId === runId,
  )) as RunCompleted;
}

const probes = (all: string[][]): { version: number; help: number } => ({
  version: all.filter((a) => a.includes("--version")).length,
  help: all.filter((a) => a.includes("--help")).length,
});
const spawns = (all: string[][]): string[][] => all.filter((a) => a.includes("--output-format"));

/**
 * Waits until the cache file (written by the probe that ran beside the start) names the binary
 * (with `size`: as it is now, after an upgrade).
 */
async function cached(ws: Workspace, size?: number): Promise<Record<string, unknown>> {
  let entry: Record<string, unknown> | undefined;
  await expect
    .poll(
      async () => {
        const text = await readFile(ws.cacheFile, "utf8").catch(() => "{}");
        const binaries = (JSON.parse(text) as { binaries?: Record<string, unknown>[] }).binaries ?? [];
        entry = binaries.find((b) => b["realPath"] === ws.claude && (size === undefined || b["size"] === size));
        return entry !== undefined;
      },
      { timeout: 10_000, interval: 20 },
    )
    .toBe(true);
  return entry ?? {};
}

describe("the CLI probe, kept in the state directory", () => {
  it("probes a binary once; later processes start it without asking it anything", async () => {
    const ws = await workspace();
    expect(await runOnce(ws)).toMatchObject({ ok: true, answer: "Hi there." });
    expect(await cached(ws)).toMatchObject({ version: "2.1.332", supportsHookEvents: true });
    expect(probes(await ws.args())).toEqual({ version: 1, help: 1 });

    expect(await runOnce(ws)).toMatchObject({ ok: true, answer: "Hi there." });
    expect(await runOnce(ws)).toMatchObject({ ok: true, answer: "Hi there." });
    const all = await ws.args();
    expect(probes(all)).toEqual({ version: 1, help: 1 });
    expect(spawns(all)).toHaveLength(3);
    for (const args of spawns(all)) expect(args).toContain("--include-hook-events");
  });

  it("answers doctor and the start-up log from the kept probe, and asks a binary it does not know", async () => {
    const ws = await workspace();
    const asked = await createCliProbe({ cacheFile: ws.cacheFile }).ask(ws.claude, ws.env);
    expect(asked).toMatchObject({ path: ws.claude, version: "2.1.332", supportsHookEvents: true });
    expect(probes(await ws.args())).toEqual({ version: 1, help: 1 });
    expect(await cached(ws)).toMatchObject({ version: "2.1.332" });

    // Another process (a new probe object) reads the answer from the state directory.
    expect(await createCliProbe({ cacheFile: ws.cacheFile }).ask(ws.claude, ws.env)).toMatchObject({
      version: "2.1.332",
    });
    expect(await runOnce(ws)).toMatchObject({ ok: true, answer: "Hi there." });
    expect(probes(await ws.args())).toEqual({ version: 1, help: 1 });
  });

  it("probes a binary again once it changed (an upgrade)", async () => {
    const ws = await workspace();
    await runOnce(ws);
    await cached(ws);
    await writeFile(ws.claude, `${await readFile(ws.claude, "utf8")}\n// upgraded\n`);
    expect(await runOnce(ws)).toMatchObject({ ok: true });
    await expect
      .poll(async () => probes(await ws.args()), { timeout: 10_000, interval: 20 })
      .toEqual({
        version: 2,
        help: 2,
      });
    // The new answer is kept (and the state directory is left alone before the test ends).
    expect(await cached(ws, (await stat(ws.claude)).size)).toMatchObject({ version: "2.1.332" });
  });

  it.each([
    { mode: "control", print: false },
    { mode: "print", print: true },
  ])("starts a CLI again without a flag it refuses, and the run goes on ($mode mode)", async ({ print }) => {
    const ws = await workspace({ unknownFlags: "--include-hook-events", print });
    expect(await runOnce(ws, { print })).toMatchObject({ ok: true, answer: "Hi there." });
    const first = spawns(await ws.args());
    expect(first).toHaveLength(2);
    expect(first[0]).toContain("--include-hook-events");
    expect(first[1]).not.toContain("--include-hook-events");
    if (!print) {
      // The refusing process read nothing; its replacement got each line once.
      const stdin = await ws.stdin();
      expect(stdin.filter((l) => l["type"] === "user")).toHaveLength(1);
      expect(stdin.filter((l) => l["type"] === "control_request")).toHaveLength(1);
    }

    // The probe learnt it too: the next process starts without the flag at once.
    expect(await cached(ws)).toMatchObject({ supportsHookEvents: false });
    expect(await runOnce(ws, { print })).toMatchObject({ ok: true, answer: "Hi there." });
    const all = spawns(await ws.args());
    expect(all).toHaveLength(3);
    expect(all[2]).not.toContain("--include-hook-events");
  });
});
