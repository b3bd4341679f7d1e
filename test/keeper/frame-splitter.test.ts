// Byte framing for the keeper: any cut of a stream into chunks gives the same frames as the
// whole stream at once; over-long frames are reported, never buffered; numbered frames built
// by copying bytes read back as their number and payload. Property-tested.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { FrameBuilder, FrameSplitter, numberEnd, readNumber } from "../../src/keeper/frame-splitter.js";

type Seen = { frames: string[]; oversized: number[] };

function split(chunks: readonly Buffer[], maxFrameBytes: number): Seen {
  const seen: Seen = { frames: [], oversized: [] };
  const splitter = new FrameSplitter({
    maxFrameBytes,
    onFrame: (buffer, start, end) => seen.frames.push(buffer.toString("utf8", start, end)),
    onOversized: (bytes) => seen.oversized.push(bytes),
  });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return seen;
}

/** What a reader expects: lines without their `\r`, blank ones skipped, long ones reported by length. */
function expected(text: string, maxFrameBytes: number): Seen {
  const seen: Seen = { frames: [], oversized: [] };
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    const bytes = Buffer.byteLength(line);
    if (bytes > maxFrameBytes) seen.oversized.push(bytes);
    else if (line.replace(/\r$/, "") !== "") seen.frames.push(line.replace(/\r$/, ""));
  }
  return seen;
}

describe("the keeper's byte framing", () => {
  it("gives the same frames however the stream is cut into chunks", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "é", "😀", "\n", "\r", " ", "{"), maxLength: 300 });
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 20 }), fc.integer({ min: 1, max: 40 }), (t, cuts, max) => {
        const bytes = Buffer.from(t);
        const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...points].map((from, i) => bytes.subarray(from, points[i] ?? bytes.length));
        expect(split(chunks, max)).toEqual(expected(t, max));
      }),
      { numRuns: 300 },
    );
  });

  it("builds numbered frames that read back as their number and payload", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 2 ** 40 }), fc.string({ minLength: 1 })), { maxLength: 30 }),
        (items) => {
          const builder = new FrameBuilder();
          builder.begin(1);
          for (const [seq, line] of items) {
            const bytes = Buffer.from(line.replace(/\n/g, " "));
            builder.add(seq, bytes, 0, bytes.length);
          }
          const frames = builder.take();
          const read: [number, string][] = [];
          for (let at = 0; at < frames.length;) {
            const end = frames.indexOf(0x0a, at);
            const space = numberEnd(frames, at, end);
            read.push([readNumber(frames, at, space), frames.toString("utf8", space + 1, end)]);
            at = end + 1;
          }
          expect(read).toEqual(items.map(([seq, line]) => [seq, line.replace(/\n/g, " ")]));
        },
      ),
    );
  });

  it("tells a JSON frame from a numbered one", () => {
    const json = Buffer.from('{"t":"gap","from":1,"to":2}');
    expect(numberEnd(json, 0, json.length)).toBe(-1);
    const numbered = Buffer.from("12 {}");
    expect(numberEnd(numbered, 0, numbered.length)).toBe(2);
    const noSpace = Buffer.from("12345");
    expect(numberEnd(noSpace, 0, noSpace.length)).toBe(-1);
  });
});
