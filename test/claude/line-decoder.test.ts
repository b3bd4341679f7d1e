import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createLineDecoder } from "../../src/claude/line-decoder.js";
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

describe("the engine's line decoder", () => {
  it("keeps a BOM and multi-byte text as Buffer#toString does", () => {
    const text = '\uFEFF{}\n\uFEFF"é"\n\uFEFF"日本 🎉"\n{"t":"—"}';
    expect(frame([Buffer.from(text)])).toEqual(["\uFEFF{}", '\uFEFF"é"', '\uFEFF"日本 🎉"', '{"t":"—"}']);
  });

  it("turns truncated and stray bytes into U+FFFD as Buffer#toString does, a line at a time", () => {
    // A line ending inside a character must not carry its bytes over to the next line.
    const bytes = Buffer.from([0x7b, 0xe2, 0x82, 0x0a, 0xac, 0x7d, 0x0a, 0xf0, 0x9f, 0x0a, 0x22, 0xff, 0x22]);
    expect(frame([bytes])).toEqual(["{\uFFFD", "\uFFFD}", "\uFFFD", '"\uFFFD"']);
    expect(frame([bytes])).toEqual(byToString(bytes));
  });

  it("gives the lines Buffer#toString gives for any bytes, under any chunking", () => {
    // Bytes that make valid, truncated and stray multi-byte sequences (and BOMs) likely.
    const byte = fc.oneof(
      fc.constantFrom(0x0a, 0x0d, 0x7b, 0xef, 0xbb, 0xbf, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x8e, 0x89, 0xff),
      fc.integer({ min: 0, max: 255 }),
    );
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 80 }), fc.array(fc.nat(), { maxLength: 20 }), (values, cuts) => {
        const bytes = Buffer.from(values);
        const expected = byToString(bytes);
        expect(frame([bytes])).toEqual(expected);
        expect(frame(cutAt(bytes, cuts))).toEqual(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
