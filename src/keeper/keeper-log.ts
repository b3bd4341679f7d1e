// The keeper's log of the CLI's stdout: every line numbered and stored as a protocol frame in
// segment files (written in the background), trimmed when the client acknowledges, capped in
// size, and dropped (never throwing) when the disk fails. Reads give back whole frames after
// any number, from memory while they are recent, else from the written part of the files.
import { numberEnd, readNumber } from "./frame-splitter.js";
import type { LogStorage } from "./log-storage.js";
import { UNTRACKED, type FrameHolds } from "./slab-pool.js";
import { encodeMessage, type GapReason } from "./protocol.js";
import { RecentFrames, type LogRead } from "./recent-frames.js";

export type { LogRead } from "./recent-frames.js";

export const DEFAULT_LOG_CAP_BYTES = 64 * 1024 * 1024;

export type KeeperLogOptions = {
  storage: LogStorage;
  /** The most bytes kept; the oldest segments go first (their lines are then reported lost). Default 64 MiB. */
  capBytes?: number;
  /** A segment is closed once it holds this many bytes. Default an eighth of the cap. */
  segmentBytes?: number;
  /** The newest frames also kept in memory, for readers just behind. Default 4 MiB. */
  recentBytes?: number;
  /** Called after each write reached the disk (or failed): readers may go on, a paused reader of the CLI may resume. */
  onWritten?: () => void;
  /** The frame builder's slabs: frames are held while a write or the recent frames keep them. */
  holds?: FrameHolds;
};

type Segment = {
  name: string;
  firstSeq: number;
  lastSeq: number;
  bytes: number;
  /** How many of `bytes` are on disk; reads stop there. */
  written: number;
  /** Where each write began (its first number and byte offset), so a read finds its place without a scan. */
  writeSeqs: number[];
  writeOffsets: number[];
};

const EMPTY = Buffer.alloc(0);
const NEWLINE = 0x0a;
const SCAN_BYTES = 64 * 1024;

export class KeeperLog {
  readonly #storage: LogStorage;
  readonly #capBytes: number;
  readonly #segmentBytes: number;
  /** Oldest first; together they hold every sequence number from #firstSeq to #lastSeq. */
  #segments: Segment[] = [];
  #bytes = 0;
  #lastSeq = 0;
  #firstSeq = 1;
  #ackedThrough = 0;
  /** The highest number removed without an ack, and why. */
  #lostThrough = 0;
  #lostReason: "capped" | "disk_full" = "capped";
  #diskError: string | undefined;
  /** Where the last read ended, so a reader that keeps up does not rescan its segment. */
  #cursor: { name: string; afterSeq: number; position: number } | undefined;
  readonly #recent: RecentFrames;
  readonly #holds: FrameHolds;
  readonly #onWritten: (() => void) | undefined;
  #pendingBytes = 0;
  /** Bumped when everything is dropped, so writes still in flight from before are ignored. */
  #generation = 0;

