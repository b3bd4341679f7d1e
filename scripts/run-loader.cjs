// Copied by scripts/bundle.js to dist/bundle/run-loader.cjs, which bin/telecode.js requires for
// `telecode run` (and dist/bundle/run.js re-exports to main.js): loads the run bundle (run.cjs)
// with the V8 code cache made at build time (run.cache), so its code is neither parsed nor
// compiled again on every run. A cache V8 rejects (another Node) only costs the compile.
"use strict";

const { readFileSync } = require("node:fs");
const Module = require("node:module");
const { join } = require("node:path");
const { Script } = require("node:vm");

const file = join(__dirname, "run.cjs");
let cachedData;
try {
  cachedData = readFileSync(join(__dirname, "run.cache"));
} catch {
  cachedData = undefined;
}
const script = new Script(Module.wrap(readFileSync(file, "utf8")), { filename: file, cachedData });
const loaded = { exports: {} };
script.runInThisContext()(loaded.exports, Module.createRequire(file), loaded, file, __dirname);

module.exports = { runRun: loaded.exports.runRun };
