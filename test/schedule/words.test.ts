// What people and the model read: schedules in words, the /at and /every parsers (a bad time
// is a usage message, never a run), and the hook denial reasons and CronList answer.
import { describe, expect, it } from "vitest";
import {
  cronDeleteReason,
  cronListReason,
  describeSchedule,
  describeTiming,
  firedPrompt,
  firedTitle,
  loopsOffReason,
  loopStoredReason,
  NO_OVERRIDES,
  parseAt,
  parseEvery,
  refusedReason,
  wakeupStoredReason,
  type ChatCommandResult,
  type Schedule,
} from "../../src/schedule/index.js";

const NOW = Date.parse("2026-06-05T10:00:00Z"); // Friday 12:00 in Berlin
const options = { nowMs: NOW, defaultTimeZone: "Europe/Berlin" };
const ctx = { nowMs: NOW, timeZone: "Europe/Berlin" };

const cron = (expr: string, timeZone = "Europe/Berlin", recurring = true): string =>
  describeTiming({ kind: "cron", cron: expr }, timeZone, recurring, options);

function schedule(over: Partial<Schedule> = {}): Schedule {
  return {
    id: "3f9a2c1b",
    kind: "loop",
    chatId: 42,
    project: "app",
    session: { mode: "id", sessionId: "s-1" },
    timing: { kind: "cron", cron: "*/5 * * * *" },
    timeZone: "Europe/Berlin",
    prompt: "check the build\nand report",
    note: null,
    recurring: true,
    createdBy: { kind: "claude", turn: "toolu_1" },
    createdAt: NOW,
    nextFireAt: NOW + 5 * 60_000,
    lastFiredAt: null,
    lastSlotAt: null,
    iterations: 3,
    busyStreak: 0,
    caps: {
      maxIterations: 50,
      expiresAt: NOW + 7 * 86_400_000,
      maxCostUsd: 5,
      maxRunCostUsd: null,
      maxDayCostUsd: null,
    },
    costUsd: 0.12,
    costDay: "2026-06-05",
    costDayUsd: 0.12,
    state: "active",
    stateReason: null,
    overrides: NO_OVERRIDES,
    attended: false,
    updatedAt: NOW,
    ...over,
  };
}

describe("a schedule in words", () => {
  it("says cron schedules the way a person would", () => {
    expect(cron("*/5 * * * *")).toBe("every 5 minutes");
    expect(cron("* * * * *")).toBe("every minute");
    expect(cron("0 * * * *")).toBe("every hour");
    expect(cron("15 * * * *")).toBe("every hour at :15");
    expect(cron("0 9 * * 1-5")).toBe("at 09:00 on weekdays");
    expect(cron("0 9 * * 1-5", "America/New_York")).toBe("at 09:00 on weekdays, America/New_York");
    expect(cron("30 8 * * *")).toBe("at 08:30 every day");
    expect(cron("0 10 * * 1")).toBe("at 10:00 on Mondays");
    expect(cron("0 10 * * 1,4")).toBe("at 10:00 on Mondays and Thursdays");
    expect(cron("0 9 * * 0,6")).toBe("at 09:00 on weekends");
    expect(cron("0 9,17 * * *")).toBe("at 09:00 and 17:00 every day");
    expect(cron("0 9 1 * *")).toBe("at 09:00 on the 1st of each month");
    expect(cron("0 9 29 2 *")).toBe("at 09:00 on 29 February");
    expect(cron("*/10 9-17 * * 1-5")).toBe('on cron "*/10 9-17 * * 1-5"');
    expect(cron("0,15 * * * *")).toBe('on cron "0,15 * * * *"'); // not every 15 minutes: :00 and :15 only
    expect(cron("0,10,20 * * * *")).toBe('on cron "0,10,20 * * * *"');
    expect(cron("0-4 * * * *")).toBe('on cron "0-4 * * * *"');
  });

  it("says intervals and one-shots, with today, tomorrow or the date", () => {
    const every = (ms: number) => describeTiming({ kind: "every", everyMs: ms, anchorMs: 0 }, "UTC", true, options);
    expect([every(3_600_000), every(2 * 3_600_000), every(90 * 60_000), every(86_400_000)]).toEqual([
      "every hour",
      "every 2 hours",
      "every 90 minutes",
      "every day",
    ]);
    const once = (atMs: number, zone = "Europe/Berlin") => describeTiming({ kind: "once", atMs }, zone, false, options);
    expect(once(Date.parse("2026-06-05T12:30:00Z"))).toBe("once at 14:30 today");
    expect(once(Date.parse("2026-06-06T07:00:00Z"))).toBe("once at 09:00 tomorrow");
    expect(once(Date.parse("2026-06-10T07:00:00Z"))).toBe("once at 09:00 on 10 June");
    expect(once(Date.parse("2027-01-04T08:00:00Z"))).toBe("once at 09:00 on 4 January 2027");
    expect(once(Date.parse("2026-06-05T12:30:00Z"), "UTC")).toBe("once at 12:30 today, UTC");
  });

  it("describes a one-shot cron that has not fired by its one time", () => {
    const s = schedule({
      timing: { kind: "cron", cron: "30 14 * * *" },
      recurring: false,
      nextFireAt: Date.parse("2026-06-05T12:30:00Z"),
    });
    expect(describeSchedule(s, options)).toBe("once at 14:30 today");
    expect(describeSchedule({ ...s, nextFireAt: null }, options)).toBe("once, at 14:30 every day");
  });
});

