// `telecode replay FILE [--json]`: streams a recorded Claude Code stdout (.stdout.jsonl, or a
// .transcript.jsonl whose "out" lines it uses) through the engine's recording reader and
// prints the events. Reads the file in chunks; never holds it whole.
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { createRecordingReader, type RecordingReader } from "../claude/index.js";
import { ioErrorWords, type TelecodeEvent } from "../domain/index.js";
import { renderTerminalLine, TurnSteps } from "../render/index.js";
import { outliveClosedOutput, type CommandIo } from "./command-io.js";

const HELP = `Usage: telecode replay FILE [--json] [--time-zone ZONE]

Prints the events Telecode reads from a recorded Claude Code stream.

FILE is a Claude Code stdout recording (one JSON object per line, .stdout.jsonl) or a
transcript (.transcript.jsonl: {"dir","line","ms"} objects; the "out" lines are used).

Options:
  --json             one event per line as JSON (the public event format, docs/events.md)
  --time-zone ZONE   IANA time zone for clock times in notes (default UTC)
  -h, --help         show this help`;

type ReplayArgs = { file: string; json: boolean; timeZone: string };

function parseArgs(argv: readonly string[]): ReplayArgs | { error: string } | "help" {
  let file: string | undefined;
  let json = false;
  let timeZone = "UTC";
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "-h" || arg === "--help") return "help";
    if (arg === "--json") json = true;
    else if (arg === "--time-zone" || arg.startsWith("--time-zone=")) {
      const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[++i];
      if (value === undefined || value === "")
        return { error: "--time-zone needs a zone name, e.g. --time-zone Europe/Berlin" };
      timeZone = value;
    } else if (arg.startsWith("-") && arg !== "-") return { error: `unknown option ${arg}` };
    else if (file === undefined) file = arg;
    else return { error: `unexpected argument ${arg}; replay reads one file` };
  }
  if (file === undefined) return { error: "missing FILE" };
  return { file, json, timeZone };
}

/** Runs the command; returns the exit code (0 ok, 1 unreadable file, 2 bad usage). */
export async function runReplay(argv: readonly string[], io: CommandIo): Promise<number> {
  outliveClosedOutput(io);
  const args = parseArgs(argv);
  if (args === "help") {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  if ("error" in args) {
    io.stderr.write(`telecode replay: ${args.error}.\n${HELP}\n`);
    return 2;
  }
  let reader: RecordingReader;
  try {
    reader = createRecordingReader({ timeZone: args.timeZone });
  } catch {
    io.stderr.write(
      `telecode replay: unknown time zone "${args.timeZone}"; use an IANA name such as UTC or Europe/Berlin.\n`,
    );
    return 2;
  }
  let handle: FileHandle;
  try {
    handle = await open(args.file, "r");
  } catch (error) {
    io.stderr.write(
      `telecode replay: cannot read ${args.file} (${ioErrorWords(error)}); check the path and permissions.\n`,
    );
    return 1;
  }
  let stoppedEarly: boolean;
  try {
    stoppedEarly = await replayStream(handle, reader, args.json, io.stdout);
  } catch (error) {
    // The output cannot be written: nothing more is. A reader that went away (`telecode replay
    // FILE | head`) is not a failure; a full disk is, and main says so (outliveClosedOutput).
    if (error instanceof OutputClosedError) return 0;
    io.stderr.write(
      `telecode replay: reading ${args.file} failed (${ioErrorWords(error)}); check that it is a readable file.\n`,
    );
    return 1;
  } finally {
    await handle.close();
  }
  const { read, unreadable, unknownTypes } = reader.lines;
  if (read > 0 && unreadable === read) {
    const lines = stoppedEarly ? `first ${read} lines` : read === 1 ? "1 line" : `${read} lines`;
    io.stderr.write(
      `telecode replay: ${args.file} is not a Claude Code recording: none of its ${lines} is a stream-json event. ` +
        "Replay reads what `claude -p --output-format stream-json --verbose` prints, or a Telecode transcript.\n",
    );
    return 1;
  }
  if (unknownTypes.size > 0) io.stderr.write(`telecode replay: ${unknownTypesWords(unknownTypes)}\n`);
  return 0;
}

/** What replay says of the lines of types Telecode does not know, which it left out as a live session does. */
function unknownTypesWords(types: ReadonlyMap<string, number>): string {
  const counts = [...types].map(([type, lines]) => `"${type}" ×${lines}`).join(", ");
  const total = [...types.values()].reduce((sum, lines) => sum + lines, 0);
  return (
    `left out ${total === 1 ? "1 line" : `${total} lines`} of a type this Telecode does not know (${counts}), ` +
    "as a live session leaves them out of the chat: most likely a newer Claude Code's."
  );
}

/** Lines read, none of them Claude Code's, after which a file is taken for no recording. */
const NO_RECORDING_AFTER_LINES = 20;

/**
 * Prints the recording's events; true when it stopped early, the file being no recording. Until
 * a line is Claude Code's, the warnings for those that are not are held: a file that is no
 * recording (a binary, say) gets one verdict, not a warning a line.
 */
async function replayStream(
  handle: FileHandle,
  reader: RecordingReader,
  json: boolean,
  out: NodeJS.WritableStream,
): Promise<boolean> {
  const steps = new TurnSteps();
  let held: string[] | undefined = [];
  const print = async (events: readonly TelecodeEvent[]): Promise<void> => {
    const texts = events.flatMap((event) => {
      steps.observe(event);
      const text = json ? JSON.stringify(event) : renderTerminalLine(event, { steps: steps.count });
      return text === undefined ? [] : [text];
    });
    let shown = texts;
    if (held !== undefined) {
      held.push(...texts);
      if (reader.lines.read === reader.lines.unreadable) return;
      shown = held;
      held = undefined;
    }
    if (shown.length > 0) await write(out, `${shown.join("\n")}\n`);
  };
  for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 256 * 1024 })) {
    await print(reader.push(chunk as Buffer));
    if (held !== undefined && reader.lines.read >= NO_RECORDING_AFTER_LINES) return true;
  }
  await print(reader.end());
  // Whatever is still held was said of a file with no line of Claude Code's: the verdict says it all.
  return false;
}

/** Thrown when the output stream cannot be written (its reader quit, or its disk is full). */
class OutputClosedError extends Error {
  readonly code = "replay.output_closed";
}

function write(out: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(text, (error) => {
      if (!error) resolve();
      else reject(new OutputClosedError("output closed", { cause: error }));
    });
  });
}
