// The keeper's log: replay from any sequence number gives exactly the lines after it, in order,
// with a gap (and its reason) where lines were trimmed, capped or lost to a failing disk; the
// size cap holds; a failing write never throws. Property-tested against a disk whose writes
// finish when the test says, and checked on real files.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSystemClock } from "../../src/ports/index.js";
import { FrameBuilder, numberEnd, readNumber } from "../../src/keeper/frame-splitter.js";
import { KeeperLog, type KeeperLogOptions } from "../../src/keeper/keeper-log.js";
import { createFileStorage, type LogStorage } from "../../src/keeper/log-storage.js";
import { decodeKeeperMessage, type Gap } from "../../src/keeper/protocol.js";
import { useTempDirs } from "../support/temp-dirs.js";

const tempDir = useTempDirs("keeper-log");

type ManualDisk = LogStorage & {
  /** How many of the next writes to finish fail with ENOSPC (a full disk, until space is freed). */
  failNext: number;
  /** Finishes every queued write and removal, in order. */
  settle(): void;
};

/** A disk in memory whose writes finish only at `settle`, as a slow disk's would finish later. */
function manualDisk(): ManualDisk {
  const files = new Map<string, Buffer>();
  let queue: ({ name: string; data: Buffer; done: (e: Error | undefined) => void } | { name: string })[] = [];
  return {
    failNext: 0,
    append(name, data, done) {
      queue.push({ name, data, done });
    },
    read(name, position, length) {
      const file = files.get(name);
      if (file === undefined) throw Object.assign(new Error(`${name} is gone`), { code: "ENOENT" });
      return file.subarray(position, position + length);
    },
    remove(name) {
      queue.push({ name });
    },
    settle() {
      for (let ops = queue; ops.length > 0; ops = queue) {
        queue = [];
        for (const op of ops) {
          if (!("data" in op)) files.delete(op.name);
          else if (this.failNext > 0) {
            this.failNext -= 1;
            op.done(Object.assign(new Error("no space left on device"), { code: "ENOSPC" }));
          } else {
            files.set(op.name, Buffer.concat([files.get(op.name) ?? Buffer.alloc(0), op.data]));
            op.done(undefined);
          }
        }
      }
    },
  };
}

/** A log on real files, and a way to wait until its writes are done. */
function fileLog(options: Omit<KeeperLogOptions, "storage" | "onWritten">): {
  log: KeeperLog;
  written: () => Promise<void>;
} {
  const waiters: (() => void)[] = [];
  const log: KeeperLog = new KeeperLog({
    ...options,
    storage: createFileStorage(tempDir(), createSystemClock()),
    onWritten: () => {
      if (log.pendingBytes === 0) for (const resolve of waiters.splice(0)) resolve();
    },
  });
  return {
    log,
    written: () => (log.pendingBytes === 0 ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve))),
  };
}

type Replayed = { lines: { seq: number; line: string }[]; gaps: Gap[] };

/** Numbers and stores `lines` as the keeper does (bytes through a FrameBuilder); returns their frames. */
function append(log: KeeperLog, lines: readonly string[]): Buffer {
  const builder = new FrameBuilder();
  builder.begin(16);
  for (const line of lines) {
    const bytes = Buffer.from(line);
    builder.add(log.nextSeq + builder.count, bytes, 0, bytes.length);
  }
  const frames = builder.take();
  log.append(frames, lines.length);
  return frames;
}