describe("/at", () => {
  const atMs = (r: ChatCommandResult): number | null =>
    r.ok && r.spec.timing.kind === "once" ? r.spec.timing.atMs : null;

  it("reads durations, clock times, days and dates, and keeps the rest as the prompt", () => {
    expect(parseAt("30m check the deploy", ctx)).toEqual({
      ok: true,
      spec: {
        timing: { kind: "once", atMs: NOW + 30 * 60_000 },
        timeZone: "Europe/Berlin",
        recurring: false,
        prompt: "check the deploy",
      },
    });
    expect(atMs(parseAt("in 2 hours check", ctx))).toBe(NOW + 2 * 3_600_000);
    expect(atMs(parseAt("1h30m check", ctx))).toBe(NOW + 90 * 60_000);
    expect(atMs(parseAt("14:30 check", ctx))).toBe(Date.parse("2026-06-05T12:30:00Z"));
    expect(atMs(parseAt("11:00 check", ctx))).toBe(Date.parse("2026-06-06T09:00:00Z")); // passed today: tomorrow
    expect(atMs(parseAt("tomorrow 9:00 check", ctx))).toBe(Date.parse("2026-06-06T07:00:00Z"));
    expect(atMs(parseAt("5:30pm check", ctx))).toBe(Date.parse("2026-06-05T15:30:00Z"));
    expect(parseAt("9:00 pm call mom", ctx)).toMatchObject({
      spec: { timing: { atMs: Date.parse("2026-06-05T19:00:00Z") }, prompt: "call mom" },
    });
    expect(atMs(parseAt("9 P.M. check", ctx))).toBe(Date.parse("2026-06-05T19:00:00Z"));
    expect(atMs(parseAt("monday 5:30 pm check", ctx))).toBe(Date.parse("2026-06-08T15:30:00Z"));
    expect(atMs(parseAt("tomorrow 9 am check", ctx))).toBe(Date.parse("2026-06-06T07:00:00Z"));
    expect(atMs(parseAt("monday 10:00 check", ctx))).toBe(Date.parse("2026-06-08T08:00:00Z"));
    expect(atMs(parseAt("2026-12-24 18:00 check", ctx))).toBe(Date.parse("2026-12-24T17:00:00Z"));
  });

  it("answers a bad time with a usage message, never a schedule", () => {
    const usage = "Try /at 30m check the deploy, /at 14:30 …, /at tomorrow 9:00 … or /at friday 17:00 ….";
    expect(parseAt("25:00 check", ctx)).toEqual({
      ok: false,
      message: `"25:00" is not a time I can read, so nothing was scheduled. ${usage}`,
    });
    expect(parseAt("soon check", ctx)).toMatchObject({ ok: false });
    expect(parseAt("", ctx)).toEqual({ ok: false, message: `No time was given, so nothing was scheduled. ${usage}` });
    expect(parseAt("30m", ctx)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^There is nothing to run/),
    });
    expect(parseAt("today 9:00 check", ctx)).toEqual({
      ok: false,
      message: "09:00 today has already passed, so nothing was scheduled. Pick a time in the future.",
    });
    expect(parseAt("2026-02-30 10:00 check", ctx)).toMatchObject({
      ok: false,
      message: expect.stringContaining("not a date that exists"),
    });
    expect(parseAt("tomorrow check", ctx)).toMatchObject({
      ok: false,
      message: expect.stringContaining('"tomorrow" needs a time after it'),
    });
    expect(parseAt("0m check", ctx)).toMatchObject({
      ok: false,
      message: expect.stringContaining("less than a minute"),
    });
    const tooFar = `That is more than a year away, so nothing was scheduled. Pick a time within 365 days. ${usage}`;
    expect(parseAt("100000000d check", ctx)).toEqual({ ok: false, message: tooFar });
    expect(parseAt("2027-06-06 9:00 check", ctx)).toEqual({ ok: false, message: tooFar });
    expect(atMs(parseAt("365d check", ctx))).toBe(NOW + 365 * 86_400_000);
  });
});

