// The one manual clock for tests: time moves only when the test moves it (`advance`, or
// `runNext` to jump to the next timer), so timeouts, pacing, backoff and watchdogs are
// stepped through deterministically. Timers fire in time order, then in the order set.
// `sleep` plays the computer sleeping: the wall clock moves on, awake time and timers do not.
import type { Clock } from "../../src/ports/index.js";

export type FakeClock = Clock & {
  /** Moves time forward by `ms`, firing every timer due on the way in time order. */
  advance(ms: number): void;
  /** Moves time to the earliest pending timer and fires it; false when none is pending. */
  runNext(): boolean;
  /**
   * The computer sleeps for `ms`: `now()` moves on by it, `awakeMs()` does not, and every pending
   * timer comes due that much later by the wall clock, as the host's timers (which count awake
   * time) do. Nothing fires.
   */
  sleep(ms: number): void;
  /** Timers set and neither fired nor cancelled. */
  readonly activeTimers: number;
  /** The delays asked of `setTimer`, in order (to check what a caller scheduled). */
  readonly requestedDelaysMs: readonly number[];
};

type Timer = { atMs: number; seq: number; fn: () => void };

export function createFakeClock(startMs = 0): FakeClock {
  let now = startMs;
  let slept = 0;
  let seq = 0;
  const timers = new Map<number, Timer>();
  const requested: number[] = [];
  const next = (untilMs: number): Timer | undefined => {
    let best: Timer | undefined;
    for (const t of timers.values())
      if (t.atMs <= untilMs && (best === undefined || t.atMs < best.atMs || (t.atMs === best.atMs && t.seq < best.seq)))
        best = t;
    return best;
  };
  const fire = (timer: Timer): void => {
    timers.delete(timer.seq);
    now = Math.max(now, timer.atMs);
    timer.fn();
  };
  return {
    now: () => now,
    awakeMs: () => now - slept,
    setTimer(ms, fn) {
      requested.push(ms);
      const timer: Timer = { atMs: now + Math.max(0, ms), seq: ++seq, fn };
      timers.set(timer.seq, timer);
      return { cancel: () => void timers.delete(timer.seq) };
    },
    advance(ms) {
      const end = now + ms;
      for (let due = next(end); due !== undefined; due = next(end)) fire(due);
      now = Math.max(now, end);
    },
    sleep(ms) {
      now += ms;
      slept += ms;
      for (const timer of timers.values()) timer.atMs += ms;
    },
    runNext() {
      const due = next(Number.POSITIVE_INFINITY);
      if (due === undefined) return false;
      fire(due);
      return true;
    },
    get activeTimers() {
      return timers.size;
    },
    get requestedDelaysMs() {
      return requested;
    },
  };
}

/** Anything with pending work and a way to wait for its in-flight calls (the outbox). */
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
