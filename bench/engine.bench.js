// bench/engine: the whole engine (spawn → framer → decoder → translator → events) against a
// bare pipe + JSON.parse floor, with a stand-in CLI that replays recorded stdout as fast as it
// can; line-to-event latency; our RSS with 50 live sessions and under a slow consumer
// (backpressure); and one real CLI driven through N turns against a local fake API.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { setImmediate } from "node:timers";
import { fileURLToPath, URL } from "node:url";
import { allowAllController, createClaudeEngine } from "../dist/claude/index.js";
import { startBenchApi } from "./engine-fake-api.js";
import { splitByteLines } from "./byte-lines.js";
import { printTable } from "./table.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const FIXTURES = join(root, "test/golden/fixtures/claude-code-2.1.332");
const STAND_IN = join(root, "test/support/fake-claude/fake-claude.js");
const REAL_CLI = join(root, "node_modules/.bin/claude");
const MIN_LINES = 200_000;
const ROUNDS = 5;
const SESSIONS = 50;
const REAL_TURNS = 20;
const LATENCY_LINES = 2000;
const MiB = 1024 * 1024;
const END = "BENCH-END";

const work = mkdtempSync(join(tmpdir(), "telecode-bench-"));
const wall = () => performance.timeOrigin + performance.now();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const rssMiB = () => process.memoryUsage.rss() / MiB;
const endLine = JSON.stringify({
  type: "assistant",
  message: { id: "msg_end", type: "message", role: "assistant", content: [{ type: "text", text: END }] },
  parent_tool_use_id: null,
  session_id: "sess-bench",
});

// ------------------------------------------------------------------ the recorded stream

function buildStreamFile() {
  const files = readdirSync(FIXTURES)
    .filter((name) => name.endsWith(".stdout.jsonl") && !name.startsWith("r2-"))
    .sort();
  const once = files.map((name) => readFileSync(join(FIXTURES, name), "utf8").trimEnd()).join("\n");
  const linesOnce = once.split("\n").length;
  const times = Math.ceil(MIN_LINES / linesOnce);
  const file = join(work, "stream.jsonl");
  writeFileSync(file, `${once}\n`);
  return { file, times, lines: linesOnce * times + 1, bytes: (Buffer.byteLength(once) + 1) * times };
}

function writeScript(name, steps) {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify({ steps }));
  return file;
}

const standInEnv = (script) => ({ PATH: process.env.PATH, HOME: work, FAKE_CLAUDE_SCRIPT: script });
const openStandIn = (script) =>
  createClaudeEngine({ claudePath: STAND_IN, env: standInEnv(script) }).openSession(
    { cwd: work, permissionMode: "default", envAllow: ["FAKE_CLAUDE_SCRIPT"], idleMs: 0 },
    allowAllController(),
  );

// ------------------------------------------------------------------ (a) floor and (b) engine

