// A schedule in words for people and for the model: "every 5 minutes", "at 09:00 on weekdays,
// Europe/Berlin", "once at 14:30 today". Pure; cron fields come from croner (cron.ts).
import { momentInZone } from "../domain/index.js";
import { cronFields, type CronFields } from "./cron.js";
import type { Schedule, ScheduleTiming } from "./schedule-types.js";

export type DescribeOptions = Readonly<{
  /** "today" and "tomorrow" are relative to this instant. */
  nowMs: number;
  /** The zone people assume; a schedule in it gets no ", Zone" suffix. */
  defaultTimeZone?: string;
}>;

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MONTH_NAMES = [
  "January",
  "February",
  "March",
  "April",
  "May",
  "June",
  "July",
  "August",
  "September",
  "October",
  "November",
  "December",
];

const pad = (n: number): string => String(n).padStart(2, "0");

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1) ?? ""}`;
}

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${["th", "st", "nd", "rd"][n % 10] ?? "th"}`;
}

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? "" : "s"}`;
}

/** "2 hours", "90 minutes", "1 day", "45 seconds": the largest unit that divides it evenly. */
export function durationInWords(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds % 86_400 === 0) return plural(seconds / 86_400, "day");
  if (seconds % 3600 === 0) return plural(seconds / 3600, "hour");
  if (seconds % 60 === 0) return plural(seconds / 60, "minute");
  return plural(seconds, "second");
}

/** "every 2 hours", with "every hour" rather than "every 1 hour". */
function everyWords(ms: number): string {
  const words = durationInWords(ms);
  return `every ${words.startsWith("1 ") ? words.slice(2) : words}`;
}

/** "14:30 today", "09:00 tomorrow", "09:00 on 3 December" (with the year when it is not this one). */
export function whenInWords(atMs: number, timeZone: string, nowMs: number): string {
  return momentInZone(atMs, timeZone, nowMs);
}

function weekdayWords(days: readonly number[]): string {
  const key = days.join(",");
  if (key === "1,2,3,4,5") return "on weekdays";
  if (key === "0,6") return "on weekends";
  return `on ${list(days.map((d) => `${DAY_NAMES[d] ?? ""}s`))}`;
}

function dayWords(f: CronFields): string | null {
  const allMonths = f.months.length === 12;
  if (f.anyDay && f.anyWeekday) return allMonths ? "every day" : null;
  if (f.anyDay && allMonths) return weekdayWords(f.weekdays);
  if (!f.anyWeekday || f.days.length > 3) return null;
  const days = list(f.days.map(ordinal));
  if (allMonths) return `on the ${days} of each month`;
  if (f.months.length === 1 && f.days.length === 1) return `on ${f.days[0]} ${MONTH_NAMES[(f.months[0] ?? 1) - 1]}`;
  return null;
}

/** Minute-level patterns that say nothing about the day: "every minute", "every 5 minutes", "every hour at :15". */
function minuteWords(f: CronFields): string | null {
  if (f.hours.length !== 24 || !f.anyDay || !f.anyWeekday || f.months.length !== 12) return null;
  if (f.minutes.length === 60) return "every minute";
  const step = f.minutes[1] ?? 60;
  // Evenly spaced from :00 and all through the hour: "0,15" is not every 15 minutes.
  const evenly = f.minutes.length * step === 60 && f.minutes.every((m, i) => m === i * step);
  if (f.minutes.length > 1 && evenly) return `every ${step} minutes`;
  if (f.minutes.length === 1) return f.minutes[0] === 0 ? "every hour" : `every hour at :${pad(f.minutes[0] ?? 0)}`;
  return null;
}

function cronWords(expr: string): { words: string; zoned: boolean } {
  const fallback = { words: `on cron "${expr}"`, zoned: true };
  let f: CronFields;
  try {
    f = cronFields(expr);
  } catch {
    return fallback;
  }
  if (f.special) return fallback;
  const minutes = minuteWords(f);
  if (minutes !== null) return { words: minutes, zoned: false };
  if (f.hours.length * f.minutes.length > 4) return fallback;
  const days = dayWords(f);
  if (days === null) return fallback;
  const times = f.hours.flatMap((h) => f.minutes.map((m) => `${pad(h)}:${pad(m)}`));
  return { words: `at ${list(times)} ${days}`, zoned: true };
}

/** A timing in words, e.g. "at 09:00 on weekdays, Europe/Berlin" or "once at 14:30 today". */
export function describeTiming(
  timing: ScheduleTiming,
  timeZone: string,
  recurring: boolean,
  options: DescribeOptions,
): string {
  const zone = timeZone === options.defaultTimeZone ? "" : `, ${timeZone}`;
  switch (timing.kind) {
    case "every":
      return everyWords(timing.everyMs);
    case "once":
      return `once at ${whenInWords(timing.atMs, timeZone, options.nowMs)}${zone}`;
    case "cron": {
      const { words, zoned } = cronWords(timing.cron);
      return `${recurring ? "" : "once, "}${words}${zoned ? zone : ""}`;
    }
  }
}

/** A schedule in words; a one-shot cron that has not fired yet is described by its one time. */
export function describeSchedule(schedule: Schedule, options: DescribeOptions): string {
  const { timing, timeZone, recurring, nextFireAt } = schedule;
  if (!recurring && timing.kind === "cron" && nextFireAt !== null)
    return describeTiming({ kind: "once", atMs: nextFireAt }, timeZone, false, options);
  return describeTiming(timing, timeZone, recurring, options);
}
