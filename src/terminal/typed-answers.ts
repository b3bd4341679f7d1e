// Reads the person's typed lines and hands them to the open prompt (via the line person port).
// Lines typed before a prompt appears are kept and answer it when it does. On a terminal the
// input line is drawn only while a prompt waits, so typing never mixes with the live status.
import { createInterface, type Interface } from "node:readline";
import { Writable } from "node:stream";
import type { LinePersonPort } from "../sessions/decisions/index.js";
import type { InputLine } from "./progress-view.js";

export type TypedAnswers = {
  /** The bottom line while a prompt waits (hand it to ProgressView.attachInput). */
  readonly inputLine: InputLine;
  /** A prompt was shown: feed it the lines typed ahead. */
  promptShown(): void;
  /** Ctrl-C typed at the terminal (in raw mode the terminal raises no SIGINT). */
  onInterrupt(handler: () => void): void;
  /**
   * The input ended (Ctrl-D, the end of piped input) and a prompt waits that no line typed
   * ahead answers: nobody can answer it. Called once.
   */
  onInputEnded(handler: () => void): void;
  close(): void;
};

export type TypedAnswersOptions = {
  input: NodeJS.ReadableStream;
  port: LinePersonPort;
  /** A line that answered nothing (the prompt was already answered). */
  onIgnored: (line: string) => void;
  /** A line typed before the prompt appeared now answers it (it was not shown when typed). */
  onTypedAhead: (line: string) => void;
  /**
   * The terminal the input line is drawn on (stdin and it are TTYs): the reader then edits the
   * line itself (raw mode) and shows what is typed only while a prompt waits.
   */
  terminal?: NodeJS.WritableStream & { columns?: number };
};

const INPUT_PROMPT = "› ";
const CLEAR_LINE = "\r\x1b[2K";

export function readTypedAnswers(options: TypedAnswersOptions): TypedAnswers {
  const { port, onIgnored, onTypedAhead, terminal } = options;
  const early: string[] = [];
  const endHandlers: (() => void)[] = [];
  let visible = false;
  let ended = false;
  let reportedEnd = false;
  const checkEnded = (): void => {
    if (!ended || reportedEnd || port.open.length === 0 || early.length > 0) return;
    reportedEnd = true;
    for (const handler of endHandlers) handler();
  };
  const submit = (line: string): void => {
    if (port.open.length === 0) {
      early.push(line);
      return;
    }
    const result = port.submitLine(line);
    if (result.kind === "answered" && result.verdict !== "accepted") onIgnored(line);
  };
  let rl: Interface | undefined;
  if (terminal === undefined) {
    rl = createInterface({ input: options.input, terminal: false });
  } else {
    // Readline echoes what is typed; that echo reaches the terminal only while the input line
    // is drawn. Typed-ahead text stays in readline's buffer and appears with the next prompt.
    const echo = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (visible) terminal.write(chunk);
        done();
      },
    });
    Object.defineProperty(echo, "columns", { get: () => terminal.columns });
    rl = createInterface({ input: options.input, output: echo, terminal: true, prompt: INPUT_PROMPT });
  }
  rl.on("line", submit);
  const reader = rl;
  reader.on("close", () => {
    // close() below ends reading on purpose; only an input that ended by itself counts.
    if (rl !== reader) return;
    ended = true;
    checkEnded();
  });
  const inputLine: InputLine = {
    isActive: () => port.open.length > 0,
    draw() {
      // A closed reader (Ctrl-D) would start reading the terminal again to draw its prompt,
      // and keep the process alive after the run.
      if (terminal === undefined || rl === undefined || ended) return;
      visible = true;
      rl.prompt(true);
    },
    clear() {
      if (terminal === undefined || !visible) return;
      visible = false;
      terminal.write(CLEAR_LINE);
    },
  };
  return {
    inputLine,
    promptShown() {
      while (early.length > 0 && port.open.length > 0) {
        const line = early.shift() ?? "";
        onTypedAhead(line);
        submit(line);
      }
      checkEnded();
    },
    onInterrupt(handler) {
      rl?.on("SIGINT", handler);
    },
    onInputEnded(handler) {
      endHandlers.push(handler);
    },
    close() {
      visible = false;
      rl?.close();
      rl = undefined;
    },
  };
}