  constructor(options: KeeperLogOptions) {
    this.#onWritten = options.onWritten;
    this.#holds = options.holds ?? UNTRACKED;
    this.#recent = new RecentFrames(options.recentBytes ?? 4 * 1024 * 1024, this.#holds);
    this.#storage = options.storage;
    this.#capBytes = options.capBytes ?? DEFAULT_LOG_CAP_BYTES;
    this.#segmentBytes = options.segmentBytes ?? Math.max(1, Math.floor(this.#capBytes / 8));
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  /** The first number still stored (`lastSeq + 1` when nothing is). */
  get firstSeq(): number {
    return this.#firstSeq;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Bytes handed to the disk and not yet written. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /** The code of the last failed write (ENOSPC, EIO…), once one failed. */
  get diskError(): string | undefined {
    return this.#diskError;
  }

  /** The number the next line gets. */
  get nextSeq(): number {
    return this.#lastSeq + 1;
  }

  /** Stores `count` numbered frames, the first numbered `nextSeq` (see FrameBuilder). Never throws: a failed write drops the stored log. */
  append(frames: Buffer, count: number): void {
    const first = this.#lastSeq + 1;
    this.#lastSeq += count;
    this.#store(frames, first);
  }

  /** Numbers a line that was too long to keep; it is stored and sent as an `oversized` gap. */
  appendOversized(): Buffer {
    const seq = ++this.#lastSeq;
    return this.#store(Buffer.from(encodeMessage({ t: "gap", from: seq, to: seq, reason: "oversized" })), seq);
  }

  /** The client has everything through `seq`: segments wholly before it are removed. */
  ack(seq: number): void {
    const through = Math.min(seq, this.#lastSeq);
    if (through <= this.#ackedThrough) return;
    this.#ackedThrough = through;
    while (this.#segments[0] !== undefined && this.#segments[0].lastSeq <= through) this.#removeOldest();
  }

  /**
   * Frames for the lines after `afterSeq`: whole frames, about `maxBytes` of them (more when
   * one frame is larger), or one gap frame for numbers no longer stored. Empty when caught up,
   * or when the next frames are neither recent nor written yet (`onWritten` says when to retry).
   */
  read(afterSeq: number, maxBytes: number): LogRead {
    if (afterSeq >= this.#lastSeq) return { frames: EMPTY, throughSeq: afterSeq };
    const start = afterSeq + 1;
    const segment = this.#segments.find((s) => s.firstSeq <= start && start <= s.lastSeq);
    if (start < this.#firstSeq || segment === undefined) return this.#gapFrom(start);
    const recent = this.#recent.from(start);
    if (recent !== undefined) return recent;
    try {
      const cursor = this.#cursor;
      const position =
        cursor?.name === segment.name && cursor.afterSeq === afterSeq ? cursor.position : this.#find(segment, start);
      const frames = this.#readWhole(segment, position, maxBytes);
      if (frames.length === 0) return { frames: EMPTY, throughSeq: afterSeq };
      const throughSeq = lastSeqIn(frames);
      this.#cursor = { name: segment.name, afterSeq: throughSeq, position: position + frames.length };
      return { frames, throughSeq };
    } catch (error) {
      this.#dropAll(error);
      return this.#gapFrom(start);
    }
  }

  /** Removes every segment (the keeper is done). */
  removeAll(): void {
    this.#recent.clear();
    for (const segment of this.#segments) this.#storage.remove(segment.name);
    this.#segments = [];
    this.#bytes = 0;
  }

  #gapFrom(start: number): LogRead {
    const to = this.#firstSeq - 1;
    const reason: GapReason = this.#lostThrough >= start ? this.#lostReason : "acked";
    return { frames: Buffer.from(encodeMessage({ t: "gap", from: start, to, reason })), throughSeq: to };
  }

  /** Writes `frames` (numbered from `firstSeq`) into segments, cut at frame boundaries so none overflows. */
  #store(frames: Buffer, firstSeq: number): Buffer {
    let seq = firstSeq;
    for (let offset = 0; offset < frames.length;) {
      let active = this.#segments.at(-1);
      if (active === undefined || active.bytes >= this.#segmentBytes) {
        const name = `${String(seq).padStart(12, "0")}.frames`;
        active = { name, firstSeq: seq, lastSeq: seq - 1, bytes: 0, written: 0, writeSeqs: [], writeOffsets: [] };
        this.#segments.push(active);
      }
      const room = this.#segmentBytes - active.bytes;
      let end = frames.length;
      let count = this.#lastSeq - seq + 1;
      if (end - offset > room) {
        // Rare: more than a segment at once. Cut after the last frame that fits (or the first, if none does).
        const cut = frames.lastIndexOf(NEWLINE, offset + room - 1);
        end = (cut >= offset ? cut : frames.indexOf(NEWLINE, offset)) + 1;
        count = 0;
        for (let at = frames.indexOf(NEWLINE, offset); at !== -1 && at < end; at = frames.indexOf(NEWLINE, at + 1))
          count++;
      }
      const piece = frames.subarray(offset, end);
      const segment = active;
      const generation = this.#generation;
      this.#pendingBytes += piece.length;
      this.#holds.hold(piece);
      this.#storage.append(segment.name, piece, (error) => {
        this.#holds.release(piece);
        this.#written(segment, piece.length, generation, error);
      });
      active.writeSeqs.push(seq);
      active.writeOffsets.push(active.bytes);
      this.#recent.add(piece, seq, seq + count - 1);
      seq += count;
      active.lastSeq = seq - 1;
      active.bytes += end - offset;
      this.#bytes += end - offset;
      offset = end;
      while (this.#bytes > this.#capBytes && this.#segments.length > 0) this.#removeOldest();
    }
    return frames;
  }

  #removeOldest(): void {
    const segment = this.#segments.shift();
    if (segment === undefined) return;
    this.#storage.remove(segment.name);
    this.#recent.dropThrough(segment.lastSeq);
    this.#bytes -= segment.bytes;
    this.#firstSeq = segment.lastSeq + 1;
    if (segment.lastSeq > this.#ackedThrough) {
      this.#lostThrough = segment.lastSeq;
      this.#lostReason = "capped";
    }
  }

  #written(segment: Segment, bytes: number, generation: number, error: Error | undefined): void {
    if (generation !== this.#generation) return;
    this.#pendingBytes -= bytes;
    if (error === undefined) segment.written += bytes;
    else this.#dropAll(error);
    this.#onWritten?.();
  }

  /** A write or read failed: free the disk, forget what was stored, keep numbering. */
  #dropAll(error: unknown): void {
    this.#generation += 1;
    this.#pendingBytes = 0;
    this.#diskError = (error as NodeJS.ErrnoException).code ?? "EIO";
    this.removeAll();
    this.#cursor = undefined;
    this.#firstSeq = this.#lastSeq + 1;
    if (this.#lastSeq > this.#ackedThrough) {
      this.#lostThrough = this.#lastSeq;
      this.#lostReason = "disk_full";
    }
  }

  /** The byte position of the first frame in `segment` that covers `start` or later. */
  #find(segment: Segment, start: number): number {
    // The last write that began at or before `start` (binary search), then a scan of that write only.
    let low = 0;
    for (let high = segment.writeSeqs.length - 1; low < high;) {
      const mid = (low + high + 1) >> 1;
      if ((segment.writeSeqs[mid] ?? 0) <= start) low = mid;
      else high = mid - 1;
    }
    let position = segment.writeOffsets[low] ?? 0;
    while (position < segment.written) {
      const chunk = this.#readWhole(segment, position, SCAN_BYTES);
      if (chunk.length === 0) break;
      for (let at = 0; at < chunk.length;) {
        const end = chunk.indexOf(NEWLINE, at);
        if (frameSeq(chunk.subarray(at, end)) >= start) return position + at;
        at = end + 1;
      }
      position += chunk.length;
    }
    return segment.written;
  }

  /** About `wanted` bytes from `position`, cut after the last whole frame (grown to hold one). */
  #readWhole(segment: Segment, position: number, wanted: number): Buffer {
    for (let size = Math.max(wanted, 1); ; size *= 2) {
      const left = segment.written - position;
      if (left <= 0) return EMPTY;
      const chunk = this.#storage.read(segment.name, position, Math.min(size, left));
      const end = chunk.lastIndexOf(NEWLINE);
      if (end >= 0) return chunk.subarray(0, end + 1);
      if (chunk.length >= left || chunk.length === 0) return EMPTY;
    }
  }
}

/** The last number a stored frame covers: its own, or a gap's `to`. */
function frameSeq(frame: Buffer): number {
  if (frame[0] === 0x7b) return (JSON.parse(frame.toString("utf8")) as { to: number }).to;
  return readNumber(frame, 0, numberEnd(frame, 0, frame.length));
}

/** The number of the last frame in `frames` (which end with a newline). */
function lastSeqIn(frames: Buffer): number {
  const start = frames.lastIndexOf(NEWLINE, Math.max(0, frames.length - 2)) + 1;
  return frameSeq(frames.subarray(start, frames.length - 1));
}
