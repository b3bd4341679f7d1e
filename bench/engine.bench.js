// bench/engine: the whole engine against a bare pipe + JSON.parse floor and against the Agent
// SDK's query(), all three fed by the same stand-in CLI replaying recorded stdout as fast as it
// can, in interleaved rounds, each variant in a process of its own (engine-one.js,
// engine-variants.js); line-to-event latency, from the stand-in's write and from the moment the
// stdout chunk reached the consumer; peak RSS under a slow consumer; our RSS with 50 live
// sessions; and one real CLI driven through N turns against a local fake API; then the first
// turn as a person meets it (bench/first-turn.js): `telecode run` against the bare CLI, and the
// bridge's start.
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { clearTimeout, setTimeout } from "node:timers";
import { fileURLToPath, URL } from "node:url";
import { allowAllController, createClaudeEngine } from "../dist/claude/index.js";
import { realCliEnv, startBenchApi } from "./engine-fake-api.js";
import { FIXTURES, LATENCY_LINES, openStandIn, prepareWork, REAL_CLI, rssMiB } from "./engine-variants.js";
import { measureBridgeStart, measureOneTurn } from "./first-turn.js";
import { median, percentile } from "./stand-in-stream.js";
import { scaled } from "./scale.js";
import { printTable } from "./table.js";

const ROUNDS = scaled(5, 1);
/** Latency rounds: each variant's p99 is a tail statistic, so more rounds than for throughput. */
const LATENCY_ROUNDS = scaled(9, 1);
const SESSIONS = scaled(50, 2);
const REAL_TURNS = scaled(20, 2);
const FIRST_TURN_ROUNDS = scaled(15, 1);
const BRIDGE_CHATS = scaled(11, 2);

const ratio = (x) => x.toFixed(2);
/** Per-round ratios (noise that hits a round hits both of its runs) as "median (min–max)". */
const roundByRound = (ratios) =>
  `${ratio(median(ratios))} (${ratio(Math.min(...ratios))}–${ratio(Math.max(...ratios))})`;

const { work, stream, script } = prepareWork();

/** The longest one measure may take (a throughput run takes seconds; a slow consumer's, a minute). */
const REPLY_TIMEOUT_S = scaled(300, 60);

/** A consumer in a process of its own (bench/engine-one.js), ready once it has warmed up. */
const oneRun = fileURLToPath(new URL("engine-one.js", import.meta.url));
async function consumerProcess(variant) {
  const child = fork(oneRun, [variant, work], {
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  // The child speaks only when asked (or once, when ready): one reply is awaited at a time, and
  // a stream that never reaches its end marker for one consumer fails the benchmark, not hangs it.
  let awaited;
  child.on("message", (reply) => awaited?.resolve(reply));
  child.on("exit", (code, signal) => awaited?.reject(new Error(`the ${variant} consumer exited (${code ?? signal})`)));
  const reply = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill();
        reject(new Error(`the ${variant} consumer did not finish in ${REPLY_TIMEOUT_S} s: did its stream end early?`));
      }, REPLY_TIMEOUT_S * 1000);
      const settle = (then) => (value) => (clearTimeout(timer), then(value));
      awaited = { resolve: settle(resolve), reject: settle(reject) };
    });
  await reply(); // "ready"
  return {
    measure: (kind) => (child.send(kind), reply()),
    close: () => new Promise((resolve) => (child.once("exit", resolve), child.disconnect())),
  };
}
const VARIANTS = ["floor", "engine", "sdk"];
// One after another: each writes the work dir's scripts as it starts.
const consumers = {};
for (const key of VARIANTS) consumers[key] = await consumerProcess(key);
/** `count` rounds of every variant; each round starts with another, so none always runs after the same one. */
async function rounds(count, kind) {
  const results = Object.fromEntries(VARIANTS.map((key) => [key, []]));
  for (let round = 0; round < count; round++)
    for (let i = 0; i < VARIANTS.length; i++) {
      const key = VARIANTS[(round + i) % VARIANTS.length];
      results[key].push(await consumers[key].measure(kind));
    }
  return results;
}

