// The last N bytes of the CLI's stderr, kept for error messages; everything older is dropped
// so a chatty or stuck process cannot grow memory.

export const STDERR_TAIL_BYTES = 64 * 1024;

export class StderrTail {
  readonly #limit: number;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(limitBytes = STDERR_TAIL_BYTES) {
    this.#limit = limitBytes;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > this.#limit * 2) this.#compact();
  }

  #compact(): void {
    const all = Buffer.concat(this.#chunks, this.#bytes);
    const kept = all.subarray(Math.max(0, all.length - this.#limit));
    this.#chunks = [Buffer.from(kept)];
    this.#bytes = kept.length;
  }

  /** The tail as text (at most the limit, trimmed). */
  text(): string {
    this.#compact();
    return (this.#chunks[0] ?? Buffer.alloc(0)).toString("utf8").trim();
  }
}