describe("/every", () => {
  const spec = (r: ChatCommandResult) => (r.ok ? r.spec.timing : r.message);

  it("reads intervals, days of the week at a time, and raw cron", () => {
    expect(spec(parseEvery("2h check the build", ctx))).toEqual({ kind: "every", everyMs: 7_200_000, anchorMs: NOW });
    expect(spec(parseEvery("hour check", ctx))).toEqual({ kind: "every", everyMs: 3_600_000, anchorMs: NOW });
    expect(spec(parseEvery("weekday 9:00 check", ctx))).toEqual({ kind: "cron", cron: "0 9 * * 1-5" });
    expect(spec(parseEvery("day 8:30 check", ctx))).toEqual({ kind: "cron", cron: "30 8 * * *" });
    expect(spec(parseEvery("monday 10:00 check", ctx))).toEqual({ kind: "cron", cron: "0 10 * * 1" });
    expect(spec(parseEvery("mon,thu 10:00 check", ctx))).toEqual({ kind: "cron", cron: "0 10 * * 1,4" });
    expect(spec(parseEvery("weekends 11am check", ctx))).toEqual({ kind: "cron", cron: "0 11 * * 0,6" });
    expect(parseEvery("day 9:30 pm check", ctx)).toMatchObject({
      spec: { timing: { kind: "cron", cron: "30 21 * * *" }, prompt: "check" },
    });
    expect(spec(parseEvery("cron */15 9-17 * * 1-5 check", ctx))).toEqual({ kind: "cron", cron: "*/15 9-17 * * 1-5" });
    expect(parseEvery("weekday 9:00 review yesterday's commits", ctx)).toMatchObject({
      ok: true,
      spec: { recurring: true, prompt: "review yesterday's commits" },
    });
  });

  it("answers a bad time with a usage message, never a schedule", () => {
    expect(spec(parseEvery("fortnight 9:00 check", ctx))).toBe(
      '"fortnight" is not a time I can read, so nothing was scheduled. Try /every 2h check the build, /every day 8:30 …, /every weekday 9:00 … or /every monday 10:00 ….',
    );
    expect(spec(parseEvery("day check", ctx))).toMatch(/^"day" needs a time after it/);
    expect(spec(parseEvery("30s check", ctx))).toMatch(/is not a time I can read/);
    expect(spec(parseEvery("cron 0 9 * * check", ctx))).toMatch(/nothing was scheduled/);
    expect(spec(parseEvery("2h", ctx))).toMatch(/^There is nothing to run/);
    expect(spec(parseEvery("99999999999h check", ctx))).toBe(
      "That is less often than once a year, so nothing was scheduled. Pick an interval of at most 365 days. Try /every 2h check the build, /every day 8:30 …, /every weekday 9:00 … or /every monday 10:00 ….",
    );
    expect(spec(parseEvery("365 days check", ctx))).toMatchObject({ everyMs: 365 * 86_400_000 });
  });
});

