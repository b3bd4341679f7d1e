// The scheduler firing config schedules on a manual clock and a real SQLite store: each slot
// once, across DST in both directions, Feb 29, weekday ranges, restarts, run_once, busy sessions.
import { describe, expect, it } from "vitest";
import { noticeHtml } from "../../src/cli/compose/schedule-words.js";
import { MAX_TIMER_MS, ScheduleError, type SchedulerEvent } from "../../src/schedule/index.js";
import { openStore } from "../../src/store/index.js";
import { at, configEntry, isoTimes, SETTINGS, useSchedulerHarness } from "./harness.js";

const harness = useSchedulerHarness();

describe("firing", () => {
  it("fires a weekday schedule at 09:00 Berlin time on weekdays only, once each", async () => {
    const h = harness("2026-06-05T06:00:00Z"); // a Friday
    h.scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * 1-5" })]);
    h.scheduler.start();
    await h.advanceTo(at("2026-06-10T12:00:00Z"));
    expect(isoTimes(h.fires)).toEqual([
      "2026-06-05T07:00:00.000Z", // Friday 09:00 CEST
      "2026-06-08T07:00:00.000Z", // Monday
      "2026-06-09T07:00:00.000Z",
      "2026-06-10T07:00:00.000Z",
    ]);
    expect(h.fires.map((f) => f.iteration)).toEqual([1, 2, 3, 4]);
    expect(h.fires[0]?.schedule).toMatchObject({ id: "config:morning", kind: "config", chatId: 42, project: "app" });
  });

  it("records the fire in SQLite before the run starts, so a crash then cannot repeat it", async () => {
    const h = harness("2026-06-05T06:59:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * *" })]);
    let seenByAnotherConnection: unknown;
    h.answer((s) => {
      const other = openStore(h.dir);
      seenByAnotherConnection = other.schedules.get(s.id);
      other.close();
      return "started";
    });
    h.scheduler.start();
    await h.advance(60_000);
    expect(seenByAnotherConnection).toMatchObject({
      lastFiredAt: at("2026-06-05T07:00:00Z"),
      iterations: 1,
      nextFireAt: at("2026-06-06T07:00:00Z"),
    });
  });

  it("never fires a slot again after a crash between recording and starting the run", async () => {
    const h = harness("2026-06-05T06:59:00Z");
    const entry = configEntry({ id: "morning", cron: "0 9 * * *" });
    h.scheduler.replaceConfigSchedules([entry]);
    h.answer(() => {
      h.shutDown(); // the process dies right after the fire was recorded
      return "started";
    });
    h.scheduler.start();
    await h.advance(60_000);
    h.answer(() => "started");
    await h.startUp({ config: [entry] });
    await h.advanceTo(at("2026-06-05T20:00:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T07:00:00.000Z"]);
  });

  it("reaches a slot months away by re-arming (no timer longer than an hour)", async () => {
    const h = harness("2027-11-20T00:00:00Z"); // 101 days before, beyond any single timer's reach
    h.scheduler.replaceConfigSchedules([configEntry({ id: "leap", cron: "0 9 29 2 *", timeZone: "UTC" })]);
    h.scheduler.start();
    expect(h.store.schedules.get("config:leap")?.nextFireAt).toBe(at("2028-02-29T09:00:00Z"));
    await h.advanceTo(at("2028-03-01T00:00:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2028-02-29T09:00:00.000Z"]);
    expect(h.longestTimerMs()).toBe(MAX_TIMER_MS);
  });
});

