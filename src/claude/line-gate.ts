// Keeps a session's stdout lines in order while a beforeTurnFinished hook is awaited: lines
// processed synchronously until a hook starts, then held in a backlog and drained after it.
// It knows nothing about the lines themselves; the session says how to process and what may skip the wait.

/** While a hook runs, lines wait in a backlog; past this many the session stops reading. */
export const BACKLOG_PAUSE_LINES = 10_000;

export type LineGateOptions<T> = {
  /** Handles one line; returns a promise only when a hook must be awaited before the next line. */
  process(item: T): Promise<void> | undefined;
  /** Handles a line at once even while waiting (answers to our own requests); true when it did. */
  bypass(item: T): boolean;
  /** The backlog crossed the pause threshold, or drained: re-check whether to keep reading. */
  onPressure(): void;
};

export class LineGate<T> {
  readonly #options: LineGateOptions<T>;
  #backlog: T[] = [];
  #suspended: Promise<void> | undefined;

  constructor(options: LineGateOptions<T>) {
    this.#options = options;
  }

  /** True while the backlog is long enough that reading should pause. */
  get full(): boolean {
    return this.#backlog.length >= BACKLOG_PAUSE_LINES;
  }

  /** Settles once no hook is awaited and the backlog is drained (undefined when idle now). */
  get settled(): Promise<void> | undefined {
    return this.#suspended;
  }

  push(item: T): void {
    if (this.#suspended !== undefined) {
      if (this.#options.bypass(item)) return;
      this.#backlog.push(item);
      if (this.#backlog.length === BACKLOG_PAUSE_LINES) this.#options.onPressure();
      return;
    }
    const pending = this.#options.process(item);
    if (pending !== undefined) this.#suspendUntil(pending);
  }

  #suspendUntil(pending: Promise<void>): void {
    this.#suspended = pending.then(async () => {
      for (let next = this.#backlog.shift(); next !== undefined; next = this.#backlog.shift()) {
        const more = this.#options.process(next);
        if (more !== undefined) await more;
      }
      this.#suspended = undefined;
      this.#options.onPressure();
    });
  }
}
