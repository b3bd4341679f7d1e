// What probing the pinned CLI teaches (`--version`, `--help`), learnt by the real probe once per
// install of the binary and handed to each test's Telecode as the probe cache of its data
// directory: an install that has run Claude Code before has one. Each `--help` costs the CLI's
// whole start-up (~0.4 CPU-seconds), and before this some 150 tests each paid it beside the
// start they measured. Tests of the probe itself, and of doctor, start without it.
import { existsSync } from "node:fs";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createCliProbe } from "../../src/claude/index.js";
import { claudeProbeCacheFile } from "../../src/cli/data-dir.js";
import { realClaudePath } from "./claude-workspace.js";

/** Kept beside the stripped sources (ts-hooks.js): an upgrade of the CLI changes its identity, and it is asked again. */
const LEARNT = resolve(import.meta.dirname, "../../node_modules/.cache/telecode-probe/claude-cli.json");

let learning: Promise<boolean> | undefined;

/**
 * The real probe of the pinned CLI, answered from LEARNT when it knows this binary. False while
 * LEARNT holds nothing (the first probe failed, say timed out on a loaded machine): tests then
 * probe as before, and the next one tries again. A LEARNT that lacks this binary (its probe
 * failed after an upgrade) is handed on all the same and only costs each test its own probe.
 */
function learn(): Promise<boolean> {
  learning ??= (async () => {
    const home = await mkdtemp(join(tmpdir(), "telecode-probe-"));
    try {
      await createCliProbe({ cacheFile: LEARNT }).ask(realClaudePath, {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        HOME: home,
      });
      if (existsSync(LEARNT)) return true;
      learning = undefined;
      return false;
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  })();
  return learning;
}

/** Writes what the pinned CLI supports to `file` (a probe cache), when it is known; returns `file`. */
export async function seedProbeCache(file: string): Promise<string> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  if (await learn()) await copyFile(LEARNT, file);
  return file;
}

/** Seeds the probe cache of a Telecode data directory (state.dir). */
export async function seedDataDir(dataDir: string): Promise<void> {
  await seedProbeCache(claudeProbeCacheFile(dataDir));
}
