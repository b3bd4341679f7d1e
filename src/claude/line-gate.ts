// Keeps a session's stdout lines in order while a beforeTurnFinished hook is awaited: lines
// processed synchronously until a hook starts, then held in a backlog and drained after it.
// It knows nothing about the lines themselves; the session says how to process and what may skip the wait.

/** While a hook runs, lines wait in a backlog; past this many the session stops reading. */
export const BACKLOG_PAUSE_LINES = 10_000;

export type LineGateOptions<T> = {
  /** Handles one line (`seq` numbers it); returns a promise only when a hook must be awaited before the next line. */
  process(seq: number, item: T): Promise<void> | undefined;
  /** Handles a line at once even while waiting (answers to our own requests); true when it did. */
  bypass(item: T, seq: number): boolean;
  /** The backlog crossed the pause threshold, or drained: re-check whether to keep reading. */
  onPressure(): void;
};

export class LineGate<T> {
  readonly #options: LineGateOptions<T>;
  /** Lines waiting for a hook, oldest first from `#head` (no per-line allocation until one waits). */
  #backlog: { seq: number; item: T }[] = [];
  #head = 0;
  #suspended: Promise<void> | undefined;

  constructor(options: LineGateOptions<T>) {
    this.#options = options;
  }

  /** True while the backlog is long enough that reading should pause. */
  get full(): boolean {
    return this.#backlog.length - this.#head >= BACKLOG_PAUSE_LINES;
  }

  /** Settles once no hook is awaited and the backlog is drained (undefined when idle now). */
  get settled(): Promise<void> | undefined {
    return this.#suspended;
  }

  push(seq: number, item: T): void {
    if (this.#suspended !== undefined) {
      if (this.#options.bypass(item, seq)) return;
      this.#backlog.push({ seq, item });
      if (this.#backlog.length - this.#head === BACKLOG_PAUSE_LINES) this.#options.onPressure();
      return;
    }
    const pending = this.#options.process(seq, item);
    if (pending !== undefined) this.#suspendUntil(pending);
  }

  #suspendUntil(pending: Promise<void>): void {
    this.#suspended = pending.then(async () => {
      while (this.#head < this.#backlog.length) {
        const next = this.#backlog[this.#head] as { seq: number; item: T };
        this.#head += 1;
        const more = this.#options.process(next.seq, next.item);
        if (more !== undefined) await more;
      }
      this.#backlog = [];
      this.#head = 0;
      this.#suspended = undefined;
      this.#options.onPressure();
    });
  }
}
