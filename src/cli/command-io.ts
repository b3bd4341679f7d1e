// What every command runs against: its output streams and environment, and the options most
// commands take. Its own module so the commands and the entry that dispatches to them do not
// import each other.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closestName } from "../domain/index.js";

export type CommandIo = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
};

const guarded = new WeakSet<NodeJS.WritableStream>();
const letGo = (): void => undefined;

/**
 * Keeps a command going when the reader of its output goes away (`telecode doctor | head -1`,
 * a `tee` that was killed): without a listener, the stream's error (EPIPE) crashes Node with a
 * stack trace. What is left to write has nowhere to go; the command finishes its work and exits
 * with its own code. The listeners stay for the process's life: a write's error may come after
 * the command has returned.
 */
export function outliveClosedOutput(io: CommandIo): void {
  for (const stream of [io.stdout, io.stderr]) {
    if (guarded.has(stream)) continue;
    guarded.add(stream);
    stream.on("error", letGo);
  }
}

/**
 * The options most commands take, `--config PATH` and `--help`: their values, or the exit code
 * once help (0) or a usage error and the help (2) were printed.
 */
export function parseConfigArgs(
  argv: string[],
  io: CommandIo,
  usage: { prefix: string; help: string },
): { config?: string | undefined } | number {
  let values: { config?: string | undefined; help?: boolean | undefined };
  try {
    values = parseCommandArgs({
      args: argv,
      strict: true,
      options: { config: { type: "string" }, help: { type: "boolean", short: "h" } },
    }).values;
  } catch (error) {
    io.stderr.write(`${usage.prefix}: ${error instanceof Error ? error.message : String(error)}\n\n${usage.help}`);
    return 2;
  }
  if (values.help === true) {
    io.stdout.write(usage.help);
    return 0;
  }
  return { config: values.config };
}

/**
 * Node's parseArgs, whose error for an unknown option names the one likely meant: "Unknown
 * option '--aprove': did you mean --approve?" (Node's own words when none is close).
 */
export function parseCommandArgs<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config);
  } catch (error) {
    const unknown = /^Unknown option '(-[^']*)'/.exec(error instanceof Error ? error.message : "")?.[1];
    const names = Object.keys(config.options ?? {}).map((name) => `--${name}`);
    const meant = unknown === undefined ? undefined : closestName(unknown, names);
    throw meant === undefined ? error : new Error(`Unknown option '${unknown}': did you mean ${meant}?`);
  }
}
