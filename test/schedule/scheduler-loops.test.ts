// Claude's loops and the chat's schedules in the scheduler: creation checks and refusals,
// caps (iterations, lifetime, cost, per chat, min interval), cancel and CronDelete ownership,
// pause and resume, loops switched off, and wake-up chains.
import { describe, expect, it } from "vitest";
import { DEFAULT_LOOP_CAPS, type NewSchedule } from "../../src/schedule/index.js";
import { at, configEntry, isoTimes, SETTINGS, useSchedulerHarness } from "./harness.js";

const harness = useSchedulerHarness();

const loop = (over: Partial<NewSchedule> = {}): NewSchedule => ({
  kind: "loop",
  chatId: 42,
  project: "app",
  session: { mode: "id", sessionId: "s-1" },
  timing: { kind: "cron", cron: "*/5 * * * *" },
  prompt: "check the build",
  recurring: true,
  createdBy: { kind: "claude", turn: "toolu_1" },
  ...over,
});

function created(result: ReturnType<ReturnType<typeof harness>["scheduler"]["create"]>) {
  if (!result.ok) throw new Error(`refused: ${result.refusal.message}`);
  return result.schedule;
}

describe("creating", () => {
  it("stores a loop with its caps, zone and next slot, and fires it into its session", async () => {
    const h = harness("2026-06-05T07:01:00Z");
    h.scheduler.start();
    const s = created(h.scheduler.create(loop()));
    expect(s).toMatchObject({
      kind: "loop",
      timeZone: "Europe/Berlin",
      state: "active",
      nextFireAt: at("2026-06-05T07:05:00Z"),
      attended: false,
      caps: { maxIterations: 50, expiresAt: at("2026-06-12T07:01:00Z"), maxCostUsd: 5 },
    });
    expect(s.id).toMatch(/^[0-9a-f]{8}$/);
    await h.advanceTo(at("2026-06-05T07:11:00Z"));
    expect(h.fires.map((f) => [f.id, f.iteration])).toEqual([
      [s.id, 1],
      [s.id, 2],
    ]);
  });

  it("refuses what cannot run, with a reason, and stores nothing", () => {
    const h = harness("2026-06-05T07:01:00Z");
    const refusal = (input: NewSchedule) => {
      const r = h.scheduler.create(input);
      return r.ok ? null : r.refusal;
    };
    expect(refusal(loop({ timing: { kind: "cron", cron: "61 * * * *" } }))).toMatchObject({
      code: "bad_cron",
      message: expect.stringMatching(/^"61 \* \* \* \*" is not a 5-field cron expression.*Use five fields/),
    });
    expect(refusal(loop({ timing: { kind: "cron", cron: "0 9 31 2 *" } }))?.message).toMatch(/never matches a date/);
    expect(refusal(loop({ timeZone: "Mars/Olympus" }))?.code).toBe("bad_zone");
    expect(refusal(loop({ timing: { kind: "once", atMs: at("2026-06-05T07:00:00Z") } }))).toMatchObject({
      code: "in_past",
      message: "09:00 today has already passed. Pick a time in the future.",
    });
    expect(refusal(loop({ prompt: "  " }))?.code).toBe("empty_prompt");
    expect(h.store.schedules.list()).toEqual([]);
  });

  it("refuses a recurring schedule more frequent than the minimum interval, not a one-shot", () => {
    const h = harness("2026-06-05T07:01:00Z", {
      ...SETTINGS,
      caps: { ...DEFAULT_LOOP_CAPS, minIntervalMs: 10 * 60_000 },
    });
    const r = h.scheduler.create(loop());
    expect(r.ok ? null : r.refusal).toMatchObject({
      code: "too_frequent",
      message: expect.stringContaining(
        "This would run every 5 minutes, more often than the shortest interval allowed (10 minutes)",
      ),
    });
    const burst = h.scheduler.create(loop({ timing: { kind: "cron", cron: "0,1 9 * * *" } }));
    expect(burst.ok ? null : burst.refusal.code).toBe("too_frequent");
    const every = h.scheduler.create(
      loop({ kind: "chat", timing: { kind: "every", everyMs: 5 * 60_000, anchorMs: 0 } }),
    );
    expect(every.ok).toBe(false);
    expect(h.scheduler.create(loop({ timing: { kind: "cron", cron: "*/5 * * * *" }, recurring: false })).ok).toBe(true);
  });

  it("refuses the eleventh live loop of a chat; ended ones and other chats do not count", () => {
    const h = harness("2026-06-05T07:01:00Z");
    const ids = Array.from({ length: 10 }, () => created(h.scheduler.create(loop())).id);
    const eleventh = h.scheduler.create(loop());
    expect(eleventh.ok ? null : eleventh.refusal).toMatchObject({
      code: "too_many",
      message: expect.stringContaining("This chat already has 10 loops and schedules, the most allowed"),
    });
    expect(h.scheduler.create(loop({ chatId: 43 })).ok).toBe(true);
    h.scheduler.cancel(ids[0]!, "person");
    expect(h.scheduler.create(loop()).ok).toBe(true);
  });

  it("refuses Claude's loops while loops are off, holds existing ones, and still fires the config's", async () => {
    const h = harness("2026-06-05T07:01:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "quarter", cron: "*/15 * * * *" })]);
    h.scheduler.start();
    const s = created(h.scheduler.create(loop()));
    h.scheduler.updateSettings({ ...SETTINGS, loopsEnabled: false });
    const refused = h.scheduler.create(loop());
    expect(refused.ok ? null : refused.refusal.code).toBe("loops_off");
    expect(h.scheduler.create(loop({ kind: "chat", createdBy: { kind: "person", userId: 42 } })).ok).toBe(true);
    await h.advanceTo(at("2026-06-05T07:16:00Z"));
    expect(h.fires.filter((f) => f.id === s.id)).toEqual([]);
    expect(h.fires.some((f) => f.id === "config:quarter")).toBe(true);
    h.scheduler.updateSettings(SETTINGS);
    await h.scheduler.whenIdle();
    expect(h.fires.filter((f) => f.id === s.id).map((f) => f.at)).toEqual([at("2026-06-05T07:16:00Z")]);
  });
});

describe("caps", () => {
  it("stops a loop after its most iterations and says so once", async () => {
    const h = harness("2026-06-05T07:01:00Z", { ...SETTINGS, caps: { ...DEFAULT_LOOP_CAPS, maxIterations: 3 } });
    h.scheduler.start();
    const s = created(h.scheduler.create(loop()));
    await h.advanceTo(at("2026-06-05T08:00:00Z"));
    expect(h.fires.map((f) => f.iteration)).toEqual([1, 2, 3]);
    expect(h.events).toEqual([expect.objectContaining({ type: "capped", reason: "iterations" })]);
    expect(h.store.schedules.get(s.id)).toMatchObject({ state: "capped", stateReason: "iterations", nextFireAt: null });
  });

  it("does not count a busy skip against the iterations", async () => {
    const h = harness("2026-06-05T07:01:00Z", { ...SETTINGS, caps: { ...DEFAULT_LOOP_CAPS, maxIterations: 2 } });
    h.scheduler.start();
    created(h.scheduler.create(loop()));
    h.answer(() => (h.fires.length === 2 ? "busy" : "started"));
    await h.advanceTo(at("2026-06-05T08:00:00Z"));
    expect(h.fires.map((f) => f.iteration)).toEqual([1, 2, 2]);
    expect(h.events.map((e) => e.type)).toEqual(["skipped_busy", "capped"]);
  });

  it("stops a loop at the end of its lifetime", async () => {
    const h = harness("2026-06-05T07:01:00Z", {
      ...SETTINGS,
      caps: { ...DEFAULT_LOOP_CAPS, maxLifetimeMs: 3_600_000 },
    });
    h.scheduler.start();
    created(h.scheduler.create(loop({ timing: { kind: "cron", cron: "*/20 * * * *" } })));
    await h.advanceTo(at("2026-06-05T10:00:00Z"));
    expect(isoTimes(h.fires)).toEqual([
      "2026-06-05T07:20:00.000Z",
      "2026-06-05T07:40:00.000Z",
      "2026-06-05T08:00:00.000Z",
    ]);
    expect(h.events).toEqual([expect.objectContaining({ type: "capped", reason: "lifetime" })]);
  });

  it("stops a loop whose runs' costs reach its cap, and reports the verdict", async () => {
    const h = harness("2026-06-05T07:01:00Z");
    h.scheduler.start();
    const s = created(h.scheduler.create(loop()));
    await h.advanceTo(at("2026-06-05T07:06:00Z"));
    expect(h.scheduler.recordCost(s.id, 3)?.verdict).toBe("within");
    const result = h.scheduler.recordCost(s.id, 2.5);
    expect(result).toMatchObject({
      verdict: "capped",
      schedule: { state: "capped", stateReason: "cost", costUsd: 5.5 },
    });
    expect(h.events).toEqual([expect.objectContaining({ type: "capped", reason: "cost" })]);
    await h.advanceTo(at("2026-06-05T08:00:00Z"));
    expect(h.fires).toHaveLength(1);
    expect(h.scheduler.recordCost("nope", 1)).toBeNull();
    expect(() => h.scheduler.recordCost(s.id, -1)).toThrow(expect.objectContaining({ code: "schedule.invalid_input" }));
  });

  it("skips the rest of the day once a config schedule's day cost cap is reached, and fires again the next day", async () => {
    const h = harness("2026-06-05T07:01:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "hourly", cron: "0 * * * *", maxDayCostUsd: 1 })]);
    h.scheduler.start();
    await h.advanceTo(at("2026-06-05T08:01:00Z"));
    expect(h.scheduler.recordCost("config:hourly", 1.2)?.verdict).toBe("day_capped");
    await h.advanceTo(at("2026-06-05T21:30:00Z")); // 23:30 Berlin
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T08:00:00.000Z"]);
    // Each skipped slot is reported (for /status), none as a notice of its own.
    const skipped = h.events.filter((e) => e.type === "skipped_day_cost");
    expect(skipped).toHaveLength(13);
    await h.advanceTo(at("2026-06-05T22:01:00Z")); // 00:01 Berlin, a new day
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T08:00:00.000Z", "2026-06-05T22:00:00.000Z"]);
    expect(h.store.schedules.get("config:hourly")?.state).toBe("active");
  });
});

describe("cancel, pause and resume", () => {
  it("lets CronDelete cancel only a loop of the same session and chat", () => {
    const h = harness("2026-06-05T07:01:00Z");
    h.scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * *" })]);
    const s = created(h.scheduler.create(loop()));
    const owner = { chatId: 42, sessionId: "s-1" };
    expect(h.scheduler.cancel(s.id, "claude", { chatId: 43, sessionId: "s-1" })).toEqual({
      kind: "not_found",
      id: s.id,
    });
    expect(h.scheduler.cancel(s.id, "claude", { chatId: 42, sessionId: "s-2" }).kind).toBe("not_yours");
    expect(h.scheduler.cancel("config:morning", "claude", { chatId: 42, sessionId: "s-1" }).kind).toBe("not_yours");
    expect(h.scheduler.cancel("config:morning", "person").kind).toBe("not_yours");
    expect(h.scheduler.cancel("deadbeef", "claude", owner)).toEqual({ kind: "not_found", id: "deadbeef" });
    expect(h.scheduler.cancel(s.id, "claude", owner)).toMatchObject({
      kind: "cancelled",
      schedule: { state: "cancelled", stateReason: "claude", nextFireAt: null },
    });
    expect(h.scheduler.cancel(s.id, "person").kind).toBe("already_ended");
  });

  it("holds a paused schedule and resumes it from its next slot without making up for the skipped ones", async () => {
    const h = harness("2026-06-05T07:01:00Z");
    h.scheduler.start();
    const s = created(h.scheduler.create(loop()));
    expect(h.scheduler.pause(s.id)?.state).toBe("paused");
    expect(h.scheduler.pause(s.id)).toBeNull();
    await h.advanceTo(at("2026-06-05T07:32:00Z"));
    expect(h.fires).toEqual([]);
    expect(h.scheduler.resume(s.id)).toMatchObject({ state: "active", nextFireAt: at("2026-06-05T07:35:00Z") });
    await h.advanceTo(at("2026-06-05T07:36:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T07:35:00.000Z"]);
    expect(h.events).toEqual([]);
  });

  it("defers a schedule's slots until a usage limit resets, and then fires at its first slot after it", async () => {
    const h = harness("2026-06-05T07:01:00Z");
    h.scheduler.start();
    const s = created(h.scheduler.create(loop()));
    expect(h.scheduler.deferUntil(s.id, at("2026-06-05T07:41:30Z"))).toMatchObject({
      state: "active",
      nextFireAt: at("2026-06-05T07:45:00Z"),
    });
    await h.advanceTo(at("2026-06-05T07:44:00Z"));
    expect(h.fires).toEqual([]);
    await h.advanceTo(at("2026-06-05T07:46:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T07:45:00.000Z"]);
    // A reset already past defers to the next slot from now; a paused schedule is left as it is.
    expect(h.scheduler.deferUntil(s.id, at("2026-06-05T07:00:00Z"))?.nextFireAt).toBe(at("2026-06-05T07:50:00Z"));
    h.scheduler.pause(s.id);
    expect(h.scheduler.deferUntil(s.id, at("2026-06-05T09:00:00Z"))).toBeNull();
    expect(h.events).toEqual([]);
  });

  it("holds everything while paused, then fires a slot within the grace once and reports older ones", async () => {
    const h = harness("2026-06-05T06:01:00Z");
    h.scheduler.replaceConfigSchedules([
      configEntry({ id: "early", cron: "0 9 * * *" }),
      configEntry({ id: "late", cron: "0 11 * * *" }),
    ]);
    h.scheduler.start();
    h.scheduler.setPaused(true);
    await h.advanceTo(at("2026-06-05T09:30:00Z")); // 11:30 Berlin
    expect(h.fires).toEqual([]);
    h.scheduler.setPaused(false);
    await h.scheduler.whenIdle();
    expect(h.fires.map((f) => f.id)).toEqual(["config:late"]);
    expect(h.events).toEqual([
      expect.objectContaining({ type: "missed", schedule: expect.objectContaining({ id: "config:early" }) }),
    ]);
  });
});

describe("wake-ups", () => {
  const wakeup = {
    chatId: 42,
    project: "app",
    sessionId: "s-1",
    prompt: "/loop check CI",
    createdBy: { kind: "claude", turn: "t1" },
  } as const;

  it("fires a wake-up at the delay clamped and rounded up like the CLI, and continues the chain from its fired turn", async () => {
    const h = harness("2026-06-05T07:00:10Z");
    h.scheduler.start();
    const first = h.scheduler.armWakeup({ ...wakeup, delaySeconds: 120 });
    if (!first.ok) throw new Error(first.refusal.message);
    expect(first.schedule).toMatchObject({ kind: "wakeup", nextFireAt: at("2026-06-05T07:03:00Z"), recurring: false });
    const short = h.scheduler.armWakeup({ ...wakeup, sessionId: "s-2", delaySeconds: 5 });
    expect(short.ok && short.schedule.nextFireAt).toBe(at("2026-06-05T07:02:00Z"));
    await h.advanceTo(at("2026-06-05T07:03:30Z"));
    expect(h.store.schedules.get(first.schedule.id)).toMatchObject({
      state: "done",
      stateReason: "fired",
      iterations: 1,
    });
    const next = h.scheduler.armWakeup({ ...wakeup, delaySeconds: 600, chainId: first.schedule.id });
    expect(next.ok && next.schedule).toMatchObject({ id: first.schedule.id, state: "active", iterations: 1 });
    await h.advanceTo(at("2026-06-05T07:14:00Z"));
    expect(h.fires.filter((f) => f.id === first.schedule.id).map((f) => f.iteration)).toEqual([1, 2]);
  });

  it("ends the session's chain on stop, and refuses to continue a chain the person cancelled", () => {
    const h = harness("2026-06-05T07:00:10Z");
    const armed = h.scheduler.armWakeup({ ...wakeup, delaySeconds: 120 });
    if (!armed.ok) throw new Error(armed.refusal.message);
    expect(h.scheduler.stopWakeups(42, "s-2")).toEqual([]);
    expect(h.scheduler.stopWakeups(42, "s-1").map((s) => [s.id, s.stateReason])).toEqual([
      [armed.schedule.id, "stopped_by_claude"],
    ]);
    const again = h.scheduler.armWakeup({ ...wakeup, delaySeconds: 120 });
    if (!again.ok) throw new Error(again.refusal.message);
    h.scheduler.cancel(again.schedule.id, "person");
    const refused = h.scheduler.armWakeup({ ...wakeup, delaySeconds: 120, chainId: again.schedule.id });
    expect(refused.ok ? null : refused.refusal).toMatchObject({ code: "chain_stopped" });
  });

  it("caps a chain at its most iterations when it asks for one more", async () => {
    const h = harness("2026-06-05T07:00:10Z", { ...SETTINGS, caps: { ...DEFAULT_LOOP_CAPS, maxIterations: 2 } });
    h.scheduler.start();
    const first = h.scheduler.armWakeup({ ...wakeup, delaySeconds: 60 });
    if (!first.ok) throw new Error(first.refusal.message);
    const chainId = first.schedule.id;
    await h.advanceTo(at("2026-06-05T07:02:00Z"));
    h.scheduler.armWakeup({ ...wakeup, delaySeconds: 60, chainId });
    await h.advanceTo(at("2026-06-05T07:04:00Z"));
    const third = h.scheduler.armWakeup({ ...wakeup, delaySeconds: 60, chainId });
    expect(third.ok ? null : third.refusal.code).toBe("chain_stopped");
    expect(h.events).toEqual([expect.objectContaining({ type: "capped", reason: "iterations" })]);
    expect(h.fires).toHaveLength(2);
  });
});
