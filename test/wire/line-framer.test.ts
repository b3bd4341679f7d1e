import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineFramer } from "../../src/wire/index.js";
import type { OversizedLine } from "../../src/wire/index.js";
import { cutAt } from "../support/chunks.js";

function frame(chunks: readonly Uint8Array[], maxLineBytes?: number): { lines: string[]; dropped: OversizedLine[] } {
  const lines: string[] = [];
  const dropped: OversizedLine[] = [];
  const framer = new LineFramer({
    onLine: (line) => lines.push(line),
    onOversizedLine: (report) => dropped.push(report),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });
  for (const chunk of chunks) framer.push(chunk);
  framer.end();
  return { lines, dropped };
}

/** Reference behaviour: split decoded text, strip one \r, drop blanks, drop long lines. */
function referenceLines(bytes: Buffer, maxLineBytes: number): { lines: string[]; droppedSizes: number[] } {
  const lines: string[] = [];
  const droppedSizes: number[] = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    const last = end === -1;
    if (last) end = bytes.length;
    const raw = bytes.subarray(start, end);
    if (raw.length > maxLineBytes) droppedSizes.push(raw.length);
    else {
      const text = raw.toString("utf8").replace(/\r$/, "");
      if (text !== "") lines.push(text);
    }
    if (last) break;
    start = end + 1;
  }
  return { lines, droppedSizes };
}

describe("LineFramer", () => {
  it("splits lines, strips \\r\\n, skips blank lines and emits a final line without newline", () => {
    const { lines } = frame([Buffer.from('{"a":1}\r\n\n\r\n{"b":2}\n{"c":3}')]);
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it("joins a multi-byte character split across chunks", () => {
    const bytes = Buffer.from('{"t":"héllo — 日本 🎉"}\n');
    const { lines } = frame([...bytes].map((byte) => Buffer.from([byte])));
    expect(lines).toEqual(['{"t":"héllo — 日本 🎉"}']);
  });

  it("joins \\r and \\n arriving in different chunks", () => {
    expect(frame([Buffer.from("ab\r"), Buffer.from("\ncd")]).lines).toEqual(["ab", "cd"]);
  });

  it("drops an over-long line, reports it once with its size and head, and resumes after it", () => {
    const long = "x".repeat(100);
    const { lines, dropped } = frame(
      [Buffer.from(`short\n${long.slice(0, 30)}`), Buffer.from(long.slice(30)), Buffer.from("\nnext\n")],
      50,
    );
    expect(lines).toEqual(["short", "next"]);
    expect(dropped).toEqual([{ bytes: 100, maxLineBytes: 50, head: long.slice(0, 100) }]);
  });

  it("reports an over-long final line without newline at end()", () => {
    const { lines, dropped } = frame([Buffer.from("ok\n"), Buffer.from("y".repeat(20))], 10);
    expect(lines).toEqual(["ok"]);
    expect(dropped.map((d) => d.bytes)).toEqual([20]);
  });

  it("keeps memory bounded while skipping: held bytes never exceed the limit", () => {
    const framer = new LineFramer({ onLine: () => undefined, maxLineBytes: 100 * 1024 });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    framer.push(chunk);
    expect(framer.bufferedBytes).toBe(64 * 1024);
    for (let i = 0; i < 200; i++) {
      framer.push(chunk);
      expect(framer.bufferedBytes).toBe(0);
    }
    let reported = 0;
    const counting = new LineFramer({
      onLine: () => undefined,
      onOversizedLine: (r) => (reported = r.bytes),
      maxLineBytes: 1024,
    });
    for (let i = 0; i < 200; i++) counting.push(chunk);
    counting.push(Buffer.from("\n"));
    expect(reported).toBe(200 * 64 * 1024);
  });

  it("rejects a nonsensical limit", () => {
    expect(() => new LineFramer({ onLine: () => undefined, maxLineBytes: 0 })).toThrow(RangeError);
  });

  it("gives the same lines under any chunking of the same bytes", () => {
    const lineText = fc.string({ unit: "binary", maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, ""));
    const separator = fc.constantFrom("\n", "\r\n", "\n\n", "\n\r\n");
    const streamArb = fc.array(fc.tuple(lineText, separator), { maxLength: 12 }).chain((parts) =>
      fc.tuple(
        fc.constant(parts),
        fc.boolean(),
        fc.string({ maxLength: 10 }).map((s) => s.replace(/[\r\n]/g, "")),
      ),
    );
    fc.assert(
      fc.property(
        streamArb,
        fc.array(fc.nat(), { maxLength: 30 }),
        fc.integer({ min: 1, max: 60 }),
        ([parts, hasTail, tail], cuts, maxLineBytes) => {
          const text = parts.map(([line, sep]) => line + sep).join("") + (hasTail ? tail : "");
          const bytes = Buffer.from(text, "utf8");
          const expected = referenceLines(bytes, maxLineBytes);
          const whole = frame([bytes], maxLineBytes);
          const chunked = frame(cutAt(bytes, cuts), maxLineBytes);
          expect(whole.lines).toEqual(expected.lines);
          expect(whole.dropped.map((d) => d.bytes)).toEqual(expected.droppedSizes);
          expect(chunked.lines).toEqual(whole.lines);
          expect(chunked.dropped).toEqual(whole.dropped);
        },
      ),
      { numRuns: 500 },
    );
  });
});
