#!/usr/bin/env node
// Entry point, CommonJS (bin/package.json) so Node starts no ES module loader for `telecode run`:
// that command loads its own bundle at once, with V8's code cache, and spawns Claude Code
// sooner. Every other command goes through the composition root. Both are built into
// dist/bundle/ by `npm run build`.
"use strict";

const argv = process.argv.slice(2);
const exit = (code) => {
  process.exitCode = code;
};
if (argv[0] === "run") {
  const io = { stdout: process.stdout, stderr: process.stderr, env: process.env };
  require("../dist/bundle/run-loader.cjs").runRun(argv.slice(1), io).then(exit);
} else {
  import("../dist/bundle/main.js").then(({ main }) => main(argv)).then(exit);
}