describe("daylight saving time", () => {
  it("fires a 02:30 job once on the night clocks spring forward (at 03:00) and once when they fall back", async () => {
    const entry = configEntry({ id: "night", cron: "30 2 * * *", timeZone: "Europe/Berlin" });
    const spring = harness("2026-03-28T12:00:00Z");
    spring.scheduler.replaceConfigSchedules([entry]);
    spring.scheduler.start();
    await spring.advanceTo(at("2026-03-31T00:00:00Z"));
    expect(isoTimes(spring.fires)).toEqual([
      "2026-03-29T01:00:00.000Z", // 02:30 does not exist; 03:00 CEST is the first minute after the gap
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
    const h = harness("2026-10-24T12:00:00Z");
    h.scheduler.replaceConfigSchedules([entry]);
    h.scheduler.start();
    await h.advanceTo(at("2026-10-27T00:00:00Z"));
    expect(isoTimes(h.fires)).toEqual([
      "2026-10-25T00:30:00.000Z", // 02:30 CEST, the first of the two 02:30s
      "2026-10-26T01:30:00.000Z", // 02:30 CET
    ]);
  });

  it("keeps an interval job on its minutes through both changes in New York", async () => {
    const entry = configEntry({ id: "tick", cron: "0 * * * *", timeZone: "America/New_York" });
    const spring = harness("2026-03-08T05:50:00Z"); // 00:50 EST, the night clocks spring forward
    spring.scheduler.replaceConfigSchedules([entry]);
    spring.scheduler.start();
    await spring.advanceTo(at("2026-03-08T09:10:00Z"));
    // 01:00 EST, then 03:00 EDT (02:00 does not exist), 04:00, 05:00 EDT: one fire per real hour.
    expect(isoTimes(spring.fires)).toEqual([
      "2026-03-08T06:00:00.000Z",
      "2026-03-08T07:00:00.000Z",
      "2026-03-08T08:00:00.000Z",
      "2026-03-08T09:00:00.000Z",
    ]);
    const h = harness("2026-11-01T04:50:00Z"); // 00:50 EDT, the night clocks fall back
    h.scheduler.replaceConfigSchedules([entry]);
    h.scheduler.start();
    await h.advanceTo(at("2026-11-01T08:10:00Z"));
    // 01:00 EDT, 01:00 EST (the hour repeats), 02:00 EST, 03:00 EST.
    expect(isoTimes(h.fires)).toEqual([
      "2026-11-01T05:00:00.000Z",
      "2026-11-01T06:00:00.000Z",
      "2026-11-01T07:00:00.000Z",
      "2026-11-01T08:00:00.000Z",
    ]);
  });
});

describe("restarts", () => {
  it("fires an overdue slot once after a restart within the grace, not once per missed slot", async () => {
    const h = harness("2026-06-05T06:01:00Z");
    const entry = configEntry({ id: "quarter", cron: "*/15 * * * *" });
    h.scheduler.replaceConfigSchedules([entry]);
    h.scheduler.start();
    await h.advanceTo(at("2026-06-05T06:50:00Z"));
    expect(h.fires).toHaveLength(3); // 06:15, 06:30, 06:45
    h.shutDown();
    h.clock.advance(40 * 60_000); // down from 06:50 to 07:30: 07:00, 07:15 and 07:30 pass
    await h.startUp({ config: [entry] });
    expect(isoTimes(h.fires.slice(3))).toEqual(["2026-06-05T07:30:00.000Z"]);
    await h.advanceTo(at("2026-06-05T07:46:00Z"));
    expect(isoTimes(h.fires.slice(3))).toEqual(["2026-06-05T07:30:00.000Z", "2026-06-05T07:45:00.000Z"]);
    expect(h.events).toEqual([]);
  });

  it("fires a slot that passed while Telecode was down, across the fire time", async () => {
    const h = harness("2026-06-05T06:58:00Z");
    const entry = configEntry({ id: "morning", cron: "0 9 * * *" });
    h.scheduler.replaceConfigSchedules([entry]);
    h.scheduler.start();
    h.shutDown();
    h.clock.advance(10 * 60_000); // 08:58 → 09:08 Berlin: the 09:00 slot passes while down
    await h.startUp({ config: [entry] });
    expect(h.fires.map((f) => [new Date(f.at).toISOString(), f.iteration])).toEqual([["2026-06-05T07:08:00.000Z", 1]]);
    await h.startUp({ config: [entry] });
    expect(h.fires).toHaveLength(1);
  });

  it("reports a slot older than the grace as missed, once, and fires the next one as usual", async () => {
    const h = harness("2026-06-05T06:58:00Z");
    const entry = configEntry({ id: "morning", cron: "0 9 * * *" });
    h.scheduler.replaceConfigSchedules([entry]);
    h.scheduler.start();
    h.shutDown();
    h.clock.advance(3 * 3_600_000); // back at 11:58 Berlin: 09:00 is three hours late
    await h.startUp({ config: [entry] });
    await h.startUp({ config: [entry] });
    expect(h.fires).toEqual([]);
    expect(h.events).toEqual([
      expect.objectContaining({ type: "missed", slotAt: at("2026-06-05T07:00:00Z"), slots: 1, busy: false }),
    ]);
    expect(noticeHtml(h.events[0]!, { nowMs: h.clock.now() })).toBe(
      "⚠️ <b>schedule morning</b> missed its run (the last at 09:00 today) while Telecode was stopped or paused, or the computer slept. It goes on at 09:00 tomorrow.",
    );
    await h.advanceTo(at("2026-06-06T07:00:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-06T07:00:00.000Z"]);
  });

  it("runs a slot that came due while the computer slept as it wakes, not when the timer from before runs out", async () => {
    const h = harness("2026-06-05T06:20:00Z");
    const entry = configEntry({ id: "morning", cron: "0 9 * * *" });
    h.scheduler.replaceConfigSchedules([entry]);
    h.scheduler.start();
    await h.advance(5 * 60_000);
    // 08:25 Berlin, the lid closes; opened at 09:25. The timer still has 35 minutes of awake time to go.
    h.sleep(3_600_000);
    await h.advance(1000);
    expect(h.fires).toEqual([]);
    h.scheduler.wake();
    await h.scheduler.whenIdle();
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T07:25:01.000Z"]);
    await h.advanceTo(at("2026-06-06T07:00:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T07:25:01.000Z", "2026-06-06T07:00:00.000Z"]);
  });

  it("reports a slot the computer slept past the grace of as missed on waking, and goes on", async () => {
    const h = harness("2026-06-05T06:20:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * *" })]);
    h.scheduler.start();
    h.sleep(4 * 3_600_000);
    h.scheduler.wake();
    await h.scheduler.whenIdle();
    expect(h.fires).toEqual([]);
    expect(h.events).toEqual([expect.objectContaining({ type: "missed", slotAt: at("2026-06-05T07:00:00Z") })]);
    await h.advanceTo(at("2026-06-06T07:00:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-06T07:00:00.000Z"]);
  });

  it("with grace_minutes = 0, fires slots whose timer wakes late and retries a busy one-shot once", async () => {
    const h = harness("2026-06-05T06:59:00Z", { ...SETTINGS, graceMs: 0 }, { timerLateMs: 3 });
    const entry = configEntry({ id: "quarter", cron: "*/15 * * * *" });
    h.scheduler.replaceConfigSchedules([entry, configEntry({ id: "once", cron: "0 9 * * *", runOnce: true })]);
    h.scheduler.start();
    h.answer((s) => (s.id === "config:once" && h.clock.now() < at("2026-06-05T07:01:00Z") ? "busy" : "started"));
    await h.advanceTo(at("2026-06-05T07:20:00Z"));
    expect(h.fires.map((f) => [f.id, new Date(f.at).toISOString()])).toEqual([
      ["config:quarter", "2026-06-05T07:00:00.003Z"],
      ["config:once", "2026-06-05T07:00:00.003Z"],
      ["config:once", "2026-06-05T07:01:00.006Z"], // the busy retry, a minute later
      ["config:quarter", "2026-06-05T07:15:00.003Z"],
    ]);
    expect(h.events.map((e) => e.type)).toEqual(["skipped_busy"]);
    h.shutDown();
    h.clock.advance(15 * 60_000); // down from 09:20 to 09:35 Berlin: 09:30 passes
    await h.startUp({ config: [entry] });
    expect(h.fires).toHaveLength(4);
    expect(h.events.map((e) => e.type)).toEqual(["skipped_busy", "missed"]);
  });

  it("fires a run_once schedule once, and never again across restarts and reloads", async () => {
    const h = harness("2026-06-05T06:58:00Z");
    const entry = configEntry({ id: "once", cron: "0 9 * * *", runOnce: true });
    h.scheduler.replaceConfigSchedules([entry]);
    h.scheduler.start();
    await h.advanceTo(at("2026-06-05T07:05:00Z"));
    expect(h.fires).toHaveLength(1);
    expect(h.store.schedules.get("config:once")).toMatchObject({
      state: "done",
      stateReason: "fired",
      nextFireAt: null,
    });
    await h.startUp({ config: [entry] });
    h.scheduler.replaceConfigSchedules([{ ...entry, prompt: "edited" }]);
    await h.advanceTo(at("2026-06-08T07:05:00Z"));
    await h.startUp({ config: [entry] });
    await h.advanceTo(at("2026-06-09T07:05:00Z"));
    expect(h.fires).toHaveLength(1);
  });
});

