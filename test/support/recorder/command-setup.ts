// What `npm run fixtures` and `npm run drift` share: where they write, their option parsing
// (with the options both take: --cli, --slow, --only, --jobs, --help), and turning those
// options into the scenarios to play and the CLI to play them with.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliNotUsable, resolveCli, type ResolvedCli } from "./resolve-cli.js";
import type { Scenario } from "./scenario.js";
import { selectScenarios, UnknownScenario } from "./scenarios.js";

/** Where a command writes: the report (stdout) and progress and errors (stderr). */
export type CommandOutput = { print: (line: string) => void; log: (line: string) => void };

export const processOutput: CommandOutput = {
  print: (line) => void process.stdout.write(`${line}\n`),
  log: (line) => void process.stderr.write(`${line}\n`),
};

export const RECORDING_OPTIONS = {
  cli: { type: "string" },
  slow: { type: "boolean", default: false },
  only: { type: "string", default: "" },
  jobs: { type: "string", default: "2" },
  help: { type: "boolean", short: "h", default: false },
} as const;

/** The parsed options; undefined after saying what is wrong and printing the help. */
export function parseCommand<T extends ParseArgsConfig>(
  command: string,
  help: string,
  config: T,
  log: (line: string) => void,
): ReturnType<typeof parseArgs<T>>["values"] | undefined {
  try {
    return parseArgs(config).values;
  } catch (error) {
    log(`${command}: ${error instanceof Error ? error.message : String(error)}\n\n${help}`);
    return undefined;
  }
}

export type Recording = { scenarios: Scenario[]; cli: ResolvedCli; jobs: number };

/**
 * Checks --cli and --jobs, picks the scenarios and finds (or installs) the CLI. Undefined, after
 * saying why, when the options cannot work; the caller must `cli.cleanup()` otherwise.
 */
export async function prepareRecording(
  command: string,
  help: string,
  values: { cli?: string | undefined; slow: boolean; only: string; jobs: string },
  log: (line: string) => void,
): Promise<Recording | undefined> {
  const jobs = Number(values.jobs);
  if (values.cli === undefined || !Number.isInteger(jobs) || jobs < 1) {
    log(`${command}: --cli is required and --jobs must be a whole number ≥ 1.\n\n${help}`);
    return undefined;
  }
  try {
    const scenarios = selectScenarios({ slow: values.slow, only: values.only.split(",").filter((n) => n !== "") });
    return { scenarios, cli: await resolveCli(values.cli, log), jobs };
  } catch (error) {
    if (!(error instanceof UnknownScenario || error instanceof CliNotUsable)) throw error;
    log(`${command}: ${error.message}`);
    return undefined;
  }
}
