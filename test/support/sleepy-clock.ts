// The system clock on the host's real timers, with a wall clock the test can move ahead as a
// computer's sleep does: `now()` jumps, awake time and the timers pending do not. (A real sleep
// also holds the timers back; the jump is what Telecode can see of it either way.)
import { createSystemClock, type Clock } from "../../src/ports/index.js";

export type SleepyClock = Clock & {
  /** The computer "slept" for `ms`: the wall clock is that much further on from now. */
  sleep(ms: number): void;
};

export function createSleepyClock(options: { keepsProcessAlive?: boolean } = {}): SleepyClock {
  let slept = 0;
  const clock = createSystemClock({
    ...options,
    host: {
      now: () => Date.now() + slept,
      awakeMs: () => performance.now(),
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (timer) => clearTimeout(timer as NodeJS.Timeout),
      unref: (timer) => void (timer as NodeJS.Timeout).unref(),
    },
  });
  return {
    ...clock,
    sleep(ms) {
      slept += ms;
    },
  };
}
