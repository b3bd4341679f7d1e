// A manual clock for engine unit tests: time moves only when the test advances it.
import type { Clock, TimerHandle } from "../../src/claude/index.js";

export type FakeClock = Clock & { advance(ms: number): void };

export function createFakeClock(startMs = 1_000_000): FakeClock {
  let now = startMs;
  let timers: { at: number; fn: () => void; cancelled: boolean }[] = [];
  return {
    now: () => now,
    setTimer(ms, fn): TimerHandle {
      const timer = { at: now + ms, fn, cancelled: false };
      timers.push(timer);
      return { cancel: () => void (timer.cancelled = true) };
    },
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = timers.filter((t) => !t.cancelled && t.at <= end).sort((a, b) => a.at - b.at)[0];
        if (due === undefined) break;
        now = due.at;
        due.cancelled = true;
        due.fn();
      }
      timers = timers.filter((t) => !t.cancelled);
      now = end;
    },
  };
}
