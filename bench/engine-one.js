// One bench/engine consumer in a process of its own, as in real use, for all of its runs:
//   fork("bench/engine-one.js", [<floor|engine|sdk>, <work dir>]), then send it
//   "throughput", "latency" or "slow" and receive each result as a message.
// In one process shared by all three variants the SDK's runs left heap and JIT state behind
// that slowed whichever run came next (Telecode measured 0.85–0.90 of the floor with the SDK's
// runs between, 0.92–1.00 without), and the floor's latency suffered from the others' heaps.
// The process first consumes a tenth of the stream, so each measured run finds its code
// optimized, as in a bridge that has been running a while.
import { EventEmitter } from "node:events";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { LATENCY_LINES, endLine, prepareWork, rssMiB, runEngine, runFloor, runSdk } from "./engine-variants.js";
import { scaled } from "./scale.js";
import { latencyPercentiles, sinceWritten } from "./stand-in-stream.js";

const [variant, dir] = process.argv.slice(2);
const { work, script, replayScript, warmScript } = prepareWork(dir);

/** The variant as one function: (script, { onText, slow }) → { seconds, cpuSeconds, events, peak }. */
const consumers = {
  floor: (file, options = {}) => runFloor(work, file, options.onText),
  engine: (file, options) => runEngine(work, file, options),
  sdk: (file, options) => runSdk(work, file, options),
};
const consume = consumers[variant];
if (consume === undefined) throw new Error(`unknown variant "${variant}": floor, engine or sdk`);

/** From the stand-in's write, and from the newest stdout chunk's `data` event, to the consumer's item. */
async function latency() {
  const file = script("latency", [
    { awaitIn: { type: "user" } },
    { timed: LATENCY_LINES, intervalMs: 1 },
    { out: endLine },
  ]);
  const written = [];
  const inside = [];
  let chunkAt = 0;
  // Every EventEmitter's emit is wrapped, so the stdout stream each consumer reads from is timed
  // however it is built; only this process's one consumer emits `data` here.
  const emit = EventEmitter.prototype.emit;
  EventEmitter.prototype.emit = function (name) {
    if (name === "data") chunkAt = performance.now();
    return Reflect.apply(emit, this, arguments);
  };
  await consume(file, {
    onText: (text) => {
      inside.push(performance.now() - chunkAt);
      written.push(sinceWritten(text));
    },
  });
  EventEmitter.prototype.emit = emit;
  return { written: latencyPercentiles(written), inside: latencyPercentiles(inside) };
}

/**
 * Unmeasured latency runs before the first measured one. A consumer's first latency runs after
 * its throughput runs still deoptimise and re-optimise the path of a chunk with one line (and
 * now and then meet a full GC): per-line stamps showed 1–8 ms stalls in the first three or four,
 * in Telecode's process and the SDK's alike, then 0–2 a run. A process in use has settled.
 */
const LATENCY_WARM_RUNS = scaled(3, 0);
let latencyWarmRuns = 0;

const measures = {
  throughput: () => {
    globalThis.gc?.();
    return consume(replayScript, {});
  },
  // No full GC before a latency run: it throws away optimised code whose embedded objects (the
  // last session's closures, maps of shapes no live object has) died, so every run would
  // re-optimise as it is timed, on background threads contending for the 2 cores with the
  // stand-in. A process in use is warm; its rare full GCs do not come before every message.
  latency: async () => {
    for (; latencyWarmRuns < LATENCY_WARM_RUNS; latencyWarmRuns++) await latency();
    return latency();
  },
  slow: async () => {
    globalThis.gc?.();
    const before = rssMiB();
    return { ...(await consume(replayScript, { slow: true })), before };
  },
};

await consume(warmScript, {});
process.on("message", async (measure) => {
  if (measures[measure] === undefined) throw new Error(`unknown measure "${measure}": throughput, latency or slow`);
  process.send(await measures[measure]());
});
process.send("ready");
