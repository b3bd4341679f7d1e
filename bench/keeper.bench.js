// bench/keeper: a CLI's stdout through a keeper (frame, number, log to disk, unix socket,
// client) against reading the CLI's pipe directly, both ending in JSON.parse per line. A
// stand-in CLI replays recorded stdout as fast as it can; rounds are interleaved in one
// process and medians reported. Also the latency a keeper adds per line (p50/p99), with the
// stand-in writing one timestamped line per millisecond. Timing starts when the run's first
// stdin line is written, so spawning (and the keeper's start) is not counted in either. The
// CPU seconds each pipeline spends (all its processes, from /proc on Linux) show what the
// keeper costs where cores are scarce. Last, the time a restart takes to get 10 kept runs live
// again (bench/keeper-reattach.js).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { createSystemClock } from "../dist/ports/index.js";
import { createLineDecoder } from "../dist/claude/index.js";
import { attachKeeper, startKeeper } from "../dist/keeper/index.js";
import { splitByteLines } from "./byte-lines.js";
import { keeperOptions, measureReattach } from "./keeper-reattach.js";
import {
  buildStreamFile,
  END,
  endLine,
  latencyPercentiles,
  latencyRow,
  median,
  STAND_IN,
  standInEnv as standInEnvIn,
  wall,
  writeScript as writeStandInScript,
} from "./stand-in-stream.js";
import { printTable } from "./table.js";

const TELECODE = fileURLToPath(new URL("../bin/telecode.js", import.meta.url));
const MIN_LINES = 100_000;
const ROUNDS = 5;
const LATENCY_LINES = 2000;
const MiB = 1024 * 1024;
/** The stand-in writes faster than any client reads: a log cap above the stream keeps every line for the client. */
const STREAM_CAP_BYTES = 1024 * MiB;

const work = mkdtempSync(join(tmpdir(), "telecode-bench-keeper-"));
const clock = createSystemClock();
const goLine = JSON.stringify({ type: "user", message: { role: "user", content: "go" } });
const writeScript = (name, steps) => writeStandInScript(work, name, steps);
const standInEnv = (script) => standInEnvIn(work, script);

/** CPU seconds a process has used so far (Linux /proc; NaN elsewhere). */
function cpuSecondsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

const ownCpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** Called with each parsed line; returns true at the end marker. */
function consumer(onText) {
  let count = 0;
  return {
    get count() {
      return count;
    },
    line(text) {
      const value = JSON.parse(text);
      count += 1;
      if (value.type !== "assistant") return false;
      const t = value.message.content[0]?.text;
      if (t === END) return true;
      if (onText !== undefined && typeof t === "string") onText(t);
      return false;
    },
  };
}

/** (a) The CLI's pipe read directly: split on "\n", JSON.parse each line. */
function runDirect(script, onText) {
  return new Promise((resolve) => {
    const child = spawn(STAND_IN, [], { env: standInEnv(script), stdio: ["pipe", "pipe", "inherit"] });
    const sink = consumer(onText);
    let start = 0;
    let ownCpu = 0;
    let done = false;
    const lines = splitByteLines((text) => {
      if (!done && sink.line(text)) {
        done = true;
        const seconds = (performance.now() - start) / 1000;
        const consumerCpu = ownCpuSeconds() - ownCpu;
        const cpu = consumerCpu + cpuSecondsOf(child.pid);
        child.stdin.end();
        child.once("close", () => resolve({ seconds, lines: sink.count, cpu, consumerCpu }));
      }
    });
    child.stdout.on("data", (chunk) => {
      if (!done) lines.push(chunk);
    });
    child.once("spawn", () => {
      start = performance.now();
      ownCpu = ownCpuSeconds();
      child.stdin.write(`${goLine}\n`);
    });
  });
}

let keeperCount = 0;

/** (b) The same stand-in under a keeper, read through its socket by the keeper client. */
async function runKept(script, onText, logCapBytes) {
  keeperCount += 1;
  const launcher = keeperOptions(work, TELECODE, clock);
  const { record } = await startKeeper(launcher, {
    keeperId: `bench-${keeperCount}`,
    ...(logCapBytes === undefined ? {} : { logCapBytes }),
    cli: { path: STAND_IN, args: [], cwd: work, env: standInEnv(script) },
  });
  const sink = consumer(onText);
  let finish;
  const finished = new Promise((resolve) => (finish = resolve));
  let done = false;
  const connection = await attachKeeper(record, {
    clientId: "bench",
    fence: 1,
    fromSeq: 0,
    clock,
    // As Telecode's kept transport decodes the lines.
    decode: createLineDecoder(),
    onLine(text, seq) {
      if (!done && sink.line(text)) {
        done = true;
        finish(seq);
      }
    },
  });
  const start = performance.now();
  const ownCpu = ownCpuSeconds();
  const keeperCpu = cpuSecondsOf(record.keeper.pid);
  await connection.write(goLine);
  const lastSeq = await finished;
  const seconds = (performance.now() - start) / 1000;
  const consumerCpu = ownCpuSeconds() - ownCpu;
  const cpu = consumerCpu + cpuSecondsOf(record.keeper.pid) - keeperCpu + cpuSecondsOf(record.cli.pid);
  const end = await connection.shutdown();
  connection.ack(end.kind === "exited" ? end.lastSeq : lastSeq);
  await connection.released;
  return { seconds, lines: sink.count, cpu, consumerCpu };
}