// ------------------------------------------------------------------ throughput

process.stdout.write(
  `stream: ${stream.lines.toLocaleString("en-US")} lines, ${(stream.bytes / (1024 * 1024)).toFixed(0)} MiB (recorded fixtures) replayed by a stand-in process; ${ROUNDS} interleaved rounds of floor, Telecode, Agent SDK, each variant in a process of its own; medians\n\n`,
);
const runs = await rounds(ROUNDS, "throughput");
const medianOf = (key) => Object.fromEntries(Object.entries(runs).map(([k, rs]) => [k, median(rs.map((r) => r[key]))]));
const seconds = medianOf("seconds");
const cpu = medianOf("cpuSeconds");
/** Floor seconds ÷ this variant's, round by round. */
const vsFloorByRound = (key) => roundByRound(runs[key].map((r, round) => runs.floor[round].seconds / r.seconds));
const throughputRow = (variant, key, vs) => ({
  variant,
  "lines/s": Math.round(stream.lines / seconds[key]).toLocaleString("en-US"),
  "MB/s": (stream.bytes / 1e6 / seconds[key]).toFixed(0),
  seconds: seconds[key].toFixed(2),
  "vs floor": vs,
  "vs floor, round by round: median (range)": key === "floor" ? "" : vsFloorByRound(key),
  "consumer CPU s": cpu[key].toFixed(2),
  "CPU: floor ÷ this": ratio(cpu.floor / cpu[key]),
});
printTable([
  throughputRow("(a) pipe + split + JSON.parse", "floor", "1.00"),
  throughputRow("(b) Telecode engine → events", "engine", `${ratio(seconds.floor / seconds.engine)} (goal ≥ 0.9)`),
  throughputRow("(c) Agent SDK query() → messages", "sdk", ratio(seconds.floor / seconds.sdk)),
]);
process.stdout.write(
  `items per run: Telecode ${runs.engine[0].events.toLocaleString("en-US")} events, SDK ${runs.sdk[0].events.toLocaleString("en-US")} messages; Telecode ÷ SDK throughput ${ratio(seconds.sdk / seconds.engine)}; round by round ${roundByRound(runs.engine.map((r, round) => runs.sdk[round].seconds / r.seconds))}\n\n`,
);

// ------------------------------------------------------------------ latency

const measured = await rounds(LATENCY_ROUNDS, "latency");
await Promise.all(Object.values(consumers).map((c) => c.close()));
const latency = Object.fromEntries(VARIANTS.map((key) => [key, measured[key].map((r) => r.written)]));
const inside = Object.fromEntries(VARIANTS.map((key) => [key, measured[key].map((r) => r.inside)]));
const p99 = (key) => median(latency[key].map((p) => p.p99));
/** The ratio of two variants' p99 within each round (noise that hits a round hits both), as median and range. */
const paired = (key, base) => roundByRound(latency[key].map((p, round) => p.p99 / latency[base][round].p99));
const latencyRow = (variant, key, goal = "") => ({
  variant,
  "lines × rounds": `${LATENCY_LINES - 100} × ${LATENCY_ROUNDS}`,
  "p50 ms": median(latency[key].map((p) => p.p50)).toFixed(3),
  "p99 ms (median of rounds)": p99(key).toFixed(3),
  "p99 ms (best round)": Math.min(...latency[key].map((p) => p.p99)).toFixed(3),
  "p99 vs floor": `${ratio(p99(key) / p99("floor"))}${goal}`,
  "p99 vs floor, round by round: median (range)": key === "floor" ? "" : paired(key, "floor"),
});
printTable([
  latencyRow("(a) pipe + JSON.parse", "floor"),
  latencyRow("(b) Telecode engine → event", "engine", " (goal ≤ 1.2)"),
  latencyRow("(c) Agent SDK query() → message", "sdk"),
]);
process.stdout.write(
  `Telecode ÷ SDK p99: ${ratio(p99("engine") / p99("sdk"))}; round by round ${paired("engine", "sdk")} (below 1 is better)\n\n`,
);
const us = (ms) => (ms * 1000).toFixed(1);
const insideOf = (key, p) => median(inside[key].map((r) => r[p]));
const insideRow = (variant, key) => ({
  "inside the consumer: stdout chunk → item": variant,
  "p50 µs": us(insideOf(key, "p50")),
  "p99 µs (median of rounds)": us(insideOf(key, "p99")),
  "p99 vs floor": ratio(insideOf(key, "p99") / insideOf("floor", "p99")),
  "p99 vs SDK": ratio(insideOf(key, "p99") / insideOf("sdk", "p99")),
});
printTable([
  insideRow("(a) pipe + JSON.parse", "floor"),
  insideRow("(b) Telecode engine → event", "engine"),
  insideRow("(c) Agent SDK query() → message", "sdk"),
]);
process.stdout.write("\n");