describe("busy sessions", () => {
  it("skips the iteration when the session is busy, says so once per busy streak, and carries on", async () => {
    const h = harness("2026-06-05T06:59:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "quarter", cron: "*/15 * * * *", session: "continue" })]);
    h.scheduler.start();
    h.answer(() => "busy");
    await h.advanceTo(at("2026-06-05T07:31:00Z")); // 07:00, 07:15, 07:30 all busy
    expect(h.fires).toHaveLength(3);
    expect(h.events.map((e) => e.type)).toEqual(["skipped_busy"]);
    expect(h.store.schedules.get("config:quarter")).toMatchObject({ iterations: 0, busyStreak: 3, lastFiredAt: null });
    h.answer(() => "started");
    await h.advanceTo(at("2026-06-05T07:46:00Z"));
    expect(h.fires.at(-1)?.iteration).toBe(1);
    expect(h.store.schedules.get("config:quarter")).toMatchObject({ iterations: 1, busyStreak: 0 });
    h.answer(() => "busy");
    await h.advanceTo(at("2026-06-05T08:01:00Z"));
    expect(h.events.map((e) => e.type)).toEqual(["skipped_busy", "skipped_busy"]);
  });

  it("retries a one-shot whose session is busy each minute within the grace, then reports it missed", async () => {
    const h = harness("2026-06-05T06:59:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "once", cron: "0 9 * * *", runOnce: true })]);
    h.scheduler.start();
    let busyUntil = at("2026-06-05T07:03:00Z");
    h.answer(() => (h.clock.now() < busyUntil ? "busy" : "started"));
    await h.advanceTo(at("2026-06-05T07:10:00Z"));
    expect(isoTimes(h.fires)).toEqual([
      "2026-06-05T07:00:00.000Z",
      "2026-06-05T07:01:00.000Z",
      "2026-06-05T07:02:00.000Z",
      "2026-06-05T07:03:00.000Z",
    ]);
    expect(h.events).toEqual([expect.objectContaining({ type: "skipped_busy", retryAt: at("2026-06-05T07:01:00Z") })]);
    expect(h.store.schedules.get("config:once")).toMatchObject({ state: "done", stateReason: "fired", iterations: 1 });

    const g = harness("2026-06-05T06:59:00Z");
    g.scheduler.replaceConfigSchedules([configEntry({ id: "once", cron: "0 9 * * *", runOnce: true })]);
    g.scheduler.start();
    busyUntil = Number.POSITIVE_INFINITY;
    g.answer(() => "busy");
    await g.advanceTo(at("2026-06-05T09:00:00Z"));
    expect(g.fires).toHaveLength(61); // 07:00 … 08:00, then the grace is over
    expect(g.store.schedules.get("config:once")).toMatchObject({ state: "done", stateReason: "missed" });
    expect(g.events.map((e) => e.type)).toEqual(["skipped_busy", "missed"]);
    expect(g.events[1]).toMatchObject({ type: "missed", busy: true });
    expect(noticeHtml(g.events[1]!, { nowMs: g.clock.now() })).toBe(
      "⚠️ <b>schedule once</b> did not run: a task kept this chat busy from 09:00 today for longer than it may wait ([schedule] grace_minutes). It will not run again.",
    );
  });

  it("treats a schedule whose previous fire has not settled as busy", async () => {
    const h = harness("2026-06-05T06:59:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "minute", cron: "* * * * *" })]);
    h.scheduler.start();
    let release: (outcome: "started") => void = () => undefined;
    h.answer(() => new Promise((resolve) => (release = resolve)));
    h.clock.advance(60_000);
    h.clock.advance(60_000);
    expect(h.fires).toHaveLength(1);
    release("started");
    await h.scheduler.whenIdle();
    expect(h.events.map((e) => e.type)).toEqual(["skipped_busy"]);
  });

  it("reports a fire that throws, and does not repeat it", async () => {
    const h = harness("2026-06-05T06:59:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * *" })]);
    h.scheduler.start();
    h.answer(() => {
      throw new Error("spawn failed");
    });
    await h.advanceTo(at("2026-06-05T08:00:00Z"));
    expect(h.fires).toHaveLength(1);
    expect(h.events).toEqual([expect.objectContaining({ type: "fire_failed", iteration: 1 })]);
    // The chat reads what failed (an error of no known kind stays in the log), that nothing ran,
    // and when it tries again.
    expect(noticeHtml(h.events[0]!, { nowMs: h.clock.now() })).toBe(
      "⚠️ <b>schedule morning</b> could not start run 1: an unexpected error (in Telecode's log as schedule.fire_failed). Nothing ran for it. It tries again at 09:00 tomorrow. See /loops.",
    );
    const gone = new ScheduleError(
      "schedule.fire_failed",
      'Project "web" is no longer in the config. Add it back, or stop this schedule.',
    );
    expect(noticeHtml({ ...h.events[0]!, error: gone } as SchedulerEvent, { nowMs: h.clock.now() })).toContain(
      'could not start run 1: Project "web" is no longer in the config. Add it back, or stop this schedule. Nothing ran for it.',
    );
    const database = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    expect(noticeHtml({ ...h.events[0]!, error: database } as SchedulerEvent, { nowMs: h.clock.now() })).toContain(
      "could not start run 1: Telecode's database failed (database is locked). Nothing ran for it.",
    );
  });
});
