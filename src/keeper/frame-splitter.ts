// Cuts a byte stream into `\n`-terminated frames without decoding them: the keeper copies CLI
// lines into its log and socket as bytes, and the client decodes each payload once. A frame
// over the size limit is skipped (reported with its length), never buffered whole.
import type { SlabPool } from "./slab-pool.js";

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export type FrameSplitterOptions = {
  /** Each complete, non-empty frame: bytes [start, end) of `buffer`, newline and a trailing `\r` excluded. Valid only during the call. */
  onFrame(buffer: Buffer, start: number, end: number): void;
  /** A frame longer than `maxFrameBytes` was dropped. */
  onOversized(bytes: number): void;
  maxFrameBytes: number;
};

export class FrameSplitter {
  readonly #o: FrameSplitterOptions;
  /** The unfinished frame's pieces (while it fits the limit). */
  #pieces: Buffer[] = [];
  #pendingBytes = 0;
  /** Bytes of a frame being skipped for its size; -1 when none is. */
  #skipped = -1;

  constructor(options: FrameSplitterOptions) {
    this.#o = options;
  }

  push(chunk: Buffer): void {
    let at = 0;
    for (let newline = chunk.indexOf(NEWLINE); newline !== -1; newline = chunk.indexOf(NEWLINE, at)) {
      if (this.#skipped >= 0) this.#endSkip(newline - at);
      else if (this.#pendingBytes === 0) this.#emit(chunk, at, newline);
      else {
        this.#pieces.push(chunk.subarray(at, newline));
        const whole = Buffer.concat(this.#pieces, this.#pendingBytes + newline - at);
        this.#pieces = [];
        this.#pendingBytes = 0;
        this.#emit(whole, 0, whole.length);
      }
      at = newline + 1;
    }
    if (at < chunk.length) this.#hold(chunk.subarray(at));
  }

  /** The stream ended: a last frame without its newline still counts. */
  end(): void {
    if (this.#skipped >= 0) this.#endSkip(0);
    else if (this.#pendingBytes > 0) this.push(Buffer.from([NEWLINE]));
  }

  #emit(buffer: Buffer, start: number, end: number): void {
    if (end - start > this.#o.maxFrameBytes) {
      this.#o.onOversized(end - start);
      return;
    }
    if (end > start && buffer[end - 1] === CARRIAGE_RETURN) end -= 1;
    if (end > start) this.#o.onFrame(buffer, start, end);
  }

  #hold(rest: Buffer): void {
    if (this.#skipped >= 0) this.#skipped += rest.length;
    else if (this.#pendingBytes + rest.length > this.#o.maxFrameBytes) {
      this.#skipped = this.#pendingBytes + rest.length;
      this.#pieces = [];
      this.#pendingBytes = 0;
    } else {
      // Stream chunks are never reused, so holding a view instead of a copy is safe.
      this.#pieces.push(rest);
      this.#pendingBytes += rest.length;
    }
  }

  #endSkip(lastPieceBytes: number): void {
    const bytes = this.#skipped + lastPieceBytes;
    this.#skipped = -1;
    this.#o.onOversized(bytes);
  }
}

/** Where the space after a numbered frame's digits is (`<digits> <payload>` in [start, end)), or -1 for a JSON frame. */
export function numberEnd(buffer: Buffer, start: number, end: number): number {
  for (let i = start; i < end && i - start <= 15; i++) {
    const byte = buffer[i] ?? 0;
    if (byte === 0x20) return i > start ? i : -1;
    if (byte < 0x30 || byte > 0x39) return -1;
  }
  return -1;
}

/** The number written in bytes [start, end) (digits only, as `numberEnd` found them). */
export function readNumber(buffer: Buffer, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) n = n * 10 + (buffer[i] ?? 0x30) - 0x30;
  return n;
}

/** Frames are built into slabs this large, so a batch costs no allocation of its own. */
export const SLAB_BYTES = 4 * 1024 * 1024;

/**
 * Builds numbered frames (`<seq> <bytes>\n`) by copying bytes, batch after batch into one slab:
 * the keeper's log and socket take the same bytes, with no decoding and little garbage. With
 * a pool, a slab it moved on from goes back to the pool once every holder released it.
 */
export class FrameBuilder {
  readonly #pool: SlabPool | undefined;
  #slab: Buffer = Buffer.alloc(0);
  /** Where the current batch starts in the slab, and how long it is. */
  #start = 0;
  #length = 0;
  #count = 0;

  constructor(pool?: SlabPool) {
    this.#pool = pool;
  }

  /** Starts a batch, with room for about `bytes` (it grows when needed). */
  begin(bytes: number): void {
    this.#start += this.#length;
    this.#length = 0;
    this.#count = 0;
    if (this.#start + bytes > this.#slab.length) this.#newSlab(bytes);
  }

  get count(): number {
    return this.#count;
  }

  add(seq: number, source: Buffer, start: number, end: number): void {
    if (this.#start + this.#length + 18 + (end - start) > this.#slab.length)
      this.#newSlab(this.#length + 18 + (end - start));
    const slab = this.#slab;
    let at = this.#start + this.#length;
    let digits = 1;
    for (let rest = seq; rest >= 10; rest = Math.floor(rest / 10)) digits++;
    for (let i = digits - 1, rest = seq; i >= 0; i--, rest = Math.floor(rest / 10)) slab[at + i] = 0x30 + (rest % 10);
    at += digits;
    slab[at++] = 0x20;
    at += source.copy(slab, at, start, end);
    slab[at++] = NEWLINE;
    this.#length = at - this.#start;
    this.#count++;
  }

  /** The batch's frames. The slab is never written there again while they are held, so the socket may keep them. */
  take(): Buffer {
    const frames = this.#slab.subarray(this.#start, this.#start + this.#length);
    this.begin(0);
    return frames;
  }

  /** Moves the current batch to a fresh slab with room for `bytes` more. */
  #newSlab(bytes: number): void {
    const wanted = 2 * (this.#length + bytes);
    // A pool's slabs are its size (at least); without one, SLAB_BYTES.
    const slab =
      this.#pool === undefined ? Buffer.allocUnsafe(Math.max(SLAB_BYTES, wanted)) : this.#pool.acquire(wanted);
    this.#slab.copy(slab, 0, this.#start, this.#start + this.#length);
    this.#pool?.release(this.#slab);
    this.#slab = slab;
    this.#start = 0;
  }
}
