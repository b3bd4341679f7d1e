// Cron and zone maths (croner underneath), checked as properties over random instants and
// zones: DST changes in both directions, Feb 29, weekday ranges, interval jobs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalTimeZone, cronProblem } from "../../src/schedule/index.js";
import { latestCronSlot, nextCronSlot } from "../../src/schedule/cron.js";
import { countSlots, latestSlot, nextSlot } from "../../src/schedule/timing.js";
import { instantAt, localDateTime } from "../../src/schedule/zone-clock.js";

const DST_ZONES = [
  "Europe/Berlin",
  "Europe/London",
  "America/New_York",
  "America/Santiago",
  "Australia/Sydney",
  "Australia/Lord_Howe", // a 30-minute shift
  "Pacific/Chatham", // +12:45 / +13:45
];
const ALL_ZONES = [...DST_ZONES, "Asia/Kolkata", "UTC"];

const instant = fc.integer({ min: Date.parse("2024-01-01T00:00:00Z"), max: Date.parse("2030-12-31T00:00:00Z") });
const zone = fc.constantFrom(...ALL_ZONES);

/** The first `n` slots after `fromMs`. */
function slots(cron: string, timeZone: string, fromMs: number, n: number): number[] {
  const out: number[] = [];
  let at = fromMs;
  for (let i = 0; i < n; i++) {
    const next = nextCronSlot(cron, timeZone, at);
    if (next === null) break;
    out.push(next);
    at = next;
  }
  return out;
}

const dayKey = (ms: number, timeZone: string): string => {
  const d = localDateTime(ms, timeZone);
  return `${d.year}-${d.month}-${d.day}`;
};

