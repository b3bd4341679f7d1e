// Records scenarios with one CLI into a folder: plays them (a few at a time), sanitises them
// and writes their files. A scenario that could not be played as written is reported and its
// files go to a temp dir instead, so a folder never holds a half recording.
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { playScenario } from "./play.js";
import { recordingFiles } from "./recording-files.js";
import type { Scenario } from "./scenario.js";

export type ScenarioOutcome = { name: string; seconds: number; failure?: string; files: string[] };

export type RecordOptions = {
  cliPath: string;
  cliVersion: string;
  outDir: string;
  /** Scenarios played at the same time (they mostly wait on the CLI). */
  jobs: number;
  log: (line: string) => void;
};

async function recordOne(scenario: Scenario, options: RecordOptions): Promise<ScenarioOutcome> {
  const start = performance.now();
  const played = await playScenario(options.cliPath, scenario);
  const seconds = (performance.now() - start) / 1000;
  const files = recordingFiles(played, options.cliVersion);
  if (played.failure !== undefined) {
    // Kept aside for a look, never among the recordings.
    const aside = await mkdtemp(join(tmpdir(), `telecode-failed-${scenario.name}-`));
    for (const [file, content] of files) await writeFile(join(aside, file), content);
    options.log(`✗ ${scenario.name} (${seconds.toFixed(1)} s): ${played.failure} (what it printed: ${aside})`);
    return { name: scenario.name, seconds, failure: played.failure, files: [] };
  }
  for (const [file, content] of files) await writeFile(join(options.outDir, file), content);
  options.log(`✓ ${scenario.name} (${seconds.toFixed(1)} s)`);
  return { name: scenario.name, seconds, files: [...files.keys()] };
}

/** Records `scenarios` in order of their names' position, `jobs` at a time; resolves when all are done. */
export async function recordScenarios(
  scenarios: readonly Scenario[],
  options: RecordOptions,
): Promise<ScenarioOutcome[]> {
  await mkdir(options.outDir, { recursive: true });
  const outcomes: ScenarioOutcome[] = new Array<ScenarioOutcome>(scenarios.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < scenarios.length) {
      const index = next++;
      outcomes[index] = await recordOne(scenarios[index] as Scenario, options);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(options.jobs, scenarios.length)) }, worker));
  return outcomes;
}
