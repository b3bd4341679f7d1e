// Copied by scripts/bundle.js to dist/bundle/run.js, which main.js imports for `telecode run`:
// loads the run bundle (run.cjs) with the V8 code cache made at build time (run.cache), so its
// code is not parsed again on every run. A cache V8 rejects (another Node) only costs the parse.
import { readFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath, URL } from "node:url";
import { Script } from "node:vm";

const file = fileURLToPath(new URL("./run.cjs", import.meta.url));
let cachedData;
try {
  cachedData = readFileSync(new URL("./run.cache", import.meta.url));
} catch {
  cachedData = undefined;
}
const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
const module = { exports: {} };
script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file));

export const { runRun } = module.exports;
