// A clock for outbox tests: time moves only when the test moves it, so pacing, backoff and
// retry_after are stepped through deterministically while real HTTP calls complete.

import type { OutboxClock, OutboxTimer } from "../../src/telegram/index.js";

type Timer = { atMs: number; seq: number; fn: () => void; cancelled: boolean };

export class FakeClock implements OutboxClock {
  #now: number;
  #seq = 0;
  #timers: Timer[] = [];

  constructor(startMs: number) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, fn: () => void): OutboxTimer {
    const timer: Timer = { atMs: this.#now + Math.max(0, ms), seq: this.#seq++, fn, cancelled: false };
    this.#timers.push(timer);
    return { cancel: () => void (timer.cancelled = true) };
  }

  /** Moves time to the earliest pending timer and fires it; false when none is pending. */
  runNext(): boolean {
    this.#timers = this.#timers.filter((t) => !t.cancelled);
    const next = this.#timers.sort((a, b) => a.atMs - b.atMs || a.seq - b.seq).shift();
    if (next === undefined) return false;
    this.#now = Math.max(this.#now, next.atMs);
    next.fn();
    return true;
  }
}

/** Anything with pending work and a way to wait for its in-flight calls. */
export type Drivable = { idle(): Promise<void>; pending(): number };

/**
 * Lets real calls finish and fires timers until `subject` has nothing left (or `until`
 * holds). Throws if work is pending but nothing could ever move it.
 */
export async function driveUntilDone(subject: Drivable, clock: FakeClock, until?: () => boolean): Promise<void> {
  for (let steps = 0; steps < 10_000; steps++) {
    await subject.idle();
    if (until?.() === true || (until === undefined && subject.pending() === 0)) return;
    if (!clock.runNext()) throw new Error(`stuck: ${subject.pending()} item(s) pending and no timer set`);
  }
  throw new Error("did not finish in 10,000 steps");
}
