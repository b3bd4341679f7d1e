// Wall-clock reading in an IANA zone: the local date and time of an instant (Intl), and the
// instant of a local date and time (croner, which knows the DST gaps). Pure.
import { Cron } from "croner";

export type LocalDate = Readonly<{ year: number; month: number; day: number }>;
export type LocalDateTime = LocalDate & Readonly<{ hour: number; minute: number; weekday: number }>;

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];

/** The date and time `atMs` shows on a clock in `timeZone` (month 1–12, weekday 0 = Sunday). */
export function localDateTime(atMs: number, timeZone: string): LocalDateTime {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    weekday: "short",
  }).formatToParts(new Date(atMs));
  const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? "";
  return {
    year: Number(part("year")),
    month: Number(part("month")),
    day: Number(part("day")),
    hour: Number(part("hour")) % 24,
    minute: Number(part("minute")),
    weekday: WEEKDAYS.indexOf(part("weekday")),
  };
}

/** The calendar day `days` after `date` (negative: before). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** "YYYY-MM-DD" of a local date. */
export function isoDay(date: LocalDate): string {
  const pad = (n: number): string => String(n).padStart(2, "0");
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`;
}

/** The calendar day (YYYY-MM-DD) it is at `atMs` in `timeZone`: what a day's spending counts towards. */
export function dayIn(atMs: number, timeZone: string): string {
  return isoDay(localDateTime(atMs, timeZone));
}

/**
 * The instant a clock in `timeZone` shows `hour:minute` on `date`; a time that the clock skips
 * (spring forward) gives the first minute after the gap, a time it shows twice the first one.
 * Null when the date does not exist (30 February).
 */
export function instantAt(timeZone: string, date: LocalDate, hour: number, minute: number): number | null {
  const pattern = `0 ${minute} ${hour} ${date.day} ${date.month} * ${date.year}`;
  const from = new Date(Date.UTC(date.year, date.month - 1, date.day) - 2 * 86_400_000);
  try {
    return new Cron(pattern, { mode: "7-part", timezone: timeZone }).nextRun(from)?.getTime() ?? null;
  } catch {
    return null;
  }
}
