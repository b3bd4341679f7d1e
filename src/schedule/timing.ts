// Slots of any timing (cron, a fixed interval, a single time): the next one after an instant
// and the latest one not after it. Pure; cron maths comes from cron.ts (croner).
import { latestCronSlot, nextCronSlot } from "./cron.js";
import type { ScheduleTiming } from "./schedule-types.js";

export const MINUTE_MS = 60_000;

/** The first slot strictly after `afterMs`, or null when the timing has none left. */
export function nextSlot(timing: ScheduleTiming, timeZone: string, afterMs: number): number | null {
  switch (timing.kind) {
    case "cron":
      return nextCronSlot(timing.cron, timeZone, afterMs);
    case "every": {
      if (afterMs < timing.anchorMs) return timing.anchorMs + timing.everyMs;
      const steps = Math.floor((afterMs - timing.anchorMs) / timing.everyMs) + 1;
      return timing.anchorMs + steps * timing.everyMs;
    }
    case "once":
      return timing.atMs > afterMs ? timing.atMs : null;
  }
}

/** The latest slot at or before `atMs` (the anchor itself is no slot of an interval), or null. */
export function latestSlot(timing: ScheduleTiming, timeZone: string, atMs: number): number | null {
  switch (timing.kind) {
    case "cron":
      return latestCronSlot(timing.cron, timeZone, atMs);
    case "every": {
      const steps = Math.floor((atMs - timing.anchorMs) / timing.everyMs);
      return steps >= 1 ? timing.anchorMs + steps * timing.everyMs : null;
    }
    case "once":
      return timing.atMs <= atMs ? timing.atMs : null;
  }
}

/**
 * How many slots fall in (`fromMs`, `toMs`], counting at most `limit` (a loop that was down for
 * a month must not walk every minute of it).
 */
export function countSlots(
  timing: ScheduleTiming,
  timeZone: string,
  fromMs: number,
  toMs: number,
  limit = 1000,
): number {
  let count = 0;
  let at = nextSlot(timing, timeZone, fromMs);
  while (at !== null && at <= toMs && count < limit) {
    count++;
    at = nextSlot(timing, timeZone, at);
  }
  return count;
}

/** The start of the minute `atMs` is in. */
export function minuteStart(atMs: number): number {
  return Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
}
