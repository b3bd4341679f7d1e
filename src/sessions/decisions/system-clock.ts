// The real clock for decision timeouts. Timers are unref'd: a pending approval timeout never
// keeps the process alive on its own.
import type { DecisionClock } from "./ports.js";

export function createSystemDecisionClock(): DecisionClock {
  return {
    now: () => Date.now(),
    setTimer(ms, fn) {
      const t = setTimeout(fn, ms);
      t.unref();
      return { cancel: () => clearTimeout(t) };
    },
  };
}
