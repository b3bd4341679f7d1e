// bench/instructions: the engine's cost per line counted in instructions, which a shared
// machine's load does not move (wall times here move by ±15% from one minute to the next).
// bench/pipeline's two variants, JSON.parse alone and a Telecode session read with for-await,
// each run under valgrind's callgrind with V8 single-threaded and predictable, 5 and then 9
// times in a row in one process; the difference is what runs 6 to 9 cost, once V8 has optimised
// even the functions a line type calls rarely. Repeats within about 1 %. Skipped without valgrind.
import { spawn, spawnSync } from "node:child_process";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { scaled, smoke } from "./scale.js";
import { printTable } from "./table.js";

/** Copies of the recorded stream per run: 12,181 lines. */
const REPEAT = scaled(20, 1);
const WARM_RUNS = 5;
const MEASURED_RUNS = 4;
const one = fileURLToPath(new URL("pipeline-one.js", import.meta.url));

if (smoke) {
  // Under callgrind a node process takes ~10 CPU seconds to start: a smoke run runs the harness
  // callgrind would run (both variants, one run each) with plain node, and is done.
  for (const variant of ["parse", "telecode"]) {
    const run = spawnSync(process.execPath, [one, variant, "1", String(REPEAT)], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`bench/pipeline-one.js ${variant} failed:\n${run.stderr.slice(-2000)}`);
  }
  process.stdout.write("smoke run: both variants ran once without callgrind; counting skipped\n");
  process.exit(0);
}
if (spawnSync("valgrind", ["--version"]).status !== 0) {
  process.stdout.write("valgrind not found: skipped (apt install valgrind)\n");
  process.exit(0);
}

/** Instructions the whole process executed running `variant` `runs` times, and the lines of one run. */
function instructions(variant, runs) {
  const args = ["--tool=callgrind", "--callgrind-out-file=/dev/null", process.execPath, "--single-threaded"];
  const child = spawn("valgrind", [...args, "--predictable", one, variant, String(runs), String(REPEAT)]);
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on("close", (code) => {
      const collected = /Collected : (\d+)/.exec(stderr);
      if (code !== 0 || collected === null)
        reject(new Error(`callgrind of ${variant} × ${runs} failed:\n${stderr.slice(-2000)}`));
      else resolve({ total: Number(collected[1]), lines: Number(stdout.trim()) });
    });
  });
}

/** Instructions per line of the measured runs (the counts do not depend on timing: all four run at once). */
const [parseWarm, parseAll, telecodeWarm, telecodeAll] = await Promise.all([
  instructions("parse", WARM_RUNS),
  instructions("parse", WARM_RUNS + MEASURED_RUNS),
  instructions("telecode", WARM_RUNS),
  instructions("telecode", WARM_RUNS + MEASURED_RUNS),
]);
const perLine = (warm, all) => (all.total - warm.total) / (MEASURED_RUNS * all.lines);
const parse = perLine(parseWarm, parseAll);
const telecode = perLine(telecodeWarm, telecodeAll);
const k = (n) => `${(n / 1000).toFixed(1)}k`;
process.stdout.write(
  `${parseAll.lines.toLocaleString("en-US")} recorded lines as strings a run, 20 per macrotask; instructions per line of runs ${WARM_RUNS + 1}–${WARM_RUNS + MEASURED_RUNS} (callgrind; node --single-threaded --predictable)\n\n`,
);
printTable([
  { variant: "JSON.parse each line", "instructions per line": k(parse), "÷ JSON.parse": "1.00" },
  {
    variant: "Telecode session → events",
    "instructions per line": k(telecode),
    "÷ JSON.parse": (telecode / parse).toFixed(3),
  },
]);
process.stdout.write(`Telecode adds ${k(telecode - parse)} instructions per line after parsing\n`);
