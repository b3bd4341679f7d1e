// Runs every benchmark in bench/ (files named *.bench.js, in name order), each in its own
// `node --expose-gc` process so memory figures do not mix, and stops at the first failure.
// Benchmarks import the built code from dist/: `npm run bench` builds first.
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";

const here = fileURLToPath(new URL(".", import.meta.url));
const only = process.argv.slice(2);
const benches = readdirSync(here)
  .filter((name) => name.endsWith(".bench.js"))
  .filter((name) => only.length === 0 || only.some((word) => name.includes(word)))
  .sort();

if (benches.length === 0) {
  process.stderr.write(`No benchmarks matched in ${here}; files must be named NAME.bench.js.\n`);
  process.exit(1);
}
for (const name of benches) {
  process.stdout.write(`\n## ${name.replace(/\.bench\.js$/, "")}\n\n`);
  const run = spawnSync(process.execPath, ["--expose-gc", join(here, name)], { stdio: "inherit" });
  if (run.status !== 0) {
    process.stderr.write(`Benchmark ${name} failed (exit ${run.status ?? run.signal}).\n`);
    process.exit(1);
  }
}
