// Front-end-neutral text helpers for prompts: one-line values, first lines, and long text split
// at line boundaries. No escaping here (that is the transport's job).
import { excerpt } from "../domain/index.js";

/** One line of a value for a field list: whitespace collapsed, shortened. */
export function oneLine(value: unknown, maxChars = 200): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return excerpt(text.replace(/\s+/g, " ").trim(), maxChars);
}

/** The first `maxLines` lines of `text` and how many were left out. */
export function headLines(text: string, maxLines: number): { text: string; omitted: number } {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  if (lines.length <= maxLines) return { text: lines.join("\n"), omitted: 0 };
  return { text: lines.slice(0, maxLines).join("\n"), omitted: lines.length - maxLines };
}

/**
 * Splits long text into parts of at most `maxChars`, preferring line breaks, so a front end
 * with a message size limit can send a long plan as several messages. Never returns an
 * empty list (an empty text gives one empty part).
 */
export function splitLongText(text: string, maxChars: number): string[] {
  if (maxChars < 1) throw new RangeError("maxChars must be at least 1");
  const parts: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars);
    const newline = window.lastIndexOf("\n");
    const space = window.lastIndexOf(" ");
    const cut = newline > maxChars / 2 ? newline + 1 : space > maxChars / 2 ? space + 1 : maxChars;
    parts.push(rest.slice(0, cut).replace(/\n$/, ""));
    rest = rest.slice(cut);
  }
  parts.push(rest);
  return parts;
}
