// The reliability suite's world: the fake Messages API, the fake Bot API, a workspace with a
// git project, a data directory and a real config file; `telecode` run in this process or as
// its own process (for locks, signals and crashes). Everything is removed after each test.
import { spawn, type ChildProcess } from "node:child_process";
import { statSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { main } from "../../src/cli/main.js";
import { capturedIo } from "../support/captured-io.js";
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../support/fake-anthropic/index.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";
import { seedDataDir } from "../support/claude-probe.js";
import { telecodeBin } from "../support/telecode-bin.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "../support/claude-workspace.js";
import { endKeepers, spawnedClaudePids } from "../telegram/bridge/rig.js";

export type World = {
  api: FakeAnthropic;
  tg: FakeBotApi;
  ws: ClaudeWorkspace;
  dataDir: string;
  configPath: string;
  /** Writes the config: a complete [telegram], [claude] with `claude` lines, the project, `extra` tables. */
  writeConfig(options?: { claude?: readonly string[]; extra?: readonly string[]; apiRoot?: string }): Promise<void>;
  /** Runs `telecode ARGS` in this process with `env` (default: the workspace's). */
  telecode(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }>;
  /** Runs `telecode run --cwd PROJECT --config FILE ARGS` in this process. */
  run(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<{ code: number; out: string; err: string }>;
  /** Runs `telecode ARGS` as its own process. */
  spawnTelecode(args: readonly string[], env?: NodeJS.ProcessEnv): TelecodeProcess;
};

export type TelecodeProcess = {
  child: ChildProcess;
  /** Resolves once the bridge polls ("running as @…" on stderr); rejects if it exits first. */
  started: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  stderr(): string;
  /**
   * Kills it with SIGKILL, and then what it left running (its keepers and their CLIs, and the
   * CLIs it spawned directly), as a crash of the whole machine would: its runs cannot go on.
   */
  crash(): Promise<void>;
};

export const USER_ID = 1001;

/** Call at module level; each test gets a fresh world from the returned function. */
export function useWorld(): (replies?: FakeReply[]) => Promise<World> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (replies = []) => {
    const api = await startFakeAnthropic({ replies });
    cleanups.push(() => api.close());
    const tg = await startFakeBotApi({ maxPollWaitMs: 500 });
    cleanups.push(() => tg.close());
    const ws = await makeClaudeWorkspace(api.url);
    cleanups.push(() => ws.cleanup());
    const dataDir = await mkdtemp(join(tmpdir(), "telecode-reliability-"));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true, maxRetries: 5 }));
    await seedDataDir(dataDir);
    const configPath = join(ws.root, "config.toml");
    const children: ChildProcess[] = [];
    cleanups.push(async () => {
      const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
      const gone = running.map((child) => new Promise((resolve) => child.once("close", resolve)));
      for (const child of running) child.kill("SIGKILL");
      await Promise.all(gone);
      // Kept runs outlive their telecode: their keepers and CLIs end here.
      await endKeepers(dataDir);
    });
    const world: World = {
      api,
      tg,
      ws,
      dataDir,
      configPath,
      async writeConfig(options = {}) {
        const lines = [
          "[telegram]",
          `bot_token = "${tg.token}"`,
          `allowed_user_ids = [${USER_ID}]`,
          `api_root = "${options.apiRoot ?? tg.apiRoot}"`,
          "[claude]",
          `path = ${JSON.stringify(realClaudePath)}`,
          ...(options.claude ?? ["use_api_billing = true"]),
          "[projects.app]",
          `path = ${JSON.stringify(ws.cwd)}`,
          "[state]",
          `dir = ${JSON.stringify(dataDir)}`,
          ...(options.extra ?? []),
          "",
        ];
        await writeFile(configPath, lines.join("\n"), { mode: 0o600 });
      },
      async telecode(args, env = ws.env) {
        const io = capturedIo(env);
        const code = await main([...args], io);
        return { code, out: io.out(), err: io.err() };
      },
      run(args, env) {
        return world.telecode(["run", "--cwd", ws.cwd, "--config", configPath, ...args], env);
      },
      spawnTelecode(args, env = ws.env) {
        // CLIs logged from here on are this process's.
        const logOffset = logSize(dataDir);
        const child = spawn(process.execPath, [telecodeBin, ...args], {
          env,
          stdio: ["ignore", "ignore", "pipe"],
        });
        children.push(child);
        let stderr = "";
        let markStarted: () => void = () => undefined;
        const running = new Promise<void>((resolve) => (markStarted = resolve));
        child.stderr?.setEncoding("utf8");
        child.stderr?.on("data", (chunk: string) => {
          stderr += chunk;
          if (stderr.includes("running as @")) markStarted();
        });
        const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) =>
          child.on("close", (code, signal) => resolve({ code, signal, stderr })),
        );
        const started = Promise.race([
          running,
          exited.then((e) => Promise.reject(new Error(`telecode exited before starting (${e.code}): ${e.stderr}`))),
        ]);
        started.catch(() => undefined); // a failure only for the test that waits for it
        return {
          child,
          started,
          exited,
          stderr: () => stderr,
          async crash() {
            child.kill("SIGKILL");
            await exited;
            await endKeepers(dataDir, { leaveFiles: true });
            for (const pid of await spawnedClaudePids(dataDir, logOffset)) {
              try {
                process.kill(-pid, "SIGKILL");
              } catch {
                // already gone
              }
            }
          },
        };
      },
    };
    return world;
  };
}

function logSize(dataDir: string): number {
  try {
    return statSync(join(dataDir, "logs", "telecode.log")).size;
  } catch {
    return 0;
  }
}
