// The limits on schedules and the checks made when one is created: a refusal carries a code
// and a message a person or the model reads (what happened, then what to do). Pure.
import { canonicalTimeZone, cronProblem, shortestCronGapMs } from "./cron.js";
import { durationInWords, whenInWords } from "./describe.js";
import { NO_CAPS, type ScheduleCaps, type ScheduleKind, type ScheduleTiming } from "./schedule-types.js";

/** `[loops]` caps; every Claude loop gets them when it is made. */
export type LoopCaps = Readonly<{
  /** The shortest interval any recurring loop or chat schedule may have. */
  minIntervalMs: number;
  maxIterations: number;
  maxLifetimeMs: number;
  maxCostUsd: number;
  /** Live (active or paused) loops and chat schedules one chat may have. */
  maxPerChat: number;
}>;

export const DEFAULT_LOOP_CAPS: LoopCaps = Object.freeze({
  minIntervalMs: 60_000,
  maxIterations: 50,
  maxLifetimeMs: 7 * 86_400_000,
  maxCostUsd: 5,
  maxPerChat: 10,
});

export type RefusalCode =
  "loops_off" | "bad_cron" | "bad_zone" | "too_frequent" | "too_many" | "in_past" | "empty_prompt" | "chain_stopped";

export type Refusal = Readonly<{ code: RefusalCode; message: string }>;

export const refusal = (code: RefusalCode, message: string): Refusal => Object.freeze({ code, message });

/**
 * Why this timing cannot be scheduled, or null: a cron expression croner cannot read or that
 * never fires, an unknown zone, an interval shorter than `minIntervalMs`, a time already past.
 */
export function timingRefusal(
  timing: ScheduleTiming,
  timeZone: string,
  minIntervalMs: number,
  nowMs: number,
): Refusal | null {
  if (canonicalTimeZone(timeZone) === null)
    return refusal(
      "bad_zone",
      `"${timeZone}" is not a time zone Telecode knows. Use an IANA name such as "Europe/Berlin" or "UTC".`,
    );
  let shortestMs: number | null;
  switch (timing.kind) {
    case "cron": {
      const problem = cronProblem(timing.cron);
      if (problem !== null)
        return refusal(
          "bad_cron",
          `"${timing.cron}" ${problem}. Use five fields, for example "*/5 * * * *" (every 5 minutes) or "0 9 * * 1-5" (09:00 on weekdays).`,
        );
      shortestMs = shortestCronGapMs(timing.cron, timeZone, nowMs);
      break;
    }
    case "every":
      shortestMs = timing.everyMs;
      break;
    case "once":
      if (timing.atMs <= nowMs)
        return refusal(
          "in_past",
          `${whenInWords(timing.atMs, timeZone, nowMs)} has already passed. Pick a time in the future.`,
        );
      shortestMs = null;
      break;
  }
  if (shortestMs !== null && shortestMs < minIntervalMs)
    return refusal(
      "too_frequent",
      `This would run every ${durationInWords(shortestMs)}, more often than the shortest interval allowed (${durationInWords(minIntervalMs)}). Choose a longer interval, or raise loops.min_interval_seconds in Telecode's config.`,
    );
  return null;
}

export function tooManyRefusal(count: number): Refusal {
  return refusal(
    "too_many",
    `This chat already has ${count} loops and schedules, the most allowed (loops.max_per_chat). Cancel one first (/loops in the chat, or CronDelete with its id).`,
  );
}

export const EMPTY_PROMPT_REFUSAL = refusal(
  "empty_prompt",
  "There is no prompt to run. Say what should be done each time it fires.",
);

/** The caps a new schedule of `kind` carries: Claude's loops get every loop cap; the rest none of them. */
export function capsForKind(kind: ScheduleKind, caps: LoopCaps, nowMs: number): ScheduleCaps {
  if (kind !== "loop" && kind !== "wakeup") return NO_CAPS;
  return Object.freeze({
    ...NO_CAPS,
    maxIterations: caps.maxIterations,
    expiresAt: nowMs + caps.maxLifetimeMs,
    maxCostUsd: caps.maxCostUsd,
  });
}
