import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineDecoder, SHORT_LINE_BYTES } from "../../src/claude/line-decoder.js";
import { LineFramer } from "../../src/wire/index.js";
import { cutAt } from "../support/chunks.js";

/** The lines a framer with the engine's decoder emits for `chunks`. */
function frame(chunks: readonly Buffer[]): string[] {
  const lines: string[] = [];
  const framer = new LineFramer({ onLine: (line) => lines.push(line), decode: createLineDecoder() });
  for (const chunk of chunks) framer.push(chunk);
  framer.end();
  return lines;
}

/** What Buffer's own decoding gives: each line's bytes decoded alone, one \r stripped, blanks dropped. */
function byToString(bytes: Buffer): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let end = 0; end <= bytes.length; end++) {
    if (end < bytes.length && bytes[end] !== 0x0a) continue;
    const text = bytes.subarray(start, end).toString("utf8").replace(/\r$/, "");
    if (text !== "") lines.push(text);
    start = end + 1;
  }
  return lines;
}

/** Padding that makes a line longer than a short one, so the long lines' decoding is taken. */
const LONG = "x".repeat(SHORT_LINE_BYTES);

describe("the engine's line decoder", () => {
  it("keeps a BOM and multi-byte text as Buffer#toString does, in short lines and long", () => {
    for (const pad of ["", LONG]) {
      const text = `\uFEFF{}${pad}\n\uFEFF"é"${pad}\n\uFEFF"日本 🎉"${pad}\n{"t":"—"}${pad}`;
      const lines = ["\uFEFF{}", '\uFEFF"é"', '\uFEFF"日本 🎉"', '{"t":"—"}'].map((line) => line + pad);
      expect(frame([Buffer.from(text)])).toEqual(lines);
    }
  });

  it("turns truncated and stray bytes into U+FFFD as Buffer#toString does, a line at a time", () => {
    // A line ending inside a character must not carry its bytes over to the next line.
    const ends = [0x7b, 0xe2, 0x82, 0x0a, 0xac, 0x7d, 0x0a, 0xf0, 0x9f, 0x0a, 0x22, 0xff, 0x22];
    for (const pad of [[], [...Buffer.from(LONG)]]) {
      const bytes = Buffer.from([...pad, ...ends.flatMap((b) => (b === 0x0a ? [b, ...pad] : [b]))]);
      expect(frame([bytes])).toEqual(byToString(bytes));
    }
    expect(frame([Buffer.from(ends)])).toEqual(["{\uFFFD", "\uFFFD}", "\uFFFD", '"\uFFFD"']);
  });

  // Bytes that make valid, truncated and stray multi-byte sequences (and BOMs) likely.
  const byte = fc.oneof(
    fc.constantFrom(0x0a, 0x0d, 0x7b, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x8e, 0x89, 0xff),
    fc.integer({ min: 0, max: 255 }),
  );
  /** The same bytes and chunks framed with the engine's decoder and decoded by Buffer#toString. */
  const sameAsToString = (values: number[], cuts: number[]): void => {
    const bytes = Buffer.from(values);
    const expected = byToString(bytes);
    expect(frame([bytes])).toEqual(expected);
    expect(frame(cutAt(bytes, cuts))).toEqual(expected);
  };

  it("gives the lines Buffer#toString gives for any bytes, under any chunking", () => {
    fc.assert(fc.property(fc.array(byte, { maxLength: 80 }), fc.array(fc.nat(), { maxLength: 20 }), sameAsToString), {
      numRuns: 2000,
    });
  });

  it("gives the lines Buffer#toString gives for long lines too, under any chunking", () => {
    const longLine = fc.array(
      byte.filter((b) => b !== 0x0a),
      { minLength: SHORT_LINE_BYTES - 2, maxLength: SHORT_LINE_BYTES + 40 },
    );
    const lines = fc.array(longLine, { minLength: 1, maxLength: 4 }).map((ls) => ls.flatMap((l) => [...l, 0x0a]));
    fc.assert(fc.property(lines, fc.array(fc.nat(), { maxLength: 20 }), sameAsToString), { numRuns: 500 });
  });
});
