// The keeper's log on real files: replay from any sequence number gives exactly the lines after
// it, in order, with a gap (and its reason) where lines were trimmed, capped or lost to a
// failing disk; the size cap holds; a failing write never throws. Property-tested.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFileStorage, KeeperLog, type LogStorage } from "../../src/keeper/keeper-log.js";
import { decodeKeeperMessage, numberedPrefixLength, type Gap } from "../../src/keeper/protocol.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("keeper-log");

/** File storage whose writes fail (ENOSPC) while `failing` is set. */
function flakyStorage(dir: string): LogStorage & { failing: boolean } {
  const files = createFileStorage(dir);
  return {
    failing: false,
    append(name, data) {
      if (this.failing) throw Object.assign(new Error("no space left on device"), { code: "ENOSPC" });
      files.append(name, data);
    },
    read: (name, position, length) => files.read(name, position, length),
    remove: (name) => files.remove(name),
  };
}

type Replayed = { lines: { seq: number; line: string }[]; gaps: Gap[] };

/** One read after `afterSeq`, parsed as a client parses frames. */
function replayOnce(log: KeeperLog, afterSeq: number, chunkBytes: number): { replayed: Replayed; throughSeq: number } {
  const replayed: Replayed = { lines: [], gaps: [] };
  const { frames, throughSeq } = log.read(afterSeq, chunkBytes);
  expect(frames.length).toBeGreaterThan(0);
  expect(frames.at(-1)).toBe(0x0a);
  for (const frame of frames.toString("utf8").slice(0, -1).split("\n")) {
    const start = numberedPrefixLength(frame);
    if (start > 0) replayed.lines.push({ seq: Number.parseInt(frame, 10), line: frame.slice(start) });
    else {
      const decoded = decodeKeeperMessage(frame);
      if (!decoded.ok || decoded.message.t !== "gap") throw new Error(`not a log frame: ${frame}`);
      replayed.gaps.push(decoded.message);
    }
  }
  expect(throughSeq).toBeGreaterThan(afterSeq);
  return { replayed, throughSeq };
}

/** Everything a client attaching with `fromSeq` would get, read `chunkBytes` at a time. */
function replay(log: KeeperLog, fromSeq: number, chunkBytes: number): Replayed {
  const out: Replayed = { lines: [], gaps: [] };
  for (let after = fromSeq; after < log.lastSeq;) {
    const { replayed, throughSeq } = replayOnce(log, after, chunkBytes);
    out.lines.push(...replayed.lines);
    out.gaps.push(...replayed.gaps);
    after = throughSeq;
  }
  return out;
}

/** The numbers a replay covers, lines and gaps together, sorted. */
function covered(replayed: Replayed): number[] {
  const fromGaps = replayed.gaps.flatMap((g) => Array.from({ length: g.to - g.from + 1 }, (_, i) => g.from + i));
  return [...replayed.lines.map((l) => l.seq), ...fromGaps].sort((a, b) => a - b);
}

