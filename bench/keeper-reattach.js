// bench/keeper (part): the time from a restarted Telecode's start to the first live event of
// each of N runs kept across it. N runs are started under keepers (the engine with the kept
// launcher, as `telecode` runs them) and let go of (as /restart does); their stand-in CLIs
// go on writing a line every 20 ms. The "restart" then does what a start does for
// kept runs: find the keepers on disk, attach with a higher fence, replay each run's lines
// through the engine (adoptSession: translator, a fresh initialize), until each run's first
// line printed after the re-attach reaches its consumer. Telegram and SQLite are left out.
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { createClaudeEngine, createCliProbe, allowAllController } from "../dist/claude/index.js";
import { createKeptLauncher } from "../dist/cli/compose/kept-launcher.js";
import { findKeepers, keeperCommand, keeperLaunchPlan } from "../dist/keeper/index.js";
import { silentLogger } from "../dist/ports/index.js";
import { median, STAND_IN, standInEnv } from "./stand-in-stream.js";

/** Lines each run printed before the restart (replayed at re-attach). */
const BACKLOG_LINES = 200;

/** How the benches start keepers: plain child processes (no systemd scope), under `work`. */
export function keeperOptions(work, telecodeBin, clock) {
  return {
    command: keeperCommand(telecodeBin),
    plan: keeperLaunchPlan({
      platform: process.platform,
      systemdUnit: null,
      userManager: false,
      systemdRun: null,
      busReachable: false,
    }),
    keepersDir: join(work, "keepers"),
    runtimeDir: undefined,
    env: { PATH: process.env.PATH, HOME: work },
    telecodeVersion: "bench",
    clock,
  };
}

function keptLauncher(work, telecodeBin, clock, fence) {
  const probe = createCliProbe();
  return createKeptLauncher({
    keeper: keeperOptions(work, telecodeBin, clock),
    fence,
    clientId: `bench-${fence}`,
    probe: (command, env) => probe.ask(command, env),
    logger: silentLogger,
    // Re-attach is measured, not starts: no keeper is started ahead of need.
    warmDelayMs: null,
  });
}

/** Milliseconds from the restart's start to the last of `runs` runs' first live event (median of `rounds`), and each round's. */
export async function measureReattach({ work, telecodeBin, clock, writeScript, runs, rounds }) {
  const script = writeScript("kept-run", [
    { awaitIn: { type: "user" } },
    { timed: BACKLOG_LINES, intervalMs: 0 },
    { timed: 1_000_000, intervalMs: 20 },
  ]);
  const env = standInEnv(work, script);
  const spec = { cwd: work, permissionMode: "default", envAllow: ["FAKE_CLAUDE_SCRIPT"], idleMs: 0 };
  const results = [];
  let fence = 0;
  for (let round = 0; round < rounds; round++) {
    fence += 1;
    const first = createClaudeEngine({
      claudePath: STAND_IN,
      env,
      launcher: keptLauncher(work, telecodeBin, clock, fence),
    });
    const handles = [];
    for (let i = 0; i < runs; i++) {
      const handle = first.openSession(spec, allowAllController);
      const events = handle.events()[Symbol.asyncIterator]();
      const runId = await handle.startRun([{ type: "text", text: "go" }]);
      // The run is under way once its lines pass its backlog.
      while (handle.lastLineSeq < BACKLOG_LINES) await events.next();
      // Its events are read on, as the session layer does (a handle lets go once its lines are processed).
      void (async () => {
        while (!(await events.next()).done);
      })();
      handles.push({ handle, runId, place: handle.keptRun });
    }
    for (const { handle } of handles) await handle.detach();

    // The restart.
    fence += 1;
    const start = performance.now();
    const launcher = keptLauncher(work, telecodeBin, clock, fence);
    const engine = createClaudeEngine({ claudePath: STAND_IN, env, launcher });
    const byKeeper = new Map(handles.map((h) => [h.place.keptId, h]));
    // Earlier rounds' keepers may still be winding down: only this round's runs are taken in.
    const found = (await findKeepers(join(work, "keepers"))).filter(
      (k) => k.kind === "running" && byKeeper.has(k.record.keeperId),
    );
    const adopted = await Promise.all(
      found.map(async ({ record }) => {
        const kept = byKeeper.get(record.keeperId);
        const { transport, welcome } = await launcher.reattach(record, kept.place.startSeq);
        const { handle } = engine.adoptSession(spec, allowAllController, {
          transport,
          run: { id: kept.runId, startedAtMs: Date.now(), startSeq: kept.place.startSeq },
          backlogThroughSeq: welcome.lastSeq,
          seenThroughSeq: kept.handle.lastLineSeq,
        });
        const events = handle.events()[Symbol.asyncIterator]();
        // The event that carried a line printed after the re-attach: the run is live again.
        while (handle.lastLineSeq <= welcome.lastSeq) await events.next();
        void (async () => {
          while (!(await events.next()).done);
        })();
        return handle;
      }),
    );
    results.push(performance.now() - start);
    // As Telecode does once it recorded a run's end: the keeper may then remove its files and exit.
    for (const handle of adopted) {
      await handle.close();
      handle.acknowledgeLines(Number.MAX_SAFE_INTEGER);
    }
  }
  return { medianMs: median(results), rounds: results };
}
