// Test harness for engine tests against the real CLI: fake API + fresh workspace + engine +
// an event collector with condition waits, and a check that no process of ours survives.
import { join } from "node:path";
import { expect } from "vitest";
import type { RunCompleted, TelecodeEvent } from "../../src/domain/index.js";
import { allowAllController, createClaudeEngine } from "../../src/claude/index.js";
import type { ClaudeEngine, SessionHandle, SessionController, SessionSpec } from "../../src/claude/index.js";
import { silentLogger, type Logger } from "../../src/ports/index.js";
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../support/fake-anthropic/index.js";
import { seedProbeCache } from "../support/claude-probe.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "../support/claude-workspace.js";
import { listProcesses } from "../support/processes.js";

export type Collector = {
  events: TelecodeEvent[];
  /** Resolves with the first event (from the start, or after `fromIndex`) that matches. */
  waitFor<T extends TelecodeEvent>(match: (e: TelecodeEvent) => e is T, fromIndex?: number): Promise<T>;
  waitFor(match: (e: TelecodeEvent) => boolean, fromIndex?: number): Promise<TelecodeEvent>;
  /** Resolves when the event stream ended (session closed). */
  ended: Promise<void>;
};

export function collect(session: SessionHandle, onEvent?: (e: TelecodeEvent) => void): Collector {
  const events: TelecodeEvent[] = [];
  const waiters: { match: (e: TelecodeEvent) => boolean; from: number; resolve: (e: TelecodeEvent) => void }[] = [];
  const ended = (async () => {
    for await (const e of session.events()) {
      events.push(e);
      onEvent?.(e);
      for (const w of [...waiters]) {
        if (events.length - 1 >= w.from && w.match(e)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(e);
        }
      }
    }
  })();
  return {
    events,
    ended,
    waitFor(match: (e: TelecodeEvent) => boolean, fromIndex = 0): Promise<TelecodeEvent> {
      const hit = events.slice(fromIndex).find(match);
      if (hit !== undefined) return Promise.resolve(hit);
      return new Promise((resolve) => waiters.push({ match, from: fromIndex, resolve }));
    },
  };
}

export const isRunCompleted = (e: TelecodeEvent): e is RunCompleted => e.type === "run_completed";

export type Harness = {
  api: FakeAnthropic;
  ws: ClaudeWorkspace;
  engine: ClaudeEngine;
  open(spec?: Partial<SessionSpec>, controller?: SessionController): { session: SessionHandle; events: Collector };
  /** Starts a run and resolves with its run_completed. */
  run(session: SessionHandle, events: Collector, prompt: string): Promise<RunCompleted>;
  /** Every pid any session had; checked for survivors at dispose. */
  pids: Set<number>;
  dispose(): Promise<void>;
};

export async function makeHarness(
  options: { replies?: FakeReply[]; env?: NodeJS.ProcessEnv; claudePath?: string } = {},
): Promise<Harness> {
  const api = await startFakeAnthropic({ replies: options.replies ?? [] });
  const ws = await makeClaudeWorkspace(api.url, options.env);
  const t0 = Date.now();
  const logger: Logger = {
    ...silentLogger,
    event: (name, fields = {}, level = "info") => {
      if (process.env["TELECODE_TEST_LOG"] === "1")
        console.log(Date.now() - t0, level, name, JSON.stringify({ ...fields, args: undefined }));
    },
  };
  const claudePath = options.claudePath ?? realClaudePath;
  const known =
    claudePath === realClaudePath ? { probeCacheFile: await seedProbeCache(join(ws.root, "claude-cli.json")) } : {};
  const engine = createClaudeEngine({ claudePath, env: ws.env, logger, ...known });
  const sessions: SessionHandle[] = [];
  const pids = new Set<number>();
  return {
    api,
    ws,
    engine,
    pids,
    open(spec = {}, controller = allowAllController()) {
      const session = engine.openSession(
        { cwd: ws.cwd, permissionMode: "default", useApiBilling: true, ...spec },
        controller,
      );
      sessions.push(session);
      const events = collect(session, () => {
        if (session.pid !== undefined) pids.add(session.pid);
      });
      return { session, events };
    },
    async run(session, events, prompt) {
      const from = events.events.length;
      const runId = await session.startRun(prompt);
      if (session.pid !== undefined) pids.add(session.pid);
      return events.waitFor((e): e is RunCompleted => e.type === "run_completed" && e.runId === runId, from);
    },
    async dispose() {
      for (const s of sessions) {
        if (s.pid !== undefined) pids.add(s.pid);
      }
      await Promise.all(sessions.map((s) => s.close()));
      await api.close();
      await ws.cleanup();
      for (const pid of pids) expect(processGroupAlive(pid), `process group ${pid} still alive`).toBe(false);
    },
  };
}

/**
 * True while a process of the group runs. On Linux, zombies do not count (an orphaned child
 * that PID 1 has not reaped yet is dead already); elsewhere, the signal-0 probe.
 */
export function processGroupAlive(pgid: number): boolean {
  if (process.platform === "linux")
    return listProcesses().some((p) => p.pgrp === pgid && p.state !== "Z" && p.state !== "X");
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