/** The floor: spawn the stand-in, split its stdout on "\n", JSON.parse each line. */
function runFloor(script, onText) {
  return new Promise((resolve) => {
    const start = performance.now();
    const child = spawn(STAND_IN, [], { env: standInEnv(script), stdio: ["pipe", "pipe", "inherit"] });
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "go" } })}\n`);
    let count = 0;
    let done = false;
    const parse = (text) => {
      const value = JSON.parse(text);
      count += 1;
      if (value.type === "assistant") {
        const t = value.message.content[0]?.text;
        if (t === END) {
          done = true;
          const seconds = (performance.now() - start) / 1000;
          child.stdin.end();
          child.once("close", () => resolve({ seconds, lines: count }));
        } else if (onText !== undefined && typeof t === "string") onText(t);
      }
    };
    const lines = splitByteLines((text) => {
      if (!done) parse(text);
    });
    child.stdout.on("data", (chunk) => {
      if (!done) lines.push(chunk);
    });
  });
}

/** The engine: a session on the stand-in; consume events until the end marker. */
async function runEngine(script, options = {}) {
  const session = openStandIn(script);
  const start = performance.now();
  let events = 0;
  let peak = rssMiB();
  await session.startRun("go");
  for await (const event of session.events()) {
    events += 1;
    if (event.type === "text") {
      if (event.text === END) break;
      options.onText?.(event.text);
    }
    if (options.slow === true) {
      if ((events & 1023) === 0) peak = Math.max(peak, rssMiB());
      // A consumer slower than the stream: one event per turn of the event loop.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const seconds = (performance.now() - start) / 1000;
  await session.close();
  return { seconds, events, peak };
}

const stream = buildStreamFile();
const replayScript = writeScript("replay", [
  { awaitIn: { type: "user" } },
  { replay: stream.file, times: stream.times },
  { out: endLine },
]);
process.stdout.write(
  `stream: ${stream.lines.toLocaleString("en-US")} lines, ${(stream.bytes / MiB).toFixed(0)} MiB (recorded fixtures ×${stream.times}) replayed by a stand-in process; ${ROUNDS} interleaved rounds, medians\n\n`,
);

await runEngine(writeScript("warm", [{ awaitIn: { type: "user" } }, { out: endLine }])); // probe cache, JIT
const floorRuns = [];
const engineRuns = [];
for (let round = 0; round < ROUNDS; round++) {
  globalThis.gc?.();
  floorRuns.push(await runFloor(replayScript));
  globalThis.gc?.();
  engineRuns.push(await runEngine(replayScript));
}
const floorSeconds = median(floorRuns.map((r) => r.seconds));
const engineSeconds = median(engineRuns.map((r) => r.seconds));
printTable([
  {
    variant: "(a) pipe + split + JSON.parse",
    "lines/s": Math.round(stream.lines / floorSeconds).toLocaleString("en-US"),
    "MB/s": (stream.bytes / 1e6 / floorSeconds).toFixed(0),
    seconds: floorSeconds.toFixed(2),
    "vs floor": "1.00",
  },
  {
    variant: "(b) engine → events",
    "lines/s": Math.round(stream.lines / engineSeconds).toLocaleString("en-US"),
    "MB/s": (stream.bytes / 1e6 / engineSeconds).toFixed(0),
    seconds: engineSeconds.toFixed(2),
    "vs floor": `${(floorSeconds / engineSeconds).toFixed(2)} (goal ≥ 0.7)`,
  },
]);
process.stdout.write(`events per engine run: ${engineRuns[0].events.toLocaleString("en-US")}\n\n`);

// ------------------------------------------------------------------ latency

const latencyScript = writeScript("latency", [
  { awaitIn: { type: "user" } },
  { timed: LATENCY_LINES, intervalMs: 1 },
  { out: endLine },
]);
const floorP = [];
const engineP = [];
const pcts = (xs) => ({ p50: percentile(xs.slice(100), 50), p99: percentile(xs.slice(100), 99) });
for (let round = 0; round < ROUNDS; round++) {
  const floorLatency = [];
  await runFloor(latencyScript, (text) => floorLatency.push(wall() - Number(text.slice(2))));
  floorP.push(pcts(floorLatency));
  const engineLatency = [];
  await runEngine(latencyScript, { onText: (text) => engineLatency.push(wall() - Number(text.slice(2))) });
  engineP.push(pcts(engineLatency));
}
const latencyRow = (variant, ps) => ({
  variant,
  "lines × rounds": `${LATENCY_LINES - 100} × ${ROUNDS}`,
  "p50 ms": median(ps.map((p) => p.p50)).toFixed(3),
  "p99 ms (median of rounds)": median(ps.map((p) => p.p99)).toFixed(3),
  "p99 ms (best round)": Math.min(...ps.map((p) => p.p99)).toFixed(3),
});
printTable([latencyRow("(a) pipe + JSON.parse", floorP), latencyRow("(b) engine → event (goal p99 ≤ 0.2)", engineP)]);
process.stdout.write("\n");

// ------------------------------------------------------------------ backpressure

globalThis.gc?.();
const before = rssMiB();
const slow = await runEngine(replayScript, { slow: true });
printTable([
  {
    consumer: "awaits a macrotask per event",
    lines: stream.lines.toLocaleString("en-US"),
    events: slow.events.toLocaleString("en-US"),
    "RSS before MiB": before.toFixed(0),
    "peak RSS MiB": `${slow.peak.toFixed(0)} (goal < 150)`,
    seconds: slow.seconds.toFixed(1),
  },
]);
process.stdout.write("\n");

// ------------------------------------------------------------------ 50 live sessions

globalThis.gc?.();
const idle = rssMiB();
const idleHeap = process.memoryUsage().heapUsed;
const turnScript = writeScript("turn", [
  { awaitIn: { type: "user" } },
  { replay: join(FIXTURES, "c-control-bash-allow.stdout.jsonl") },
]);
const sessions = Array.from({ length: SESSIONS }, () => openStandIn(turnScript));
await Promise.all(
  sessions.map(async (session) => {
    const runId = await session.startRun("go");
    // Read with next() and no return(): leaving a for-await loop would close the session.
    const events = session.events()[Symbol.asyncIterator]();
    for (let r = await events.next(); r.done !== true; r = await events.next())
      if (r.value.type === "run_completed" && r.value.runId === runId) return;
  }),
);
globalThis.gc?.();
const live = rssMiB();
const liveHeap = process.memoryUsage().heapUsed;
const pids = sessions.filter((s) => s.pid !== undefined).length;
await Promise.all(sessions.map((s) => s.close()));
printTable([
  {
    sessions: SESSIONS,
    "live processes": pids,
    "RSS idle MiB": idle.toFixed(0),
    "RSS with sessions MiB": `${live.toFixed(0)} (goal < 300)`,
    "JS heap per session KiB": ((liveHeap - idleHeap) / 1024 / SESSIONS).toFixed(0),
  },
]);
process.stdout.write("\n");

// ------------------------------------------------------------------ the real CLI, N turns

const api = await startBenchApi();
const home = mkdtempSync(join(work, "home-"));
const project = mkdtempSync(join(work, "project-"));
const real = createClaudeEngine({
  claudePath: REAL_CLI,
  env: {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: work,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "bench-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  },
}).openSession({ cwd: project, permissionMode: "default", useApiBilling: true, idleMs: 0 }, allowAllController());
const turnMs = [];
const iterator = real.events()[Symbol.asyncIterator]();
let firstMs = 0;
for (let turn = 0; turn < REAL_TURNS; turn++) {
  const start = performance.now();
  const runId = await real.startRun(`Question ${turn}`);
  for (let r = await iterator.next(); r.done !== true; r = await iterator.next()) {
    if (r.value.type === "run_completed" && r.value.runId === runId) {
      if (!r.value.ok) throw new Error(`real CLI turn failed: ${r.value.error}`);
      break;
    }
  }
  if (turn === 0) firstMs = performance.now() - start;
  else turnMs.push(performance.now() - start);
}
const realPid = real.pid;
await real.close();
await api.close();
printTable([
  {
    "real CLI": `pid ${realPid}, one process`,
    turns: REAL_TURNS,
    "first turn ms (spawn)": firstMs.toFixed(0),
    "later turns p50 ms": median(turnMs).toFixed(0),
    "p99 ms": percentile(turnMs, 99).toFixed(0),
  },
]);

rmSync(work, { recursive: true, force: true });
