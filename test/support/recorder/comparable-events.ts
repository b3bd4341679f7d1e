// What a recording means to Telecode, with the volatile values taken out: its stdout passed
// through the recorder's sanitiser, then the decoder and translator, formatted like a golden
// file. Two recordings of the same scenario that differ only in ids, times and paths give the
// same text, whichever of them was sanitised when it was recorded.
import { createTranslator } from "../../../src/claude/index.js";
import type { TelecodeEvent } from "../../../src/domain/index.js";
import { decodeLine } from "../../../src/wire/index.js";
// @ts-expect-error -- plain JS helper shared with the golden generator (no type declarations).
import { formatGolden } from "../../golden/golden-format.js";
import { Sanitiser } from "./sanitise.js";

/** Paths no recording contains: the stdout is already sanitised or comes from another machine. */
const NOWHERE = {
  root: "/nonexistent/r",
  home: "/nonexistent/h",
  project: "/nonexistent/p",
  tmp: "/nonexistent/t",
  apiPort: "",
};

/** The golden-format text of the events `stdout` translates to, after sanitising it. */
export function comparableEvents(stdout: string): string {
  const lines = stdout.split("\n").filter((line) => line !== "");
  const sanitiser = new Sanitiser(NOWHERE);
  for (const line of lines) sanitiser.learn(line);
  const translator = createTranslator();
  const events: TelecodeEvent[] = [];
  for (const line of lines) events.push(...translator.push(decodeLine(sanitiser.clean(line))));
  events.push(...translator.end());
  return (formatGolden as (events: TelecodeEvent[]) => string)(events);
}
