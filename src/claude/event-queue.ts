// The single-consumer, in-order event queue between the stdout pipeline and whoever iterates
// a session's events. Nothing is dropped: above the high-water mark it asks its owner to stop
// reading the child's stdout, and below the low-water mark to read again.

export type EventQueueOptions = {
  highWater?: number;
  lowWater?: number;
  /** Called with true when the queue is full (stop producing), false when drained enough. */
  onPressure(full: boolean): void;
  /** Called when the consumer stops iterating early (break / return). */
  onAbandon(): void;
};

export class EventQueue<T> {
  readonly #high: number;
  readonly #low: number;
  readonly #opts: EventQueueOptions;
  #items: T[] = [];
  #head = 0;
  #ended = false;
  #full = false;
  #waiter: ((r: IteratorResult<T>) => void) | undefined;
  #iterated = false;

  constructor(options: EventQueueOptions) {
    this.#opts = options;
    this.#high = options.highWater ?? 256;
    this.#low = options.lowWater ?? Math.floor(this.#high / 4);
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#ended) return;
    const waiter = this.#waiter;
    if (waiter !== undefined) {
      this.#waiter = undefined;
      waiter({ value: item, done: false });
      return;
    }
    this.#items.push(item);
    if (!this.#full && this.size >= this.#high) {
      this.#full = true;
      this.#opts.onPressure(true);
    }
  }

  /** No more items; the consumer finishes after the ones queued. */
  end(): void {
    this.#ended = true;
    const waiter = this.#waiter;
    if (waiter !== undefined && this.size === 0) {
      this.#waiter = undefined;
      waiter({ value: undefined, done: true });
    }
  }

  #take(): T {
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    if (this.#full && this.size <= this.#low) {
      this.#full = false;
      this.#opts.onPressure(false);
    }
    return item;
  }

  /** The one iterator; a second call throws (events go to exactly one consumer). */
  iterate(): AsyncIterableIterator<T> {
    if (this.#iterated) throw new Error("a session's events can be iterated only once");
    this.#iterated = true;
    const iterator: AsyncIterableIterator<T> = {
      [Symbol.asyncIterator]: () => iterator,
      next: () => this.#next(),
      return: () => this.#abandon(),
    };
    return iterator;
  }

  #next(): Promise<IteratorResult<T>> {
    if (this.size > 0) return Promise.resolve({ value: this.#take(), done: false });
    if (this.#ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => {
      this.#waiter = resolve;
    });
  }

  #abandon(): Promise<IteratorResult<T>> {
    if (!this.#ended) this.#opts.onAbandon();
    this.#ended = true;
    this.#items = [];
    this.#head = 0;
    return Promise.resolve({ value: undefined, done: true });
  }
}