// ------------------------------------------------------------------ throughput

const stream = buildStreamFile(work, MIN_LINES);
const replayScript = writeScript("replay", [
  { awaitIn: { type: "user" } },
  { replay: stream.file, times: stream.times },
  { out: endLine },
  { awaitIn: { type: "user" } },
]);
process.stdout.write(
  `stream: ${stream.lines.toLocaleString("en-US")} lines, ${(stream.bytes / MiB).toFixed(0)} MiB (recorded fixtures ×${stream.times}) from a stand-in CLI; ${ROUNDS} interleaved rounds, medians\n\n`,
);

await runKept(writeScript("warm", [{ awaitIn: { type: "user" } }, { out: endLine }, { awaitIn: { type: "user" } }]));
const directRuns = [];
const keptRuns = [];
for (let round = 0; round < ROUNDS; round++) {
  globalThis.gc?.();
  directRuns.push(await runDirect(replayScript));
  globalThis.gc?.();
  keptRuns.push(await runKept(replayScript, undefined, STREAM_CAP_BYTES));
}
const directSeconds = median(directRuns.map((r) => r.seconds));
const keptSeconds = median(keptRuns.map((r) => r.seconds));
printTable([
  {
    variant: "(a) CLI pipe + split + JSON.parse",
    "lines/s": Math.round(stream.lines / directSeconds).toLocaleString("en-US"),
    "MB/s": (stream.bytes / 1e6 / directSeconds).toFixed(0),
    seconds: directSeconds.toFixed(2),
    "vs direct": "1.00",
    "CPU s, all processes": median(directRuns.map((r) => r.cpu)).toFixed(2),
    "CPU s, consumer": median(directRuns.map((r) => r.consumerCpu)).toFixed(2),
  },
  {
    variant: "(b) keeper: log + socket + client + JSON.parse",
    "lines/s": Math.round(stream.lines / keptSeconds).toLocaleString("en-US"),
    "MB/s": (stream.bytes / 1e6 / keptSeconds).toFixed(0),
    seconds: keptSeconds.toFixed(2),
    "vs direct": `${(directSeconds / keptSeconds).toFixed(2)} (goal ≥ 0.8)`,
    "CPU s, all processes": median(keptRuns.map((r) => r.cpu)).toFixed(2),
    "CPU s, consumer": median(keptRuns.map((r) => r.consumerCpu)).toFixed(2),
  },
]);
process.stdout.write(
  `lines per run: ${keptRuns[0].lines.toLocaleString("en-US")} (kept), ${directRuns[0].lines.toLocaleString("en-US")} (direct)\n\n`,
);

// ------------------------------------------------------------------ latency

const latencyScript = writeScript("latency", [
  { awaitIn: { type: "user" } },
  { timed: LATENCY_LINES, intervalMs: 1 },
  { out: endLine },
  { awaitIn: { type: "user" } },
]);
const directP = [];
const keptP = [];
for (let round = 0; round < ROUNDS; round++) {
  const direct = [];
  await runDirect(latencyScript, (text) => direct.push(wall() - Number(text.slice(2))));
  directP.push(latencyPercentiles(direct));
  const kept = [];
  await runKept(latencyScript, (text) => kept.push(wall() - Number(text.slice(2))));
  keptP.push(latencyPercentiles(kept));
}
printTable([
  latencyRow("(a) CLI pipe → line", LATENCY_LINES, directP),
  latencyRow("(b) keeper → line", LATENCY_LINES, keptP),
]);
const added = (key) => median(keptP.map((p) => p[key])) - median(directP.map((p) => p[key]));
process.stdout.write(`\nadded by the keeper: p50 ${added("p50").toFixed(3)} ms, p99 ${added("p99").toFixed(3)} ms\n`);

// ------------------------------------------------------------------ re-attach at start

const KEPT_RUNS = 10;
const reattach = await measureReattach({ work, telecodeBin: TELECODE, clock, writeScript, runs: KEPT_RUNS, rounds: 3 });
process.stdout.write(
  `\nre-attach: start to the first live event of each of ${KEPT_RUNS} kept runs (replayed through the engine, initialize sent again): median ${reattach.medianMs.toFixed(0)} ms (rounds: ${reattach.rounds.map((ms) => ms.toFixed(0)).join(", ")} ms; goal < 1000 ms)\n`,
);

rmSync(work, { recursive: true, force: true });
