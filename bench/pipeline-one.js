// One variant of bench/pipeline run `runs` times in a row in this process, with no GC forced
// between (so the code settles as in a process that has been reading a while):
//   node bench/pipeline-one.js <parse|telecode> <runs> <repeat>
// bench/instructions runs it under callgrind and compares instruction counts.
import process from "node:process";
import { parseRun, pipelineLines, telecodeRun } from "./pipeline-harness.js";

const [variant, runs, repeat] = process.argv.slice(2);
const run = { parse: parseRun, telecode: telecodeRun }[variant];
if (run === undefined || !(Number(runs) >= 0) || !(Number(repeat) >= 1))
  throw new Error("usage: node bench/pipeline-one.js <parse|telecode> <runs> <repeat>");
const lines = pipelineLines(Number(repeat));
for (let i = 0; i < Number(runs); i++) await run(lines);
process.stdout.write(`${lines.length}\n`);
