// bench/keeper: a CLI's stdout through a keeper (frame, number, log to disk, unix socket,
// client) against reading the CLI's pipe directly, both ending in JSON.parse per line. A
// stand-in CLI replays recorded stdout as fast as it can, once per turn; each round runs a
// session of a few turns each way, turn by turn alternately, and medians are reported. A
// keeper lives as long as its session, so its later turns are its steady state; a new keeper's
// first turn is reported too (V8 compiles the keeper's hot code during it). Also the latency a
// keeper adds per line (p50/p99), with the stand-in writing one timestamped line per
// millisecond. Timing starts when a turn's stdin line is written, so spawning (and the
// keeper's start) is not counted in either. The CPU seconds each pipeline spends (all its
// processes, from /proc on Linux) show what the keeper costs where cores are scarce. Last, the
// time a restart takes to get 10 kept runs live again (bench/keeper-reattach.js).
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
  sinceWritten,
  writeScript as writeStandInScript,
} from "./stand-in-stream.js";
import { scaled } from "./scale.js";
import { printTable } from "./table.js";

const TELECODE = fileURLToPath(new URL("../bin/telecode.js", import.meta.url));
const MIN_LINES = scaled(100_000, 2000);
const ROUNDS = scaled(5, 1);
/** Turns per session in the throughput rounds: the first, then the steady state. */
const TURNS = scaled(3, 2);
const LATENCY_LINES = scaled(2000, 300);
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

/**
 * Turns of one session: each writes the go line and ends at the end marker. Timing starts when
 * the turn's stdin line is written; CPU is the consumer's (this process) plus `otherCpu()`, the
 * session's other processes.
 */
function turns({ write, otherCpu, onText }) {
  let current;
  return {
    /** Feeds a line of stdout to the turn in flight. */
    line(text, seq) {
      if (current !== undefined && current.sink.line(text)) {
        const turn = current;
        current = undefined;
        turn.finish(seq);
      }
    },
    turn() {
      return new Promise((resolve) => {
        const sink = consumer(onText);
        const start = performance.now();
        const ownCpu = ownCpuSeconds();
        const others = otherCpu();
        current = {
          sink,
          finish(lastSeq) {
            const seconds = (performance.now() - start) / 1000;
            const consumerCpu = ownCpuSeconds() - ownCpu;
            resolve({ seconds, lines: sink.count, consumerCpu, cpu: consumerCpu + otherCpu() - others, lastSeq });
          },
        };
        write(goLine);
      });
    },
  };
}

/** (a) The CLI's pipe read directly: split on "\n", JSON.parse each line. */
function openDirect(script, onText) {
  const child = spawn(STAND_IN, [], { env: standInEnv(script), stdio: ["pipe", "pipe", "inherit"] });
  const session = turns({
    write: (line) => child.stdin.write(`${line}\n`),
    otherCpu: () => cpuSecondsOf(child.pid),
    onText,
  });
  const lines = splitByteLines((text) => session.line(text, 0));
  child.stdout.on("data", (chunk) => lines.push(chunk));
  const spawned = new Promise((resolve) => child.once("spawn", resolve));
  const closed = new Promise((resolve) => child.once("close", resolve));
  return {
    turn: () => spawned.then(() => session.turn()),
    close() {
      child.stdin.end();
      return closed;
    },
  };
}

let keeperCount = 0;

/** (b) The same stand-in under a keeper, read through its socket by the keeper client (acked after each turn, as Telecode acks a finished run). */
async function openKept(script, onText) {
  keeperCount += 1;
  const { record } = await startKeeper(keeperOptions(work, TELECODE, clock), {
    keeperId: `bench-${keeperCount}`,
    logCapBytes: STREAM_CAP_BYTES,
    cli: { path: STAND_IN, args: [], cwd: work, env: standInEnv(script) },
  });
  let connection;
  const session = turns({
    write: (line) => void connection.write(line),
    otherCpu: () => cpuSecondsOf(record.keeper.pid) + cpuSecondsOf(record.cli.pid),
    onText,
  });
  connection = await attachKeeper(record, {
    clientId: "bench",
    fence: 1,
    fromSeq: 0,
    clock,
    // As Telecode's kept transport decodes the lines.
    decode: createLineDecoder(),
    onLine: (text, seq) => session.line(text, seq),
  });
  let lastSeq = 0;
  return {
    async turn() {
      const result = await session.turn();
      lastSeq = result.lastSeq;
      connection.ack(lastSeq);
      return result;
    },
    async close() {
      const end = await connection.shutdown();
      connection.ack(end.kind === "exited" ? end.lastSeq : lastSeq);
      await connection.released;
    },
  };
}

