import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createClockFormatter,
  createLazyClockFormatter,
  excerpt,
  excerptPath,
  formatCount,
  formatDurationMs,
  formatUsd,
  momentInZone,
  sentence,
} from "../../src/domain/index.js";

describe("text helpers", () => {
  it("sentence ends a message with one full stop, never two", () => {
    expect(sentence("no such table: usage_daily")).toBe("no such table: usage_daily.");
    expect(sentence("Could not prepare the folder /p/.telecode.")).toBe("Could not prepare the folder /p/.telecode.");
    expect(sentence("Really?")).toBe("Really?");
    expect(sentence("")).toBe("");
  });

  it("excerpt never cuts an emoji in half", () => {
    expect(excerpt("ab🎉cd", 4)).toBe("ab…");
    expect(excerpt("abc🎉de", 6)).toBe("abc🎉…");
  });

  it("excerpt cuts with an ellipsis and leaves short text alone", () => {
    expect(excerpt("hello", 10)).toBe("hello");
    expect(excerpt("hello world", 6)).toBe("hello…");
  });

  it("excerptPath cuts a path in its middle so its file name stays, or at its end when the name is too long", () => {
    const path = "packages/web/src/components/dashboard/widgets/TimeSeriesChart.test.tsx";
    expect(excerptPath(path, 80)).toBe(path);
    expect(excerptPath(path, 53)).toBe("packages/…/dashboard/widgets/TimeSeriesChart.test.tsx");
    expect(excerptPath(path, 52)).toBe("packages/…/widgets/TimeSeriesChart.test.tsx");
    expect(excerptPath(path, 40)).toBe("packages/…/TimeSeriesChart.test.tsx");
    expect(excerptPath("/home/ann/projects/app/src/a.ts", 20)).toBe("/…/app/src/a.ts");
    expect(excerptPath(path, 20)).toBe("packages/web/src/co…");
    expect(excerptPath("a/b.ts", 4)).toBe("a/b…");
  });

  it("formatCount uses fixed thousands separators", () => {
    expect(formatCount(990021)).toBe("990,021");
    expect(formatCount(-1234567)).toBe("-1,234,567");
    expect(formatCount(12)).toBe("12");
  });

  it("formatDurationMs picks a readable unit", () => {
    expect(formatDurationMs(548)).toBe("548 ms");
    expect(formatDurationMs(1211)).toBe("1.2 s");
    expect(formatDurationMs(8000)).toBe("8 s");
    expect(formatDurationMs(35_400)).toBe("35 s");
    expect(formatDurationMs(125_000)).toBe("2 min 5 s");
    expect(formatDurationMs(3_700_000)).toBe("1 h 1 min");
    expect(formatDurationMs(7_200_000)).toBe("2 h");
    // A week-long limit's wait reads in days, not in hundreds of hours.
    expect(formatDurationMs((6 * 24 + 16) * 3_600_000 + 60_000)).toBe("6 d 16 h");
    expect(formatDurationMs(2 * 24 * 3_600_000)).toBe("2 d");
    expect(formatDurationMs(-1)).toBe("?");
  });

  it("formatUsd keeps up to four decimals below a dollar, and no zeros past the cents", () => {
    expect(formatUsd(0.0016)).toBe("$0.0016");
    expect(formatUsd(0.0364)).toBe("$0.0364");
    expect(formatUsd(0.5)).toBe("$0.50");
    expect(formatUsd(0.01)).toBe("$0.01");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(7.9338)).toBe("$7.93");
  });

  it("clock times are HH:MM in the given zone, independent of the host", () => {
    const utc = createClockFormatter();
    expect(utc.time(1_900_000_000_000)).toBe("17:46");
    expect(createClockFormatter("America/New_York").time(1_900_000_000_000)).toBe("13:46");
    expect(() => createClockFormatter("Nowhere/Atall")).toThrow(RangeError);
  });

  it("a moment is the time today or tomorrow, the day this year, and the year too otherwise or in a replay", () => {
    const utc = createClockFormatter();
    const moment = 1_900_000_000_000; // 2030-03-17 17:46 UTC
    expect(utc.moment(moment, moment + 60_000)).toBe("17:46 today");
    expect(utc.moment(moment, moment - 86_400_000)).toBe("17:46 tomorrow");
    expect(utc.moment(moment, moment - 18 * 3_600_000)).toBe("17:46 tomorrow"); // 23:46 the day before
    expect(utc.moment(moment, moment - 2 * 86_400_000)).toBe("17:46 on 17 March");
    expect(utc.moment(moment, moment + 10 * 86_400_000)).toBe("17:46 on 17 March");
    expect(utc.moment(moment, moment + 365 * 86_400_000)).toBe("17:46 on 17 March 2030");
    expect(utc.moment(moment)).toBe("17:46 on 17 March 2030");
    // Tomorrow across a month's and a year's end, in the zone's own calendar.
    const newYear = Date.parse("2031-01-01T00:30:00Z");
    expect(utc.moment(newYear, Date.parse("2030-12-31T22:00:00Z"))).toBe("00:30 tomorrow");
    expect(createClockFormatter("Asia/Kolkata").moment(newYear, Date.parse("2030-12-31T22:00:00Z"))).toBe(
      "06:00 today",
    );
  });

  it("a moment in a named zone reads as that zone's formatter says, for the words schedules use", () => {
    const moment = 1_900_000_000_000;
    expect(momentInZone(moment, "America/New_York", moment)).toBe("13:46 today");
    expect(momentInZone(moment, "UTC", moment - 86_400_000)).toBe("17:46 tomorrow");
    expect(momentInZone(moment, "UTC", moment)).toBe(createClockFormatter("UTC").moment(moment, moment));
  });

  it("a lazy clock asks for its zone at its first clock time, once, and formats the same", () => {
    const asked: string[] = [];
    const lazy = createLazyClockFormatter(() => {
      asked.push("zone");
      return "America/New_York";
    });
    expect(asked).toEqual([]);
    expect(lazy.time(1_900_000_000_000)).toBe("13:46");
    expect(lazy.moment(1_900_000_000_000, 1_900_000_000_000)).toBe("13:46 today");
    expect(asked).toEqual(["zone"]);
  });

  it("a moment asked again gives what a fresh formatter says, across midnights and years", () => {
    const DAY = 86_400_000;
    // Each zone with its midnight in UTC minutes in early January (Kathmandu is +5:45, Chatham
    // +13:45): days around New Year 2026, times within minutes of those midnights, and few
    // distinct moments, so answers are asked again while the day and the year change.
    const zones: [string, number][] = [
      ["UTC", 0],
      ["America/New_York", 300],
      ["Asia/Kathmandu", -345],
      ["Australia/Lord_Howe", -660],
      ["Pacific/Chatham", -825],
    ];
    const day = fc.integer({ min: 20_452, max: 20_455 });
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.array(
          fc.tuple(
            day,
            fc.constantFrom(-1, 0, 1, 600),
            fc.option(fc.tuple(day, fc.integer({ min: -3, max: 3 }), fc.constantFrom(0, 59_999)), { nil: undefined }),
          ),
          { minLength: 1, maxLength: 60 },
        ),
        ([zone, midnight], asks) => {
          const kept = createClockFormatter(zone);
          for (const [epochDay, epochMinute, now] of asks) {
            const epochMs = epochDay * DAY + (midnight + epochMinute) * 60_000;
            const nowMs = now === undefined ? undefined : now[0] * DAY + (midnight + now[1]) * 60_000 + now[2];
            expect(kept.moment(epochMs, nowMs)).toBe(createClockFormatter(zone).moment(epochMs, nowMs));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