// ------------------------------------------------------------------ backpressure

/** Peak RSS in a fresh process: nothing of the rounds above is in its heap. */
async function slowRun(variant) {
  const consumer = await consumerProcess(variant);
  const result = await consumer.measure("slow");
  await consumer.close();
  return result;
}
const slow = { engine: await slowRun("engine"), sdk: await slowRun("sdk") };
const slowRow = (consumer, r, goal = "") => ({
  consumer,
  lines: stream.lines.toLocaleString("en-US"),
  "items seen": r.events.toLocaleString("en-US"),
  "RSS before MiB": r.before.toFixed(0),
  "peak RSS MiB": `${r.peak.toFixed(0)}${goal}`,
  seconds: r.seconds.toFixed(1),
});
printTable([
  slowRow("Telecode, a macrotask per event", slow.engine, " (goal < 150)"),
  slowRow("Agent SDK, a macrotask per message", slow.sdk),
]);
process.stdout.write(`Telecode ÷ SDK peak RSS: ${ratio(slow.engine.peak / slow.sdk.peak)} (below 1 is better)\n\n`);

// ------------------------------------------------------------------ 50 live sessions

globalThis.gc?.();
const idle = rssMiB();
const idleHeap = process.memoryUsage().heapUsed;
const turnScript = script("turn", [
  { awaitIn: { type: "user" } },
  { replay: join(FIXTURES, "c-control-bash-allow.stdout.jsonl") },
]);
const sessions = Array.from({ length: SESSIONS }, () => openStandIn(work, turnScript));
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
  env: realCliEnv(api, home, work),
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

// ------------------------------------------------------------------ the first turn

const one = await measureOneTurn(work, REAL_CLI, FIRST_TURN_ROUNDS);
const ms = (x) => `${x.toFixed(0)} ms`;
printTable([
  {
    "one turn, whole process (median)": `${FIRST_TURN_ROUNDS} interleaved rounds`,
    "telecode run": ms(one.telecode),
    "bare CLI, control mode": ms(one.bare),
    "telecode ÷ bare, median of rounds": `${ratio(one.ratio)} (goal ≤ 1.15)`,
    "to the answer: telecode / bare": `${ms(one.telecodeAnswer)} / ${ms(one.bareAnswer)} (${ratio(one.answerRatio)})`,
    "first run ever (probe beside)": ms(one.firstEver),
    "node -e 0": ms(one.node),
    "telecode --version": ms(one.version),
  },
]);
process.stdout.write("\n");
const bridge = await measureBridgeStart(work, BRIDGE_CHATS);
const bridgeRow = (measure, s, goal = "") => ({
  "Telegram message arrives →": measure,
  n: bridge.n,
  p50: `${ms(s.p50)}${goal}`,
  p90: ms(s.p90),
  "first message (probe)": ms(s.first),
});
printTable([
  bridgeRow("CLI process spawned", bridge.spawn, " (goal ≤ 30 ms)"),
  bridgeRow("CLI process spawned, bare grammY bot", bridge.bareSpawn),
  bridgeRow("progress message sent", bridge.progress),
  bridgeRow("first progress edit", bridge.edit),
]);
process.stdout.write(
  `Telecode ÷ a bare bot that only spawns the CLI, message → spawn: ${ratio(bridge.spawnRatio)}, median of rounds\n`,
);

rmSync(work, { recursive: true, force: true });
