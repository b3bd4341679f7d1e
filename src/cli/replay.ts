// `telecode replay FILE [--json]`: streams a recorded Claude Code stdout (.stdout.jsonl, or a
// .transcript.jsonl whose "out" lines it uses) through the framer, decoder and translator and
// prints the events. Reads the file in chunks; never holds it whole.
import { open } from "node:fs/promises";
import type { FileHandle } from "node:fs/promises";
import { createTranslator } from "../claude/translator.js";
import type { Translator } from "../claude/translator.js";
import type { TelecodeEvent } from "../domain/index.js";
import { renderTerminalLine } from "../render/index.js";
import { decodeLine, LineFramer, oversizedLineProblem } from "../wire/index.js";
import type { WireDecodeProblem, WireMessage } from "../wire/index.js";
import type { CommandIo } from "./command-io.js";

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
  const args = parseArgs(argv);
  if (args === "help") {
    io.stdout.write(`${HELP}\n`);
    return 0;
  }
  if ("error" in args) {
    io.stderr.write(`telecode replay: ${args.error}.\n${HELP}\n`);
    return 2;
  }
  let translator: Translator;
  try {
    translator = createTranslator({ timeZone: args.timeZone });
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
      `telecode replay: cannot read ${args.file} (${describeFsError(error)}); check the path and permissions.\n`,
    );
    return 1;
  }
  // Write errors arrive through write callbacks; without a listener the stream's 'error'
  // event (EPIPE when the reader quits) would crash the process.
  const ignoreStreamError = (): void => undefined;
  io.stdout.on("error", ignoreStreamError);
  try {
    await replayStream(handle, translator, args.json, io.stdout);
  } catch (error) {
    // The reader went away (`telecode replay FILE | head`): not a failure.
    if (error instanceof OutputClosedError) return 0;
    io.stderr.write(
      `telecode replay: reading ${args.file} failed (${describeFsError(error)}); check that it is a readable file.\n`,
    );
    return 1;
  } finally {
    io.stdout.off("error", ignoreStreamError);
    await handle.close();
  }
  return 0;
}

function describeFsError(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return typeof code === "string" ? code : error instanceof Error ? error.message : String(error);
}

async function replayStream(
  handle: FileHandle,
  translator: Translator,
  json: boolean,
  out: NodeJS.WritableStream,
): Promise<void> {
  let pending: string[] = [];
  const emit = (events: readonly TelecodeEvent[]): void => {
    for (const event of events) {
      const text = json ? JSON.stringify(event) : renderTerminalLine(event);
      if (text !== undefined) pending.push(text);
    }
  };
  const push = (message: WireMessage | WireDecodeProblem): void => emit(translator.push(message));
  let mode: "unknown" | "stdout" | "transcript" = "unknown";
  const onLine = (line: string): void => {
    if (mode === "unknown") mode = isTranscriptLine(line) ? "transcript" : "stdout";
    if (mode === "stdout") push(decodeLine(line));
    else pushTranscriptLine(line, push);
  };
  const framer = new LineFramer({ onLine, onOversizedLine: (report) => push(oversizedLineProblem(report)) });
  for await (const chunk of handle.createReadStream({ autoClose: false, highWaterMark: 256 * 1024 })) {
    framer.push(chunk as Buffer);
    if (pending.length > 0) {
      await write(out, `${pending.join("\n")}\n`);
      pending = [];
    }
  }
  framer.end();
  emit(translator.end());
  if (pending.length > 0) await write(out, `${pending.join("\n")}\n`);
}

/** A transcript line is an object with "dir" and no "type" (the CLI's lines always have one). */
function isTranscriptLine(line: string): boolean {
  try {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === "object" && parsed !== null && "dir" in parsed && !("type" in parsed);
  } catch {
    return false;
  }
}

function pushTranscriptLine(line: string, push: (message: WireMessage | WireDecodeProblem) => void): void {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    push({ kind: "decode_problem", reason: "transcript line is not JSON", line: line.slice(0, 4096) });
    return;
  }
  if (typeof entry !== "object" || entry === null) {
    push({ kind: "decode_problem", reason: "transcript line is not an object", line: line.slice(0, 4096) });
    return;
  }
  const { dir, line: text } = entry as { dir?: unknown; line?: unknown };
  if (dir !== "out") return;
  if (typeof text !== "string") {
    push({ kind: "decode_problem", reason: "transcript out entry without a string line", line: line.slice(0, 4096) });
    return;
  }
  push(decodeLine(text));
}

/** Thrown when the output stream was closed by its reader (EPIPE). */
class OutputClosedError extends Error {
  readonly code = "replay.output_closed";
}

function write(out: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(text, (error) => {
      if (!error) resolve();
      else if ((error as { code?: unknown }).code === "EPIPE")
        reject(new OutputClosedError("output closed", { cause: error }));
      else reject(error);
    });
  });
}
