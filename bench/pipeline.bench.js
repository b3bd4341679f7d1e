// bench/pipeline: the engine's own cost per line, with no process and no pipe. bench/engine's
// throughput is bounded by the machine (a second process, the kernel's pipe, wake-ups) and
// moves by ±10% from run to run on a shared machine; here an in-memory transport hands a
// Telecode session the recorded lines as strings, a chunk's worth per macrotask, and the baseline
// JSON.parses the same strings in the same batches. What is left between the two is what
// Telecode adds after decoding: decoder checks, translator, control requests, event delivery
// and the consumer's for-await. Interleaved rounds; the best round of each is the least disturbed.
import process from "node:process";
import { BATCH, parseRun as parseLines, pipelineLines, telecodeRun as telecodeLines } from "./pipeline-harness.js";
import { median } from "./stand-in-stream.js";
import { scaled } from "./scale.js";
import { printTable } from "./table.js";

const ROUNDS = scaled(11, 1);
const REPEAT = scaled(100, 1);

const lines = pipelineLines(REPEAT);
const telecodeRun = () => telecodeLines(lines);
const parseRun = () => parseLines(lines);

await telecodeRun(); // JIT
const runs = { parse: [], telecode: [] };
let events = 0;
for (let round = 0; round < ROUNDS; round++) {
  globalThis.gc?.();
  runs.parse.push((await parseRun()).ms);
  globalThis.gc?.();
  const run = await telecodeRun();
  runs.telecode.push(run.ms);
  events = run.events;
}
const best = (key) => Math.min(...runs[key]);
const perLine = (ms) => ((ms * 1000) / lines.length).toFixed(2);
const row = (variant, key) => ({
  variant,
  "best ms": best(key).toFixed(0),
  "median ms": median(runs[key]).toFixed(0),
  "µs per line (best)": perLine(best(key)),
  "÷ JSON.parse (best)": (best(key) / best("parse")).toFixed(2),
  "÷ JSON.parse (median)": (median(runs[key]) / median(runs.parse)).toFixed(2),
});
process.stdout.write(
  `${lines.length.toLocaleString("en-US")} recorded lines as strings, ${BATCH} per macrotask; ${ROUNDS} interleaved rounds; Telecode's ${events.toLocaleString("en-US")} events consumed with for-await\n\n`,
);
printTable([row("JSON.parse each line", "parse"), row("Telecode session → events", "telecode")]);
process.stdout.write(
  `Telecode adds ${perLine(best("telecode") - best("parse"))} µs per line after parsing (best rounds)\n`,
);
