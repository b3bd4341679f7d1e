// `npm run fixtures -- --cli PATH|VERSION`: records the scenarios with that CLI into
// test/golden/fixtures/claude-code-VERSION/ (or --out DIR), sanitised, then updates the tested
// version range Telecode ships (src/cli/doctor-tested-range.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import {
  parseCommand,
  prepareRecording,
  processOutput,
  RECORDING_OPTIONS,
  type CommandOutput,
} from "./command-setup.js";
import { recordScenarios } from "./record.js";
import { SANITISED_VALUES } from "./sanitise.js";
import type { Scenario } from "./scenario.js";
import { SCENARIOS } from "./scenarios.js";
import { FIXTURES_ROOT, updateTestedRange } from "./tested-range.js";

export const FIXTURES_HELP = `Usage: npm run fixtures -- --cli PATH|VERSION [options]

Drives a Claude Code CLI through the recorder's scenarios against the fake Messages API and
writes sanitised recordings to test/golden/fixtures/claude-code-VERSION/.

  --cli PATH|VERSION  a claude binary, or a version (or latest) to install from npm
  --slow              also record the scenarios that wait on the CLI's clock (minutes)
  --only A,B          record only these scenarios (slow or not)
  --out DIR           write there instead (nothing else is updated)
  --replace           overwrite recordings that already exist
  --jobs N            scenarios played at the same time (default 2)
  --update-range      only regenerate src/cli/doctor-tested-range.ts from the folders present
`;

/** The scenarios with recordings in `dir`, in the recorder's order. */
function recordedIn(dir: string): Scenario[] {
  const files = readdirSync(dir);
  return SCENARIOS.filter((s) => files.some((file) => file.startsWith(`${s.name}.`)));
}

/** The first line of every README this command writes. */
const readmeTitle = (version: string): string => `# Claude Code ${version} stream-json recordings`;

/** A README for a recorded folder: where it came from and what was normalised. */
function readme(version: string, scenarios: readonly Scenario[]): string {
  return [
    readmeTitle(version),
    "",
    "Recorded by `npm run fixtures` (test/support/recorder): the real CLI, offline, against the",
    "scripted fake Messages API on loopback, each scenario in a fresh git repository and HOME.",
    "Layout as in the 2.1.332 folder: NAME.stdout.jsonl, NAME.transcript.jsonl, NAME.api.jsonl,",
    "NAME.meta.json (earlier processes of a scenario as NAME.LABEL.*).",
    "",
    "## Normalised values",
    "",
    ...SANITISED_VALUES.map((rule) => `- ${rule}`),
    "",
    "## Scenarios",
    "",
    ...scenarios.map((s) => `- **${s.name}**${s.slow === true ? " (slow)" : ""}: ${s.description}`),
    "",
  ].join("\n");
}

export async function main(argv: string[], output: CommandOutput = processOutput): Promise<number> {
  const { print, log } = output;
  const values = parseCommand(
    "fixtures",
    FIXTURES_HELP,
    {
      args: argv,
      strict: true,
      options: {
        ...RECORDING_OPTIONS,
        out: { type: "string" },
        replace: { type: "boolean", default: false },
        "update-range": { type: "boolean", default: false },
      },
    },
    log,
  );
  if (values === undefined) return 2;
  if (values.help) {
    print(FIXTURES_HELP);
    return 0;
  }
  if (values["update-range"]) {
    log(`tested range: ${(await updateTestedRange()).join(", ")}`);
    return 0;
  }
  const recording = await prepareRecording("fixtures", FIXTURES_HELP, values, log);
  if (recording === undefined) return 2;
  const { scenarios, cli, jobs } = recording;
  try {
    const outDir = values.out === undefined ? join(FIXTURES_ROOT, `claude-code-${cli.version}`) : resolve(values.out);
    const existing = existsSync(outDir)
      ? scenarios.filter((s) => readdirSync(outDir).some((file) => file.startsWith(`${s.name}.`)))
      : [];
    if (existing.length > 0 && !values.replace) {
      log(
        `fixtures: ${outDir} already has recordings of ${existing.map((s) => s.name).join(", ")}. Pass --replace to overwrite them, or --out DIR to record elsewhere (and compare with npm run drift).`,
      );
      return 1;
    }
    log(`recording ${scenarios.length} scenarios with claude ${cli.version} (${cli.path}) into ${outDir}`);
    const outcomes = await recordScenarios(scenarios, {
      cliPath: cli.path,
      cliVersion: cli.version,
      outDir,
      jobs,
      log,
    });
    const recorded = scenarios.filter((s) => outcomes.some((o) => o.name === s.name && o.failure === undefined));
    // The folder's README describes every scenario it holds, those recorded before this run too;
    // one written by hand (the pinned version's, with what each recording shows) is left whole.
    const readmeFile = join(outDir, "README.md");
    if (existsSync(readmeFile) && !readFileSync(readmeFile, "utf8").startsWith(readmeTitle(cli.version)))
      log(
        `fixtures: ${readmeFile} was written by hand and is left as it is; describe ${recorded.map((s) => s.name).join(", ")} there.`,
      );
    else await writeFile(readmeFile, readme(cli.version, recordedIn(outDir)));
    if (values.out === undefined) log(`tested range: ${(await updateTestedRange()).join(", ")}`);
    const failed = outcomes.filter((o) => o.failure !== undefined);
    const seconds = outcomes.reduce((sum, o) => sum + o.seconds, 0);
    log(`${recorded.length} recorded, ${failed.length} failed (${seconds.toFixed(0)} s of scenarios).`);
    return failed.length === 0 ? 0 : 1;
  } finally {
    await cli.cleanup();
  }
}
