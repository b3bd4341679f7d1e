// Reading a recorded Claude Code stream into events: a stdout recording (.stdout.jsonl) or a
// transcript whose "out" lines are the CLI's stdout (.transcript.jsonl), told apart by its
// first line. Chunks in, events out, the same pipeline as a live process; nothing held whole.
import { definedFields, type TelecodeEvent } from "../domain/index.js";
import { decodeLine, LineFramer, oversizedLineProblem } from "../wire/index.js";
import type { WireDecodeProblem, WireMessage } from "../wire/index.js";
import { createLineDecoder } from "./line-decoder.js";
import { createTranslator } from "./translator.js";

export type RecordingReader = {
  /** The events the chunk completed, in order. */
  push(chunk: Uint8Array): TelecodeEvent[];
  /** The stream ended: the last line and a warning for a turn left open. */
  end(): TelecodeEvent[];
  /**
   * Lines read so far, how many of them were not Claude Code's (a file that is no recording has
   * only those), and of those the lines of each type Telecode does not know (left out quietly).
   */
  readonly lines: { read: number; unreadable: number; unknownTypes: ReadonlyMap<string, number> };
};

/** A reader for one recording. Throws a RangeError for an unknown time zone. */
export function createRecordingReader(options: { timeZone?: string } = {}): RecordingReader {
  const translator = createTranslator(definedFields({ timeZone: options.timeZone }));
  let out: TelecodeEvent[] = [];
  const push = (message: WireMessage | WireDecodeProblem): void => void out.push(...translator.push(message));
  let mode: "unknown" | "stdout" | "transcript" = "unknown";
  let read = 0;
  const framer = new LineFramer({
    onLine: (line) => {
      read++;
      if (mode === "unknown") mode = isTranscriptLine(line) ? "transcript" : "stdout";
      if (mode === "stdout") push(decodeLine(line));
      else pushTranscriptLine(line, push);
    },
    onOversizedLine: (report) => {
      read++;
      push(oversizedLineProblem(report));
    },
    decode: createLineDecoder(),
  });
  const take = (): TelecodeEvent[] => {
    const events = out;
    out = [];
    return events;
  };
  return {
    push(chunk) {
      framer.push(chunk);
      return take();
    },
    end() {
      framer.end();
      out.push(...translator.end());
      return take();
    },
    get lines() {
      return { read, unreadable: translator.decodeProblemCount, unknownTypes: translator.unknownTypes };
    },
  };
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
