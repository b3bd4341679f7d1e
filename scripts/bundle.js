// Bundles the compiled CLI (dist/cli/main.js) into dist/bundle/, the entry bin/telecode.js loads:
// a few files instead of ~290 modules, so `telecode run` reaches the CLI's spawn sooner. Each
// subcommand stays its own lazily loaded chunk. Run by `npm run build` after tsc.
// better-sqlite3 (a native addon) and pino (its transports load files by path) stay external.
import { rmSync } from "node:fs";
import { fileURLToPath, URL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("..", import.meta.url));
// dist/bundle/ sits two levels below the package, like dist/cli/: the paths the code builds from
// import.meta.url (package.json, bin/telecode.js) resolve the same from either.
const outdir = `${root}dist/bundle`;

/**
 * Zod's classic API re-exports every locale's messages (half of its code), and the config's
 * messages are all its own: the bundle keeps English, the one locale zod installs.
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

rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { main: `${root}dist/cli/main.js` },
  outdir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: ["better-sqlite3", "pino"],
  plugins: [englishOnly],
  // CommonJS dependencies (grammY's fetch, debug) call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __telecodeRequire } from "node:module";\nconst require = __telecodeRequire(import.meta.url);',
  },
  logLevel: "warning",
});