describe("checking expressions and zones", () => {
  it("accepts five-field expressions and names what is wrong with the rest", () => {
    expect(cronProblem("*/5 * * * *")).toBeNull();
    expect(cronProblem("0 9 * * MON-FRI")).toBeNull();
    expect(cronProblem("@daily")).toBeNull();
    expect(cronProblem("* * * * * *")).toBe(
      "has 6 fields; a cron expression has five (minute hour day-of-month month day-of-week)",
    );
    expect(cronProblem("61 * * * *")).toMatch(/minute/);
    expect(cronProblem("0 9 30 2 *")).toBe("never matches a date (check the day and month fields)");
    expect(cronProblem("")).toMatch(/must be a cron expression/);
  });

  it("knows IANA zones, case-insensitively, and refuses offsets and nonsense", () => {
    expect(canonicalTimeZone("europe/berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    expect(canonicalTimeZone("+01:00")).toBeNull();
    expect(canonicalTimeZone("Mars/Olympus")).toBeNull();
    expect(canonicalTimeZone("")).toBeNull();
  });
});

describe("slots across DST changes", () => {
  it("fires a fixed-time daily job exactly once per local day for a year, at its time or just after a gap", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...DST_ZONES),
        instant,
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        (timeZone, from, hour, minute) => {
          const fires = slots(`${minute} ${hour} * * *`, timeZone, from, 370);
          expect(fires).toHaveLength(370);
          expect(new Set(fires.map((f) => dayKey(f, timeZone))).size).toBe(370);
          for (const [i, f] of fires.entries()) {
            if (i > 0) expect(f).toBeGreaterThan(fires[i - 1]!);
            const local = localDateTime(f, timeZone);
            const late = local.hour * 60 + local.minute - (hour * 60 + minute);
            // On time, or (only in a spring-forward gap) up to an hour late.
            expect(late).toBeGreaterThanOrEqual(0);
            expect(late).toBeLessThanOrEqual(60);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it("keeps an interval job on its minutes, in real time, through both changes (whole-hour zones)", () => {
    const hourShift = ["Europe/Berlin", "Europe/London", "America/New_York", "America/Santiago", "Australia/Sydney"];
    // Windows of two days around each change of 2026, in both directions.
    const changes = ["2026-03-08", "2026-03-29", "2026-04-05", "2026-10-04", "2026-10-25", "2026-11-01", "2026-09-06"];
    fc.assert(
      fc.property(
        fc.constantFrom(...hourShift),
        fc.constantFrom(...changes),
        fc.constantFrom(5, 10, 15, 20, 30, 60),
        (timeZone, day, step) => {
          const from = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
          const cron = step === 60 ? "0 * * * *" : `*/${step} * * * *`;
          const fires = slots(cron, timeZone, from, Math.ceil((2 * 24 * 60) / step));
          for (const [i, f] of fires.entries()) {
            expect(localDateTime(f, timeZone).minute % step).toBe(0);
            if (i > 0) expect(f - fires[i - 1]!).toBe(step * 60_000);
          }
        },
      ),
      { numRuns: 20 },
    );
  });

  it("never fires an interval job twice at one instant nor leaves more than its step plus the shift between fires", () => {
    // Lord Howe and Chatham change on 2026-04-05, 2026-09-27 (Chatham) and 2026-10-04 (Lord Howe).
    const around = ["2026-04-03", "2026-09-25", "2026-10-02"].map((d) => Date.parse(`${d}T00:00:00Z`));
    fc.assert(
      fc.property(
        fc.constantFrom("Australia/Lord_Howe", "Pacific/Chatham"),
        fc.constantFrom(...around),
        fc.integer({ min: 0, max: 86_400_000 }),
        (timeZone, day, offset) => {
          const fires = slots("*/20 * * * *", timeZone, day + offset, 300); // 100 hours, across the change
          for (let i = 1; i < fires.length; i++) {
            const gap = fires[i]! - fires[i - 1]!;
            expect(gap).toBeGreaterThan(0);
            expect(gap).toBeLessThanOrEqual(20 * 60_000 + 60 * 60_000);
            expect(localDateTime(fires[i]!, timeZone).minute % 20).toBe(0);
          }
        },
      ),
      { numRuns: 12 },
    );
  });

  it("reads a list of hours as fixed times, like Vixie cron: after a gap once, on a repeated hour once", () => {
    const ny = "America/New_York";
    const iso = (ms: number): string => new Date(ms).toISOString();
    // 2026-03-08: 02:00 EST jumps to 03:00 EDT, so 02:30 fires at 03:00.
    expect(slots("30 2,14 * * *", ny, Date.parse("2026-03-07T20:00:00Z"), 3).map(iso)).toEqual([
      "2026-03-08T07:00:00.000Z", // 03:00 EDT
      "2026-03-08T18:30:00.000Z", // 14:30 EDT
      "2026-03-09T06:30:00.000Z", // 02:30 EDT
    ]);
    // 2025-11-02: 02:00 EDT falls back to 01:00 EST, so 01:00 comes twice and fires the first time.
    expect(slots("0 1,13 * * *", ny, Date.parse("2025-11-01T20:00:00Z"), 3).map(iso)).toEqual([
      "2025-11-02T05:00:00.000Z", // 01:00 EDT
      "2025-11-02T18:00:00.000Z", // 13:00 EST
      "2025-11-03T06:00:00.000Z", // 01:00 EST
    ]);
    expect(iso(latestCronSlot("0 1,13 * * *", ny, Date.parse("2025-11-02T06:30:00Z"))!)).toBe(
      "2025-11-02T05:00:00.000Z",
    );
  });

  it("has no slot between the latest slot at or before an instant and the next one after it", () => {
    fc.assert(
      fc.property(
        zone,
        instant,
        fc.constantFrom(
          "*/7 * * * *",
          "30 2 * * *",
          "0 9 * * 1-5",
          "15 */3 * * *",
          "0 0 1 * *",
          "30 2,14 * * *",
          "0 1-3 * * *",
        ),
        (timeZone, t, cron) => {
          const previous = latestCronSlot(cron, timeZone, t);
          const next = nextCronSlot(cron, timeZone, t);
          expect(previous).not.toBeNull();
          expect(next).not.toBeNull();
          expect(previous!).toBeLessThanOrEqual(t);
          expect(next!).toBeGreaterThan(t);
          expect(nextCronSlot(cron, timeZone, previous!)).toBe(next);
          expect(countSlots({ kind: "cron", cron }, timeZone, previous! - 1, next!)).toBe(2);
        },
      ),
      { numRuns: 100 },
    );
  });
});

describe("calendar edges", () => {
  it("fires a Feb 29 job only on Feb 29 of leap years, four years apart", () => {
    fc.assert(
      fc.property(zone, instant, (timeZone, from) => {
        const [first, second] = slots("0 9 29 2 *", timeZone, from, 2);
        for (const f of [first!, second!]) {
          const local = localDateTime(f, timeZone);
          expect([local.month, local.day, local.hour, local.minute]).toEqual([2, 29, 9, 0]);
          expect(local.year % 4).toBe(0);
        }
        expect(localDateTime(second!, timeZone).year - localDateTime(first!, timeZone).year).toBe(4);
      }),
      { numRuns: 50 },
    );
  });

  it("fires a weekday range only on those days, once per day, every week", () => {
    const ranges: [string, number[]][] = [
      ["1-5", [1, 2, 3, 4, 5]],
      ["MON-FRI", [1, 2, 3, 4, 5]],
      ["0,6", [0, 6]],
      ["5-6", [5, 6]],
      ["1,3,5", [1, 3, 5]],
      ["0-6", [0, 1, 2, 3, 4, 5, 6]],
      ["SUN", [0]],
    ];
    fc.assert(
      fc.property(
        zone,
        instant,
        fc.constantFrom(...ranges),
        fc.integer({ min: 0, max: 23 }),
        (timeZone, from, range, hour) => {
          const [dow, days] = range;
          const fires = slots(`0 ${hour} * * ${dow}`, timeZone, from, days.length * 6);
          const weekdays = fires.map((f) => localDateTime(f, timeZone).weekday);
          expect(new Set(weekdays)).toEqual(new Set(days));
          expect(new Set(fires.map((f) => dayKey(f, timeZone))).size).toBe(fires.length);
          // Six weeks of fires: each day of the range exactly six times.
          for (const d of days) expect(weekdays.filter((w) => w === d)).toHaveLength(6);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("gives the instant of a local time, the first minute after a gap, and null for a date that does not exist", () => {
    expect(instantAt("Europe/Berlin", { year: 2026, month: 3, day: 29 }, 2, 30)).toBe(
      Date.parse("2026-03-29T01:00:00Z"),
    );
    expect(instantAt("Europe/Berlin", { year: 2026, month: 10, day: 25 }, 2, 30)).toBe(
      Date.parse("2026-10-25T00:30:00Z"),
    );
    expect(instantAt("UTC", { year: 2027, month: 2, day: 29 }, 9, 0)).toBeNull();
  });
});

describe("interval and one-shot timings", () => {
  it("counts interval slots from the anchor and a one-shot's only slot", () => {
    fc.assert(
      fc.property(
        instant,
        fc.integer({ min: 1, max: 48 * 60 }),
        fc.integer({ min: 0, max: 10_000_000_000 }),
        (anchorMs, minutes, offset) => {
          const timing = { kind: "every", everyMs: minutes * 60_000, anchorMs } as const;
          const t = anchorMs + offset;
          const next = nextSlot(timing, "UTC", t)!;
          expect(next).toBeGreaterThan(t);
          expect((next - anchorMs) % timing.everyMs).toBe(0);
          expect(next - t).toBeLessThanOrEqual(timing.everyMs);
          const previous = latestSlot(timing, "UTC", t);
          if (previous !== null) expect(nextSlot(timing, "UTC", previous)).toBe(next);
        },
      ),
    );
    const once = { kind: "once", atMs: 5_000 } as const;
    expect([nextSlot(once, "UTC", 4_999), nextSlot(once, "UTC", 5_000)]).toEqual([5_000, null]);
    expect([latestSlot(once, "UTC", 4_999), latestSlot(once, "UTC", 5_000)]).toEqual([null, 5_000]);
  });
});
