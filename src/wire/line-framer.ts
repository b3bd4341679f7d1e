// JSONL framing: Buffer chunks of any size and boundary in, complete UTF-8 lines out.
// Works on bytes so a multi-byte character split across chunks is never mangled; does no
// parsing and no I/O. A line over the size limit is dropped (reported), never buffered whole.

/** Default ceiling for one line: real lines reach ~2 MiB (a 1 MB Write echoed twice). */
export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

/** How many leading bytes of a dropped line are kept so the report can show what it was. */
const OVERSIZED_HEAD_BYTES = 256;

const EMPTY = Buffer.alloc(0);
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** A line that was longer than the limit and was dropped. */
export type OversizedLine = {
  /** The line's full length in bytes (without its `\n`). */
  bytes: number;
  maxLineBytes: number;
  /** The first few hundred bytes, decoded, for the warning. */
  head: string;
};

/**
 * Turns bytes [start, end) of `buf` (one line) into text. It must give exactly what
 * `buf.toString("utf8", start, end)` gives; a caller with I/O at hand passes a faster one
 * (claude/line-decoder.ts).
 */
export type LineDecoder = (buf: Buffer, start: number, end: number) => string;

export type LineFramerOptions = {
  /** Called once per complete, non-blank line (the `\n` and a trailing `\r` removed). */
  onLine: (line: string) => void;
  /** Called once per dropped over-long line, after its terminating newline (or at end). */
  onOversizedLine?: (report: OversizedLine) => void;
  /** Lines longer than this many bytes (a trailing `\r` counted, the `\n` not) are dropped. Default 64 MiB. */
  maxLineBytes?: number;
  /** How each line's bytes become text. Default `buf.toString("utf8", start, end)`. */
  decode?: LineDecoder;
};

/** The plain decoder (the default): Buffer's own UTF-8 decoding. */
export const decodeUtf8Line: LineDecoder = (buf, start, end) => buf.toString("utf8", start, end);

/**
 * Splits a byte stream into lines. Call `push` for each chunk and `end` once when the
 * stream closes (it emits a final line that had no newline). Never throws on content.
 */
export class LineFramer {
  readonly #onLine: (line: string) => void;
  readonly #onOversizedLine: ((report: OversizedLine) => void) | undefined;
  readonly #maxLineBytes: number;
  readonly #decode: LineDecoder;
  /** Bytes of the current, unfinished line (only while it fits the limit). */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set while dropping an over-long line: its byte count so far and its head. */
  #skippedBytes = -1;
  #skippedHead: Buffer = EMPTY;

  constructor(options: LineFramerOptions) {
    this.#onLine = options.onLine;
    this.#onOversizedLine = options.onOversizedLine;
    const max = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
    if (!Number.isInteger(max) || max < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${String(max)}`);
    }
    this.#maxLineBytes = max;
    this.#decode = options.decode ?? decodeUtf8Line;
  }

  /** Bytes held for the unfinished line; never above the limit (0 while skipping one). */
  get bufferedBytes(): number {
    return this.#pendingBytes;
  }

  /** Feeds one chunk; emits every line it completes, synchronously, in order. */
  push(chunk: Uint8Array): void {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const length = buf.length;
    let start = 0;
    while (start < length) {
      const newline = buf.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#hold(buf, start, length);
        return;
      }
      if (this.#skippedBytes >= 0) {
        this.#finishSkipped(buf, start, newline);
      } else if (this.#pendingBytes === 0) {
        this.#emitSlice(buf, start, newline);
      } else {
        this.#emitPendingWith(buf, start, newline);
      }
      start = newline + 1;
    }
  }

  /** Ends the stream: a last line without a newline is emitted (or reported if too long). */
  end(): void {
    if (this.#skippedBytes >= 0) {
      this.#finishSkipped(EMPTY, 0, 0);
      return;
    }
    if (this.#pendingBytes > 0) {
      const line = this.#takePending();
      this.#emitSlice(line, 0, line.length);
    }
  }

  /** Keeps the tail of a chunk that has no newline yet, or starts/continues skipping. */
  #hold(buf: Buffer, start: number, end: number): void {
    const size = end - start;
    if (this.#skippedBytes >= 0) {
      this.#skipMore(buf, start, end);
      return;
    }
    if (this.#pendingBytes + size > this.#maxLineBytes) {
      this.#startSkipping(buf, start, end);
      return;
    }
    // No copy: stream chunks are never reused once emitted, and copying would double the
    // cost of multi-chunk lines. Callers that recycle buffers must push a copy.
    this.#pending.push(buf.subarray(start, end));
    this.#pendingBytes += size;
  }

  /** Drops the pending bytes plus [start, end) of `buf`, keeping only a short head. */
  #startSkipping(buf: Buffer, start: number, end: number): void {
    const pieces = this.#pending;
    pieces.push(buf.subarray(start, end));
    const total = this.#pendingBytes + (end - start);
    this.#skippedHead = Buffer.concat(pieces, Math.min(OVERSIZED_HEAD_BYTES, total));
    this.#skippedBytes = total;
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  /** Counts more bytes of a skipped line, keeping only what the head still lacks. */
  #skipMore(buf: Buffer, start: number, end: number): void {
    this.#skippedBytes += end - start;
    const missing = OVERSIZED_HEAD_BYTES - this.#skippedHead.length;
    if (missing > 0) {
      this.#skippedHead = Buffer.concat([this.#skippedHead, buf.subarray(start, Math.min(end, start + missing))]);
    }
  }

  /** Reports the skipped line; `buf`/`start`/`end` is its last piece (before the newline). */
  #finishSkipped(buf: Buffer, start: number, end: number): void {
    this.#skipMore(buf, start, end);
    const report: OversizedLine = {
      bytes: this.#skippedBytes,
      maxLineBytes: this.#maxLineBytes,
      head: this.#skippedHead.toString("utf8"),
    };
    this.#skippedBytes = -1;
    this.#skippedHead = EMPTY;
    this.#onOversizedLine?.(report);
  }

  /** Emits bytes [start, end) of `buf` (newline excluded) as one line, unless blank or too long. */
  #emitSlice(buf: Buffer, start: number, end: number): void {
    if (end - start > this.#maxLineBytes) {
      this.#startSkipping(buf, start, end);
      this.#finishSkipped(EMPTY, 0, 0);
      return;
    }
    if (end > start && buf[end - 1] === CARRIAGE_RETURN) end -= 1;
    if (end === start) return;
    this.#onLine(this.#decode(buf, start, end));
  }

  /** Completes the pending line with bytes [start, end) of `buf`. */
  #emitPendingWith(buf: Buffer, start: number, end: number): void {
    if (this.#pendingBytes + (end - start) > this.#maxLineBytes) {
      this.#startSkipping(buf, start, end);
      this.#finishSkipped(EMPTY, 0, 0);
      return;
    }
    this.#pending.push(buf.subarray(start, end));
    const line = this.#takePending(this.#pendingBytes + (end - start));
    this.#emitSlice(line, 0, line.length);
  }

  #takePending(total = this.#pendingBytes): Buffer {
    const pieces = this.#pending;
    const line = pieces.length === 1 ? (pieces[0] as Buffer) : Buffer.concat(pieces, total);
    this.#pending = [];
    this.#pendingBytes = 0;
    return line;
  }
}