/** One read after `afterSeq`, parsed as a client parses frames. */
function replayOnce(log: KeeperLog, afterSeq: number, chunkBytes: number): { replayed: Replayed; throughSeq: number } {
  const replayed: Replayed = { lines: [], gaps: [] };
  const { frames, throughSeq } = log.read(afterSeq, chunkBytes);
  expect(frames.length).toBeGreaterThan(0);
  expect(frames.at(-1)).toBe(0x0a);
  for (let at = 0; at < frames.length;) {
    const end = frames.indexOf(0x0a, at);
    const space = numberEnd(frames, at, end);
    const frame = frames.toString("utf8", at, end);
    if (space > 0)
      replayed.lines.push({ seq: readNumber(frames, at, space), line: frames.toString("utf8", space + 1, end) });
    else {
      const decoded = decodeKeeperMessage(frame);
      if (!decoded.ok || decoded.message.t !== "gap") throw new Error(`not a log frame: ${frame}`);
      replayed.gaps.push(decoded.message);
    }
    at = end + 1;
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
  it("replays the lines after a sequence number from the files, and after an ack starts with an acked gap", async () => {
    // Nothing kept in memory, one segment per write: reads come from the files, an ack of 3 frees the first.
    const { log, written } = fileLog({ capBytes: 1 << 20, segmentBytes: 1, recentBytes: 0 });
    append(log, ["a", "b", "c"]);
    append(log, ["d", "é 😀"]);
    expect(log.read(0, 1 << 16).frames.length).toBe(0);
    await written();
    expect(replay(log, 2, 1 << 16).lines).toEqual([
      { seq: 3, line: "c" },
      { seq: 4, line: "d" },
      { seq: 5, line: "é 😀" },
    ]);
    expect(replay(log, 5, 1 << 16)).toEqual({ lines: [], gaps: [] });
    log.ack(3);
    await written();
    expect(replay(log, 0, 3)).toEqual({
      gaps: [{ t: "gap", from: 1, to: 3, reason: "acked" }],
      lines: [
        { seq: 4, line: "d" },
        { seq: 5, line: "é 😀" },
      ],
    });
    expect(replay(log, 3, 1 << 16).gaps).toEqual([]);
  });

  it("keeps numbering when the disk fails, and reports the lost lines", () => {
    const disk = manualDisk();
    const log = new KeeperLog({ storage: disk, capBytes: 1 << 20 });
    append(log, ["one", "two"]);
    disk.settle();
    disk.failNext = 1;
    expect(append(log, ["three"]).toString()).toBe("3 three\n");
    disk.settle();
    expect(log.diskError).toBe("ENOSPC");
    append(log, ["four"]);
    disk.settle();
    expect(replay(log, 0, 1 << 16)).toEqual({
      gaps: [{ t: "gap", from: 1, to: 3, reason: "disk_full" }],
      lines: [{ seq: 4, line: "four" }],
    });
  });

  it("drops the oldest lines over the cap and says they were capped", async () => {
    const { log, written } = fileLog({ capBytes: 100, segmentBytes: 30, recentBytes: 0 });
    for (let i = 1; i <= 20; i++) append(log, [`line-${i}`]);
    expect(log.bytes).toBeLessThanOrEqual(100);
    await written();
    const replayed = replay(log, 0, 1 << 16);
    expect(replayed.gaps).toEqual([{ t: "gap", from: 1, to: log.firstSeq - 1, reason: "capped" }]);
    expect(replayed.lines.map((l) => l.seq)).toEqual(
      Array.from({ length: 20 - log.firstSeq + 1 }, (_, i) => log.firstSeq + i),
    );
  });

  it("keeps the newest lines of one write larger than the cap", async () => {
    const { log, written } = fileLog({ capBytes: 1000 });
    append(
      log,
      Array.from({ length: 100 }, (_, i) => `line ${String(i + 1).padStart(3, "0")} ${"x".repeat(40)}`),
    );
    await written();
    const replayed = replay(log, 0, 1 << 16);
    expect(log.bytes).toBeGreaterThan(1000 - 125 - 60);
    expect(replayed.gaps).toEqual([{ t: "gap", from: 1, to: log.firstSeq - 1, reason: "capped" }]);
    expect(replayed.lines.at(-1)?.line).toMatch(/^line 100 /);
    expect(replayed.lines.length).toBeGreaterThan(10);
  });

  it("stores a line too long to keep as an oversized gap in its place", () => {
    const { log } = fileLog({});
    append(log, ["before"]);
    log.appendOversized();
    append(log, ["after"]);
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
    | { kind: "fail"; writes: number }
    | { kind: "settle" }
    | { kind: "read"; chunks: number };

  const line = fc.string({ unit: fc.constantFrom("a", "é", "{", '"', " ", "7", "😀"), minLength: 1, maxLength: 40 });
  const op = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ kind: fc.constant("append"), lines: fc.array(line, { minLength: 1, maxLength: 6 }) }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("oversized") }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("ack"), at: fc.double({ min: 0, max: 1, noNaN: true }) }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("fail"), writes: fc.integer({ min: 1, max: 3 }) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("settle") }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant("read"), chunks: fc.integer({ min: 1, max: 3 }) }) },
  ) as fc.Arbitrary<Op>;

  it("replays exactly the lines after any sequence number, in order, across trims, caps and disk failures", () => {
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 40 }),
        fc.integer({ min: 200, max: 4000 }),
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 0, max: 1500 }),
        (ops, capBytes, segmentBytes, chunkBytes, recentBytes) => {
          const disk = manualDisk();
          const log = new KeeperLog({ storage: disk, capBytes, segmentBytes, recentBytes });
          const written = new Map<number, string>();
          const oversized = new Set<number>();
          // A client reading while the log grows, a few chunks at a time, as a live one does; it
          // stops where the next lines are neither recent nor on disk yet.
          const live: Replayed = { lines: [], gaps: [] };
          let liveSeq = 0;
          const readLive = (chunks: number): void => {
            for (let i = 0; i < chunks && liveSeq < log.lastSeq; i++) {
              const [firstSeq, diskError] = [log.firstSeq, log.diskError];
              const peek = log.read(liveSeq, chunkBytes);
              // A read never drops anything; it may find nothing yet.
              expect([log.firstSeq, log.diskError]).toEqual([firstSeq, diskError]);
              if (peek.frames.length === 0) return;
              const part = replayOnce(log, liveSeq, chunkBytes);
              live.lines.push(...part.replayed.lines);
              live.gaps.push(...part.replayed.gaps);
              liveSeq = part.throughSeq;
            }
          };
          for (const o of ops) {
            if (o.kind === "append") {
              const first = log.nextSeq;
              const frames = append(log, o.lines);
              expect(frames.toString()).toBe(o.lines.map((l, i) => `${first + i} ${l}\n`).join(""));
              o.lines.forEach((l, i) => written.set(first + i, l));
            } else if (o.kind === "oversized") {
              log.appendOversized();
              oversized.add(log.lastSeq);
            } else if (o.kind === "ack") log.ack(Math.floor(o.at * log.lastSeq));
            else if (o.kind === "fail") disk.failNext = o.writes;
            else if (o.kind === "settle") disk.settle();
            else readLive(o.chunks);
            expect(log.bytes).toBeLessThanOrEqual(capBytes);
          }
          disk.settle();
          expect(log.pendingBytes).toBe(0);
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
