// `npm run drift -- --cli PATH|VERSION`: records the scenarios with that CLI into a temp dir and
// compares their event shapes with the pinned version's fixtures: message kinds, fields and
// their JSON types, control subtypes, system/init tools, and lines Telecode cannot decode.
// Exits 1 when a line cannot be decoded or a scenario could not be played, 0 otherwise
// (--strict: 1 on any drift), 2 on bad usage.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  parseCommand,
  prepareRecording,
  processOutput,
  RECORDING_OPTIONS,
  type CommandOutput,
} from "./command-setup.js";
import { recordScenarios } from "./record.js";
import { addRecording, compareShapes, emptyShapes, formatDrift, hasDrift, type Shapes } from "./shapes.js";
import { FIXTURES_ROOT } from "./tested-range.js";

export const DRIFT_HELP = `Usage: npm run drift -- --cli PATH|VERSION [options]

Records the fixture scenarios with that Claude Code CLI (in a temp dir) and compares the event
shapes with the pinned version's fixtures: what is new, gone or changed, and every line
Telecode cannot decode. Exits 1 if a line cannot be decoded or a scenario could not be played.

  --cli PATH|VERSION  a claude binary (e.g. $(which claude)), or a version to install from npm
  --against VERSION   the recorded version to compare with (default: the pinned one)
  --slow              also play the scenarios that wait on the CLI's clock (minutes)
  --only A,B          play only these scenarios
  --jobs N            scenarios played at the same time (default 2)
  --keep              keep the new recordings and print where they are
  --strict            exit 1 on any drift, not only on what cannot be decoded
`;

function pinnedVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  return pkg.devDependencies["@anthropic-ai/claude-code"] ?? "";
}

/** Shapes of the stdout recordings of `scenarios` in `dir` (every run's file: NAME.*stdout.jsonl). */
export function shapesOf(dir: string, scenarios: readonly string[]): Shapes {
  const shapes = emptyShapes();
  for (const file of readdirSync(dir).sort()) {
    const scenario = file.split(".")[0] ?? "";
    if (file.endsWith(".stdout.jsonl") && scenarios.includes(scenario))
      addRecording(shapes, scenario, readFileSync(join(dir, file), "utf8"));
  }
  return shapes;
}

export async function main(argv: string[], output: CommandOutput = processOutput): Promise<number> {
  const { print, log } = output;
  const values = parseCommand(
    "drift",
    DRIFT_HELP,
    {
      args: argv,
      strict: true,
      options: {
        ...RECORDING_OPTIONS,
        against: { type: "string", default: pinnedVersion() },
        keep: { type: "boolean", default: false },
        strict: { type: "boolean", default: false },
      },
    },
    log,
  );
  if (values === undefined) return 2;
  if (values.help) {
    print(DRIFT_HELP);
    return 0;
  }
  const baseDir = join(FIXTURES_ROOT, `claude-code-${values.against}`);
  if (!existsSync(baseDir)) {
    log(`drift: no recordings of ${values.against} in ${FIXTURES_ROOT}; pass --against with a recorded version.`);
    return 2;
  }
  const recording = await prepareRecording("drift", DRIFT_HELP, values, log);
  if (recording === undefined) return 2;
  const { scenarios, cli, jobs } = recording;
  const outDir = await mkdtemp(join(tmpdir(), "telecode-drift-"));
  try {
    const baseNames = new Set(readdirSync(baseDir).map((file) => file.split(".")[0] ?? ""));
    const compared = scenarios.filter((s) => baseNames.has(s.name));
    log(`recording ${compared.length} scenarios with claude ${cli.version} into ${outDir}`);
    const outcomes = await recordScenarios(compared, { cliPath: cli.path, cliVersion: cli.version, outDir, jobs, log });
    const played = outcomes.filter((o) => o.failure === undefined).map((o) => o.name);
    const failed = outcomes.filter((o) => o.failure !== undefined);
    const drift = compareShapes(shapesOf(baseDir, played), shapesOf(outDir, played));
    print(`Drift check: Claude Code ${cli.version} against the ${values.against} fixtures, ${played.length} scenarios`);
    for (const line of formatDrift(drift)) print(`  ${line}`);
    for (const o of failed) print(`  NOT PLAYED ${o.name}: ${o.failure ?? ""}`);
    if (!hasDrift(drift)) print("  no drift: the same message kinds, fields, control subtypes and init tools");
    print(
      drift.problems.length === 0
        ? "Every line decodes."
        : `${drift.problems.length} line(s) Telecode cannot decode: teach src/wire/decode.ts the new shape, then record fixtures for this version (npm run fixtures).`,
    );
    if (failed.length > 0)
      print(`${failed.length} scenario(s) could not be played as written: the CLI behaves differently; see above.`);
    if (values.keep) print(`Recordings kept in ${outDir}`);
    const failing = drift.problems.length > 0 || failed.length > 0 || (values.strict && hasDrift(drift));
    return failing ? 1 : 0;
  } finally {
    if (!values.keep) await rm(outDir, { recursive: true, force: true });
    await cli.cleanup();
  }
}
