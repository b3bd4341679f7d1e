// Cron and time-zone maths, all from croner (no hand-written cron parsing): checking an
// expression, the next and the latest slot in an IANA zone, the fields for describing it.
// Five-field expressions only (minute precision), read the way Vixie cron reads them.
import { Cron, CronPattern } from "croner";

// "no-wildcard": a minute and hour without `*` or a step is a fixed time, lists and ranges too
// (`30 2,14 * * *`), as in Vixie cron. Across DST such a time in the gap fires at the first
// minute after it, and one that occurs twice fires once; croner's default counts only single
// values, and would skip or repeat the others.
const OPTIONS = { mode: "5-part", domAndDow: false, fixedTimeRule: "no-wildcard" } as const;

function cronIn(expr: string, timeZone: string): Cron {
  return new Cron(expr, { ...OPTIONS, timezone: timeZone });
}

/**
 * Why `expr` cannot be used as a schedule ("is not a 5-field cron expression: …", "never
 * matches a date"), or null when it can. The text completes a sentence that starts with the
 * expression or the key that holds it.
 */
export function cronProblem(expr: string): string | null {
  if (expr.trim() === "") return 'must be a cron expression such as "0 9 * * 1-5"';
  const fields = expr.trim().split(/\s+/).length;
  if (!expr.trim().startsWith("@") && fields !== 5)
    return `has ${fields} field${fields === 1 ? "" : "s"}; a cron expression has five (minute hour day-of-month month day-of-week)`;
  let cron: Cron;
  try {
    cron = cronIn(expr, "UTC");
  } catch (error) {
    const detail = (error instanceof Error ? error.message : String(error))
      .replace(/^CronPattern: /, "")
      .replace(/\.$/, "");
    return `is not a 5-field cron expression (minute hour day-of-month month day-of-week): ${detail}`;
  }
  if (cron.nextRun(new Date(0)) === null) return "never matches a date (check the day and month fields)";
  return null;
}

/**
 * The zone's canonical IANA name ("europe/berlin" → "Europe/Berlin"), or null when the
 * runtime does not know it. Fixed offsets like "+01:00" are refused: a schedule needs a zone.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (zone.trim() === "" || /^[+-]\d/.test(zone)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The first slot strictly after `afterMs` (epoch ms), or null when there is none. Throws on a bad expression. */
export function nextCronSlot(expr: string, timeZone: string, afterMs: number): number | null {
  return cronIn(expr, timeZone).nextRun(new Date(afterMs))?.getTime() ?? null;
}

/** The latest slot at or before `atMs`, or null when there is none. Throws on a bad expression. */
export function latestCronSlot(expr: string, timeZone: string, atMs: number): number | null {
  return (
    cronIn(expr, timeZone)
      .previousRuns(1, new Date(atMs + 1))[0]
      ?.getTime() ?? null
  );
}

/**
 * The shortest gap between consecutive slots among the next `samples` slots after `fromMs`,
 * in ms; null when it fires fewer than twice. Enough to catch "every minute" in an hour range.
 */
export function shortestCronGapMs(expr: string, timeZone: string, fromMs: number, samples = 200): number | null {
  const runs = cronIn(expr, timeZone).nextRuns(samples, new Date(fromMs));
  let shortest: number | null = null;
  for (let i = 1; i < runs.length; i++) {
    const gap = (runs[i]?.getTime() ?? 0) - (runs[i - 1]?.getTime() ?? 0);
    if (shortest === null || gap < shortest) shortest = gap;
  }
  return shortest;
}

/** The fields croner read from `expr` (minutes, hours, days … as flags), for putting it into words. */
export type CronFields = Readonly<{
  minutes: readonly number[];
  hours: readonly number[];
  /** Days of the month, 1–31. */
  days: readonly number[];
  /** Months, 1–12. */
  months: readonly number[];
  /** Days of the week, 0 (Sunday) – 6. */
  weekdays: readonly number[];
  anyDay: boolean;
  anyWeekday: boolean;
  /** L, W, nth weekday (#): shapes too unusual to put into words. */
  special: boolean;
}>;

const ANY_OCCURRENCE = 63;

/** croner's reading of `expr`; throws on a bad expression. */
export function cronFields(expr: string): CronFields {
  const p = new CronPattern(expr, undefined, { mode: OPTIONS.mode });
  const set = (flags: readonly number[], offset = 0): number[] =>
    flags.flatMap((flag, index) => (flag !== 0 ? [index + offset] : []));
  return {
    minutes: set(p.minute),
    hours: set(p.hour),
    days: set(p.day, 1),
    months: set(p.month, 1),
    weekdays: [...new Set(set(p.dayOfWeek).map((d) => d % 7))].sort((a, b) => a - b),
    anyDay: p.starDOM,
    anyWeekday: p.starDOW,
    special:
      p.lastDayOfMonth ||
      p.lastWeekday ||
      p.nearestWeekdays.some((n) => n !== 0) ||
      p.dayOfWeek.some((flag) => flag !== 0 && flag !== ANY_OCCURRENCE),
  };
}
