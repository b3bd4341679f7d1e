// The newest frames of the keeper's log, kept in memory as they were written (no copy), so a
// client that falls a little behind is fed without reading the disk. Only ever a cache of what
// the log holds: whatever the log drops, this drops too.
import { UNTRACKED, type FrameHolds } from "./slab-pool.js";

/** Frames read back from the log, through sequence number `throughSeq`. */
export type LogRead = { frames: Buffer; throughSeq: number };

type Batch = { firstSeq: number; lastSeq: number; frames: Buffer };

const NEWLINE = 0x0a;

export class RecentFrames {
  readonly #limitBytes: number;
  readonly #holds: FrameHolds;
  #batches: Batch[] = [];
  #bytes = 0;

  constructor(limitBytes: number, holds: FrameHolds = UNTRACKED) {
    this.#limitBytes = limitBytes;
    this.#holds = holds;
  }

  /** Frames numbered `firstSeq`…`lastSeq`, just stored (held until dropped); the oldest batches go past the limit. */
  add(frames: Buffer, firstSeq: number, lastSeq: number): void {
    this.#holds.hold(frames);
    this.#batches.push({ firstSeq, lastSeq, frames });
    this.#bytes += frames.length;
    while (this.#bytes > this.#limitBytes && this.#batches.length > 0) this.#dropFirst();
  }

  /** The log removed everything through `seq`. */
  dropThrough(seq: number): void {
    while (this.#batches[0] !== undefined && this.#batches[0].lastSeq <= seq) this.#dropFirst();
  }

  clear(): void {
    for (const batch of this.#batches) this.#holds.release(batch.frames);
    this.#batches = [];
    this.#bytes = 0;
  }

  /** The frames of one batch from number `start` on, when it is still here. */
  from(start: number): LogRead | undefined {
    for (let i = this.#batches.length - 1; i >= 0; i--) {
      const batch = this.#batches[i];
      if (batch === undefined || batch.lastSeq < start) return undefined;
      if (batch.firstSeq > start) continue;
      let offset = 0;
      for (let skip = start - batch.firstSeq; skip > 0; skip--) offset = batch.frames.indexOf(NEWLINE, offset) + 1;
      return { frames: batch.frames.subarray(offset), throughSeq: batch.lastSeq };
    }
    return undefined;
  }

  #dropFirst(): void {
    const first = this.#batches.shift();
    if (first === undefined) return;
    this.#bytes -= first.frames.length;
    this.#holds.release(first.frames);
  }
}