/** One turn of a new session of `open`'s kind. */
async function oneTurn(open, script, onText) {
  const session = await open(script, onText);
  const result = await session.turn();
  await session.close();
  return result;
}

// ------------------------------------------------------------------ throughput

const stream = buildStreamFile(work, MIN_LINES);
/** A session of `count` turns, each replaying the whole stream. */
const replayScript = (count) =>
  writeScript(`replay-${count}`, [
    ...Array.from({ length: count }, () => [
      { awaitIn: { type: "user" } },
      { replay: stream.file, times: stream.times },
      { out: endLine },
    ]).flat(),
    { awaitIn: { type: "user" } },
  ]);
process.stdout.write(
  `stream: ${stream.lines.toLocaleString("en-US")} lines, ${(stream.bytes / MiB).toFixed(0)} MiB (recorded fixtures ×${stream.times}) from a stand-in CLI, once per turn; ${ROUNDS} interleaved rounds of a session each way (${TURNS} turns), medians\n\n`,
);

await oneTurn(
  openKept,
  writeScript("warm", [{ awaitIn: { type: "user" } }, { out: endLine }, { awaitIn: { type: "user" } }]),
);
const script = replayScript(TURNS);
const first = { direct: [], kept: [] };
const later = { direct: [], kept: [] };
for (let round = 0; round < ROUNDS; round++) {
  const direct = openDirect(script);
  const kept = await openKept(script);
  // Turn by turn, alternating: both processes stay up, the idle one waiting on its stdin.
  for (let turn = 0; turn < TURNS; turn++) {
    for (const [key, session] of [
      ["direct", direct],
      ["kept", kept],
    ]) {
      globalThis.gc?.();
      (turn === 0 ? first : later)[key].push(await session.turn());
    }
  }
  await direct.close();
  await kept.close();
}
const throughputRow = (variant, runs, baseline, goal = "") => {
  const seconds = median(runs.map((r) => r.seconds));
  return {
    variant,
    "lines/s": Math.round(stream.lines / seconds).toLocaleString("en-US"),
    "MB/s": (stream.bytes / 1e6 / seconds).toFixed(0),
    seconds: seconds.toFixed(2),
    "vs direct": `${(median(baseline.map((r) => r.seconds)) / seconds).toFixed(2)}${goal}`,
    "CPU s, all processes": median(runs.map((r) => r.cpu)).toFixed(2),
    "CPU s, consumer": median(runs.map((r) => r.consumerCpu)).toFixed(2),
  };
};
printTable([
  throughputRow("(a) CLI pipe + split + JSON.parse, later turns", later.direct, later.direct),
  throughputRow("(b) keeper: log + socket + client, later turns", later.kept, later.direct, " (goal ≥ 0.8)"),
  throughputRow("(a) CLI pipe, a new process's first turn", first.direct, first.direct),
  throughputRow("(b) keeper, a new keeper's first turn", first.kept, first.direct),
]);
process.stdout.write(
  `lines per turn: ${later.kept[0].lines.toLocaleString("en-US")} (kept), ${later.direct[0].lines.toLocaleString("en-US")} (direct); a keeper lives as long as its session, so its later turns are the steady state (a new keeper's first turn also compiles its hot code)\n\n`,
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
  await oneTurn(openDirect, latencyScript, (text) => direct.push(sinceWritten(text)));
  directP.push(latencyPercentiles(direct));
  const kept = [];
  await oneTurn(openKept, latencyScript, (text) => kept.push(sinceWritten(text)));
  keptP.push(latencyPercentiles(kept));
}
printTable([
  latencyRow("(a) CLI pipe → line", LATENCY_LINES, directP),
  latencyRow("(b) keeper → line", LATENCY_LINES, keptP),
]);
const added = (key) => median(keptP.map((p) => p[key])) - median(directP.map((p) => p[key]));
process.stdout.write(`\nadded by the keeper: p50 ${added("p50").toFixed(3)} ms, p99 ${added("p99").toFixed(3)} ms\n`);

// ------------------------------------------------------------------ re-attach at start

const KEPT_RUNS = scaled(10, 2);
const reattach = await measureReattach({
  work,
  telecodeBin: TELECODE,
  clock,
  writeScript,
  runs: KEPT_RUNS,
  rounds: scaled(3, 1),
});
process.stdout.write(
  `\nre-attach: start to the first live event of each of ${KEPT_RUNS} kept runs (replayed through the engine, initialize sent again): median ${reattach.medianMs.toFixed(0)} ms (rounds: ${reattach.rounds.map((ms) => ms.toFixed(0)).join(", ")} ms; goal < 1000 ms)\n`,
);

rmSync(work, { recursive: true, force: true });
