// Runs a TypeScript entry point of the test support code (the fixture recorder, the drift check)
// without a build step: Vite's module runner (a devDependency, through vitest) transpiles it on
// the fly. The entry exports main(argv) → exit code.
// Usage: node scripts/run-ts.js FILE.ts [ARGS…]
import { resolve } from "node:path";
import process from "node:process";
import { runnerImport } from "vite";

const [entry, ...args] = process.argv.slice(2);
if (entry === undefined) {
  process.stderr.write("Usage: node scripts/run-ts.js FILE.ts [ARGS…]\n");
  process.exit(2);
}
const { module } = await runnerImport(resolve(entry), { configFile: false, logLevel: "silent" });
process.exitCode = await module.main(args);
