// Reads the person's typed lines from the terminal and hands them to the open prompt (via the
// line person port). Lines typed before a prompt appears are kept and answer it when it does.
import { createInterface, type Interface } from "node:readline";
import type { LinePersonPort } from "../sessions/decisions/index.js";

export type TypedAnswers = {
  /** A prompt was shown: feed it the lines typed ahead. */
  promptShown(): void;
  close(): void;
};

export function readTypedAnswers(
  input: NodeJS.ReadableStream,
  port: LinePersonPort,
  onIgnored: (line: string) => void,
): TypedAnswers {
  const early: string[] = [];
  let rl: Interface | undefined = createInterface({ input, terminal: false });
  const submit = (line: string): void => {
    if (port.open.length === 0) {
      early.push(line);
      return;
    }
    const result = port.submitLine(line);
    if (result.kind === "answered" && result.verdict !== "accepted") onIgnored(line);
  };
  rl.on("line", submit);
  return {
    promptShown() {
      while (early.length > 0 && port.open.length > 0) submit(early.shift() ?? "");
    },
    close() {
      rl?.close();
      rl = undefined;
    },
  };
}
