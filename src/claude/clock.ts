// Time for the engine: "now" and one-shot timers, injected so tests can control them.
// The system clock is the only implementation here; no other file calls setTimeout directly.

export type TimerHandle = { cancel(): void };

export type Clock = {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds unless cancelled. Never keeps the process alive. */
  setTimer(ms: number, fn: () => void): TimerHandle;
};

export function createSystemClock(): Clock {
  return {
    now: () => Date.now(),
    setTimer(ms, fn) {
      const t = setTimeout(fn, ms);
      t.unref();
      return { cancel: () => clearTimeout(t) };
    },
  };
}