describe("what the model reads", () => {
  it("tells the model a loop is stored, when it fires, its limits and how to cancel it", () => {
    expect(loopStoredReason(schedule(), options)).toBe(
      "Scheduled by Telecode (this is not an error): loop 3f9a2c1b, every 5 minutes, next at 12:05 today (at most 50 runs, until 12:00 on 12 June, at most $5.00 in all). " +
        "Each time it fires, Telecode sends the prompt into this session as a new message; nothing is scheduled in the CLI, so do not create it again. " +
        'To stop it, call CronDelete with id "3f9a2c1b" (Claude Code will answer that it has no such job, because Telecode keeps the loop, not Claude Code; Telecode cancels the loop all the same).',
    );
    const wakeup = schedule({
      kind: "wakeup",
      timing: { kind: "once", atMs: NOW + 120_000 },
      recurring: false,
      nextFireAt: NOW + 120_000,
    });
    expect(wakeupStoredReason(wakeup, options)).toMatch(
      /^Scheduled by Telecode \(this is not an error\): this session will be woken at 12:02 today/,
    );
    expect(wakeupStoredReason(wakeup, options)).toMatch(/ScheduleWakeup with stop: true\.$/);
  });

  it("says why nothing was scheduled when loops are off or a cap refused it", () => {
    expect(loopsOffReason("chat")).toBe(
      "Scheduling is turned off in this chat, so nothing was scheduled; the person can turn it on with /loops on. Until then, do the work now.",
    );
    expect(loopsOffReason("everywhere")).toMatch(/\[loops\] enabled = false/);
    expect(refusedReason({ code: "too_many", message: "This chat already has 10 loops." })).toBe(
      "Telecode did not schedule this. This chat already has 10 loops.",
    );
  });

  it("answers CronList with Telecode's loops for the chat, and CronDelete with what happened", () => {
    expect(cronListReason([], options)).toMatch(
      /^Listed by Telecode \(this is not an error\): this chat has no loops\./,
    );
    expect(
      cronListReason(
        [
          schedule(),
          schedule({
            id: "00c0ffee",
            state: "paused",
            caps: { ...schedule().caps, maxIterations: null, maxCostUsd: null },
          }),
        ],
        options,
      ),
    ).toBe(
      [
        "Listed by Telecode (this is not an error): this chat has 2 loops. Telecode keeps them (the CLI's own list is empty by design):",
        '- 3f9a2c1b (loop): every 5 minutes, next at 12:05 today, 3 of 50 runs, $0.12 of $5.00: "check the build"',
        '- 00c0ffee (loop): every 5 minutes, paused, 3 runs, $0.12: "check the build"',
        "Cancel a loop of this session with CronDelete and its id (Claude Code will answer that it has no such job, because Telecode keeps the loop, not Claude Code; Telecode cancels the loop all the same).",
      ].join("\n"),
    );
    expect(cronDeleteReason({ kind: "cancelled", schedule: schedule() })).toBe(
      "Stopped by Telecode (this is not an error): loop 3f9a2c1b is cancelled and will not fire again.",
    );
    expect(cronDeleteReason({ kind: "not_found", id: "nope" })).toMatch(/^There is no loop "nope" in this chat/);
    expect(
      cronDeleteReason({ kind: "already_ended", schedule: schedule({ state: "capped", stateReason: "cost" }) }),
    ).toBe("Loop 3f9a2c1b had already ended (it reached its cost limit); nothing changed.");
  });

  it("starts a fired iteration with which loop it is, the iteration, and how to stop it", () => {
    expect(firedPrompt(schedule(), 4, options)).toBe(
      "[Telecode loop 3f9a2c1b, iteration 4 of at most 50: every 5 minutes. Sent by the schedule, not typed by the person. " +
        'Nobody is watching this run: what would wait for an answer is declined. To stop the loop, call CronDelete with id "3f9a2c1b" (Claude Code will answer that it has no such job, because Telecode keeps the loop, not Claude Code; Telecode cancels the loop all the same).]\n\n' +
        "check the build\nand report",
    );
    expect(firedPrompt(schedule({ kind: "wakeup", prompt: "/loop check CI" }), 2, options)).toBe("/loop check CI");
    const config = schedule({
      id: "config:morning",
      kind: "config",
      createdBy: { kind: "config", configId: "morning" },
      caps: { ...schedule().caps, maxIterations: null },
    });
    expect(firedPrompt(config, 1, options)).toMatch(
      /^\[Telecode schedule "morning" from the config, iteration 1: every 5 minutes\./,
    );
    expect(firedTitle(schedule(), 4, options)).toBe(
      "⏰ loop 3f9a2c1b · run 4 of 50 · every 5 minutes (stop it with /loops): check the build",
    );
    expect(firedTitle(config, 1, options)).toBe(
      "⏰ schedule morning · run 1 · every 5 minutes (pause it with /loops): check the build",
    );
    // Each kind is named as /loops names it.
    expect(firedTitle(schedule({ kind: "chat" }), 2, options)).toMatch(/^⏰ schedule 3f9a2c1b · run 2 of 50 /);
    // A one-shot (a wake-up Claude asked for) has one run: no "run 1 of 50".
    const once = schedule({ recurring: false, timing: { kind: "once", atMs: NOW + 120_000 } });
    expect(firedTitle({ ...once, kind: "wakeup" }, 1, options)).toMatch(
      /^⏰ wake-up loop 3f9a2c1b · once at \S+ today \(stop it with \/loops\): check the build$/,
    );
  });
});
