// How fast the outbox may call Telegram, apart from each chat's own interval: the global cap
// (calls per second across every chat) and the one timer that wakes the outbox when the
// earliest call still waiting may go out.
import type { Clock, TimerHandle } from "../ports/index.js";

/** At most `perSecond` calls in any one second. */
export class GlobalCap {
  readonly #perSecond: number;
  /** When each call of the last second went out, oldest first. */
  readonly #recent: number[] = [];

  constructor(perSecond: number) {
    this.#perSecond = perSecond;
  }

  /** A call went out at `now`. */
  record(now: number): void {
    this.#recent.push(now);
  }

  /** When the cap next has room: `now`, or the moment the oldest call that fills it is a second old. */
  slotAt(now: number): number {
    while (this.#recent.length > 0 && this.#recent[0]! <= now - 1000) this.#recent.shift();
    return this.#recent.length < this.#perSecond ? now : this.#recent[this.#recent.length - this.#perSecond]! + 1000;
  }
}

/** One timer for the earliest wake-up asked for: a later one leaves an earlier, still future one standing. */
export class WakeTimer {
  readonly #clock: Clock;
  readonly #wake: () => void;
  #timer: { atMs: number; handle: TimerHandle } | undefined;

  constructor(clock: Clock, wake: () => void) {
    this.#clock = clock;
    this.#wake = wake;
  }

  /** Wakes at `atMs` (infinity: no wake-up needed), unless one at or before it is already due later than `now`. */
  at(atMs: number, now: number): void {
    if (this.#timer !== undefined && this.#timer.atMs <= atMs && this.#timer.atMs > now) return;
    this.cancel();
    if (atMs === Number.POSITIVE_INFINITY) return;
    const handle = this.#clock.setTimer(Math.max(0, atMs - now), () => {
      this.#timer = undefined;
      this.#wake();
    });
    this.#timer = { atMs, handle };
  }

  cancel(): void {
    this.#timer?.handle.cancel();
    this.#timer = undefined;
  }
}
