// What every command runs against: its output streams and environment, and the options most
// commands take. Its own module so the commands and the entry that dispatches to them do not
// import each other.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { closestName, ioErrorWords } from "../domain/index.js";

export type CommandIo = {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
};

/** The first write error of each output stream outliveClosedOutput watches. */
const writeErrors = new WeakMap<NodeJS.WritableStream, unknown>();

/**
 * Keeps a command going when its output cannot be written: without a listener, the stream's
 * error crashes Node with a stack trace. A reader that went away (`telecode doctor | head -1`,
 * EPIPE) is not a failure: what is left to write has nowhere to go, and the command exits with
 * its own code. Any other error (a full disk) lost output, which `takeLostOutput` then names. The
 * listeners stay for the process's life: a write's error may come after the command returned.
 */
export function outliveClosedOutput(io: CommandIo): void {
  for (const stream of [io.stdout, io.stderr]) {
    if (writeErrors.has(stream)) continue;
    writeErrors.set(stream, undefined);
    stream.on("error", (error: unknown) => {
      // Only the first error counts (null: it was reported).
      if (writeErrors.get(stream) === undefined) writeErrors.set(stream, error);
    });
  }
}

/** Whether a write failed because the reader went away (`| head`), which loses nothing anyone wants. */
function isReaderGone(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "EPIPE";
}

/**
 * Why output was lost, in words, when a write to `stream` failed other than by its reader
 * leaving; once told, it is forgotten, so it is said once.
 */
export function takeLostOutput(stream: NodeJS.WritableStream): string | undefined {
  const error = writeErrors.get(stream);
  if (error === undefined || isReaderGone(error)) return undefined;
  writeErrors.set(stream, null);
  return ioErrorWords(error);
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