describe("the keeper log", () => {
  it("replays the lines after a sequence number, and after an ack starts with an acked gap", () => {
    // One segment per append, so an ack of 3 frees the first one.
    const log = new KeeperLog({ storage: createFileStorage(tempDir()), capBytes: 1 << 20, segmentBytes: 1 });
    log.append(["a", "b", "c"]);
    log.append(["d", "e"]);
    expect(replay(log, 2, 1 << 16).lines).toEqual([
      { seq: 3, line: "c" },
      { seq: 4, line: "d" },
      { seq: 5, line: "e" },
    ]);
    expect(replay(log, 5, 1 << 16)).toEqual({ lines: [], gaps: [] });
    log.ack(3);
    expect(replay(log, 0, 1 << 16)).toEqual({
      gaps: [{ t: "gap", from: 1, to: 3, reason: "acked" }],
      lines: [
        { seq: 4, line: "d" },
        { seq: 5, line: "e" },
      ],
    });
    expect(replay(log, 3, 1 << 16).gaps).toEqual([]);
  });

  it("keeps numbering and serving live frames when the disk fails, and reports the lost lines", () => {
    const storage = flakyStorage(tempDir());
    const log = new KeeperLog({ storage, capBytes: 1 << 20 });
    log.append(["one", "two"]);
    storage.failing = true;
    const live = log.append(["three"]);
    expect(live.toString()).toBe("3 three\n");
    expect(log.diskError).toBe("ENOSPC");
    storage.failing = false;
    log.append(["four"]);
    expect(replay(log, 0, 1 << 16)).toEqual({
      gaps: [{ t: "gap", from: 1, to: 3, reason: "disk_full" }],
      lines: [{ seq: 4, line: "four" }],
    });
  });

  it("drops the oldest lines over the cap and says they were capped", () => {
    const log = new KeeperLog({ storage: createFileStorage(tempDir()), capBytes: 100, segmentBytes: 30 });
    for (let i = 1; i <= 20; i++) log.append([`line-${i}`]);
    expect(log.bytes).toBeLessThanOrEqual(100);
    const replayed = replay(log, 0, 1 << 16);
    expect(replayed.gaps).toEqual([{ t: "gap", from: 1, to: log.firstSeq - 1, reason: "capped" }]);
    expect(replayed.lines.map((l) => l.seq)).toEqual(
      Array.from({ length: 20 - log.firstSeq + 1 }, (_, i) => log.firstSeq + i),
    );
  });

  it("keeps the newest lines of one write larger than the cap", () => {
    const log = new KeeperLog({ storage: createFileStorage(tempDir()), capBytes: 1000 });
    log.append(Array.from({ length: 100 }, (_, i) => `line ${String(i + 1).padStart(3, "0")} ${"x".repeat(40)}`));
    const replayed = replay(log, 0, 1 << 16);
    expect(log.bytes).toBeGreaterThan(1000 - 125 - 60);
    expect(replayed.gaps).toEqual([{ t: "gap", from: 1, to: log.firstSeq - 1, reason: "capped" }]);
    expect(replayed.lines.at(-1)?.line).toMatch(/^line 100 /);
    expect(replayed.lines.length).toBeGreaterThan(10);
  });

  it("stores a line too long to keep as an oversized gap in its place", () => {
    const log = new KeeperLog({ storage: createFileStorage(tempDir()) });
    log.append(["before"]);
    log.appendOversized();
    log.append(["after"]);
    expect(replay(log, 0, 4)).toEqual({
      lines: [
        { seq: 1, line: "before" },
        { seq: 3, line: "after" },
      ],
      gaps: [{ t: "gap", from: 2, to: 2, reason: "oversized" }],
    });
  });

  type Op =
    | { kind: "append"; lines: string[] }
    | { kind: "oversized" }
    | { kind: "ack"; at: number }
    | { kind: "fail"; on: boolean }
    | { kind: "read"; chunks: number };

  const line = fc.string({ unit: fc.constantFrom("a", "é", "{", '"', " ", "7", "😀"), minLength: 1, maxLength: 40 });
  const op = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constant("append"), lines: fc.array(line, { minLength: 1, maxLength: 6 }) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("oversized") }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("ack"), at: fc.double({ min: 0, max: 1, noNaN: true }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("fail"), on: fc.boolean() }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("read"), chunks: fc.integer({ min: 1, max: 3 }) }) },
  ) as fc.Arbitrary<Op>;

  it("replays exactly the lines after any sequence number, in order, across trims, caps and disk failures", () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.integer({ min: 200, max: 4000 }),
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 1, max: 300 }),
        (ops, capBytes, segmentBytes, chunkBytes) => {
          const storage = flakyStorage(tempDir());
          const log = new KeeperLog({ storage, capBytes, segmentBytes });
          const written = new Map<number, string>();
          const oversized = new Set<number>();
          // A client reading while the log grows, a few chunks at a time, as a live one does.
          const live: Replayed = { lines: [], gaps: [] };
          let liveSeq = 0;
          const readLive = (chunks: number): void => {
            for (let i = 0; i < chunks && liveSeq < log.lastSeq; i++) {
              const part = replayOnce(log, liveSeq, chunkBytes);
              live.lines.push(...part.replayed.lines);
              live.gaps.push(...part.replayed.gaps);
              liveSeq = part.throughSeq;
            }
          };
          for (const o of ops) {
            if (o.kind === "append") {
              const first = log.lastSeq + 1;
              const frames = log.append(o.lines);
              expect(frames.toString()).toBe(o.lines.map((l, i) => `${first + i} ${l}\n`).join(""));
              o.lines.forEach((l, i) => written.set(first + i, l));
            } else if (o.kind === "oversized") {
              log.appendOversized();
              oversized.add(log.lastSeq);
            } else if (o.kind === "ack") log.ack(Math.floor(o.at * log.lastSeq));
            else if (o.kind === "fail") storage.failing = o.on;
            else readLive(o.chunks);
            expect(log.bytes).toBeLessThanOrEqual(capBytes);
          }
          readLive(Number.MAX_SAFE_INTEGER);
          const check = (replayed: Replayed, from: number, firstStored: number): void => {
            // Every number after `from` is covered once: as its line, or by a gap.
            expect(covered(replayed)).toEqual(Array.from({ length: log.lastSeq - from }, (_, i) => from + 1 + i));
            // Lines come in order, each as written; everything still stored comes as a line.
            const seqs = replayed.lines.map((l) => l.seq);
            expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
            for (const l of replayed.lines) expect(l.line).toBe(written.get(l.seq));
            for (const gap of replayed.gaps)
              if (gap.reason === "oversized") expect(gap.from === gap.to && oversized.has(gap.from)).toBe(true);
            for (let seq = Math.max(from + 1, firstStored); seq <= log.lastSeq; seq++)
              if (!oversized.has(seq)) expect(seqs).toContain(seq);
          };
          check(live, 0, log.firstSeq);
          storage.failing = false;
          const firstStored = log.firstSeq;
          for (let from = 0; from <= log.lastSeq; from++) {
            const replayed = replay(log, from, chunkBytes);
            // Reading from a working disk never loses anything.
            expect(log.firstSeq).toBe(firstStored);
            for (const gap of replayed.gaps) if (gap.reason !== "oversized") expect(gap.to).toBeLessThan(firstStored);
            check(replayed, from, firstStored);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
