// Bundles the compiled CLI (dist/cli/main.js) into dist/bundle/, the entry bin/telecode.js loads:
// a few files instead of ~290 modules, so `telecode run` reaches the CLI's spawn sooner. Each
// subcommand stays its own lazily loaded chunk. Run by `npm run build` after tsc.
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { fileURLToPath, URL } from "node:url";
import { Script } from "node:vm";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
// dist/bundle/ sits two levels below the package, like dist/cli/: the paths the code builds from
// import.meta.url (package.json, bin/telecode.js) resolve the same from either.
const outdir = `${root}dist/bundle`;

/**
 * Zod re-exports every locale's messages (half of classic zod's code); Telecode's messages are
 * its own, and the rest English: the bundle keeps only English, the locale zod installs.
 */
const englishOnly = {
  name: "zod-english-only",
  setup(plugin) {
    plugin.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: `${root}node_modules/zod/v4/locales`,
    }));
  },
};

/**
 * `telecode run` is bundled on its own: shared chunks hold every file any command reaches through
 * a folder's index.ts, so in the main bundle it would load the scheduler, the media pipeline and
 * picomatch before spawning the CLI. bin/telecode.js requires dist/bundle/run-loader.cjs
 * (scripts/run-loader.cjs), which loads the run bundle (run.cjs) with its code cache (run.cache).
 */
const runApart = {
  name: "run-apart",
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\/run\.js$/ }, (args) =>
      args.importer === `${root}dist/cli/main.js` ? { path: "./run.js", external: true } : undefined,
    );
  },
};

/**
 * Telecode's own modules have no side effects when imported (no module state: DESIGN.md), so a
 * file none of whose exports a command uses is left out of its chunks, even when it sits behind
 * a folder's index.ts or builds a constant at load (\`telecode run\` then loads no markdown-it).
 */
const ownCodeIsPure = {
  name: "own-code-is-pure",
  setup(plugin) {
    plugin.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData === "own-code-is-pure") return undefined;
      const { path, errors } = await plugin.resolve(args.path, {
        resolveDir: args.resolveDir,
        kind: args.kind,
        importer: args.importer,
        pluginData: "own-code-is-pure",
      });
      if (errors.length > 0 || !path.startsWith(`${root}dist/`)) return undefined;
      return { path, sideEffects: false };
    });
  },
};

const common = {
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  // A native addon, and a logger whose transports load files by path.
  external: ["better-sqlite3", "pino"],
  // CommonJS dependencies (grammY's fetch, debug) call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __telecodeRequire } from "node:module";\nconst require = __telecodeRequire(import.meta.url);',
  },
  logLevel: "warning",
};

rmSync(outdir, { recursive: true, force: true });
await build({
  ...common,
  entryPoints: { main: `${root}dist/cli/main.js` },
  plugins: [runApart, englishOnly, ownCodeIsPure],
});
// One CommonJS file, so V8 can cache its compiled code (Node 20 caches no ES module's): its lazy
// imports (the view, the decision driver) stay lazy, run only when reached.
const runBundle = `${outdir}/run.cjs`;
await build({
  ...common,
  entryPoints: [`${root}dist/cli/run.js`],
  outdir: undefined,
  outfile: runBundle,
  splitting: false,
  format: "cjs",
  banner: undefined,
  plugins: [englishOnly, ownCodeIsPure],
});
// What makes `telecode run` slower to start must not creep in unnoticed: an import of a folder's
// whole index (a dynamic import keeps all of it) once brought markdown-it and the Telegram
// renderers in, half again the bundle's size.
const runCode = readFileSync(runBundle, "utf8");
// (better-sqlite3 is external: the bundle would require it by name.)
for (const unwanted of ["node_modules/markdown-it/", "node_modules/grammy/", 'require("better-sqlite3")'])
  if (runCode.includes(unwanted)) throw new Error(`the telecode run bundle includes ${unwanted}: it must not`);
// The cache holds what V8 compiled while the bundle's top level ran (its modules have no side
// effects, so running it here does nothing else). Caching the code of a whole turn as well (a
// run against a stand-in CLI at build time) was measured: it saved no time.
const script = new Script(Module.wrap(runCode), { filename: runBundle });
const loaded = { exports: {} };
script.runInThisContext()(loaded.exports, createRequire(runBundle), loaded, runBundle, outdir);
writeFileSync(`${outdir}/run.cache`, script.createCachedData());
copyFileSync(`${root}scripts/run-loader.cjs`, `${outdir}/run-loader.cjs`);
// main.js reaches `telecode run` through this (bin/telecode.js requires the loader directly).
writeFileSync(
  `${outdir}/run.js`,
  'import { createRequire } from "node:module";\nexport const { runRun } = createRequire(import.meta.url)("./run-loader.cjs");\n',
);
