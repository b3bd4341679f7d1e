// Hot reload of the config's [[schedules]]: the set is replaced without firing anything twice
// or skipping a due slot, also when the reload lands in the fire minute itself.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createScheduler, type Schedule } from "../../src/schedule/index.js";
import { openStore } from "../../src/store/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { at, configEntry, isoTimes, SETTINGS, useSchedulerHarness } from "./harness.js";

const harness = useSchedulerHarness();
const tempDir = useTempDirs("schedule-reload");

describe("replacing the config schedules", () => {
  it("reports what was added, changed and removed, and keeps the next slot of an entry whose timing stayed", () => {
    const h = harness("2026-06-05T06:30:00Z");
    const morning = configEntry({ id: "morning", cron: "0 9 * * *" });
    const evening = configEntry({ id: "evening", cron: "0 18 * * *" });
    expect(h.scheduler.replaceConfigSchedules([morning, evening])).toEqual({
      added: ["morning", "evening"],
      changed: [],
      removed: [],
    });
    expect(h.scheduler.replaceConfigSchedules([morning, evening])).toEqual({ added: [], changed: [], removed: [] });
    const report = h.scheduler.replaceConfigSchedules([{ ...morning, prompt: "Check the deploy.", chatId: 7 }]);
    expect(report).toEqual({ added: [], changed: ["morning"], removed: ["evening"] });
    expect(h.store.schedules.get("config:morning")).toMatchObject({
      prompt: "Check the deploy.",
      chatId: 7,
      nextFireAt: at("2026-06-05T07:00:00Z"),
      state: "active",
    });
    expect(h.store.schedules.get("config:evening")).toMatchObject({
      state: "cancelled",
      stateReason: "removed_from_config",
      nextFireAt: null,
    });
  });

  it("does not fire a removed entry, and a re-added one starts from its next slot", async () => {
    const h = harness("2026-06-05T06:31:00Z");
    const quarter = configEntry({ id: "quarter", cron: "*/15 * * * *" });
    h.scheduler.replaceConfigSchedules([quarter]);
    h.scheduler.start();
    await h.advanceTo(at("2026-06-05T06:50:00Z"));
    h.scheduler.replaceConfigSchedules([]);
    await h.advanceTo(at("2026-06-05T07:20:00Z"));
    h.scheduler.replaceConfigSchedules([quarter]);
    await h.advanceTo(at("2026-06-05T07:31:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T06:45:00.000Z", "2026-06-05T07:30:00.000Z"]);
    expect(h.events).toEqual([]);
  });

  it("fires once when the same set is reloaded just before, at and just after the fire minute", async () => {
    const h = harness("2026-06-05T06:58:00Z");
    const morning = configEntry({ id: "morning", cron: "0 9 * * *" });
    h.scheduler.replaceConfigSchedules([morning]);
    h.scheduler.start();
    await h.advanceTo(at("2026-06-05T06:59:59.900Z"));
    h.scheduler.replaceConfigSchedules([{ ...morning, prompt: "edited before" }]);
    await h.advanceTo(at("2026-06-05T07:00:00Z"));
    h.scheduler.replaceConfigSchedules([{ ...morning, prompt: "edited at" }]);
    await h.advanceTo(at("2026-06-05T07:00:30Z"));
    h.scheduler.replaceConfigSchedules([{ ...morning, cron: "0,30 9 * * *" }]);
    await h.advanceTo(at("2026-06-05T07:45:00Z"));
    expect(isoTimes(h.fires)).toEqual(["2026-06-05T07:00:00.000Z", "2026-06-05T07:30:00.000Z"]);
    expect(h.fires[0]?.schedule.prompt).toBe("edited before");
  });

  it("fires a slot whose timer is late when a reload with a new timing lands in its minute, once", async () => {
    const dir = tempDir();
    let now = at("2026-06-05T06:58:00Z");
    const store = openStore(dir, { now: () => now });
    const fired: Schedule[] = [];
    // Timers never run here: the reload is what notices the due slot, as when the timer is late.
    const scheduler = createScheduler({
      clock: { now: () => now, setTimer: () => ({ cancel: () => undefined }) },
      repository: store.schedules,
      settings: SETTINGS,
      fire: (s) => {
        fired.push(s);
        return "started";
      },
    });
    try {
      scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * 1-5" })]);
      scheduler.start();
      now = at("2026-06-05T07:00:20Z"); // Friday 09:00:20 Berlin; the 09:00 timer has not run
      scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * *" })]);
      scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * *", prompt: "again" })]);
      scheduler.replaceConfigSchedules([configEntry({ id: "morning", cron: "0 9 * * 1-5" })]);
      await scheduler.whenIdle();
      expect(fired.map((s) => s.lastSlotAt)).toEqual([at("2026-06-05T07:00:00Z")]);
      expect(store.schedules.get("config:morning")?.nextFireAt).toBe(at("2026-06-08T07:00:00Z"));
    } finally {
      scheduler.stop();
      store.close();
    }
  });

  it("never fires a slot twice nor skips one, whenever the reloads come", async () => {
    const start = at("2026-06-05T06:55:00Z");
    const end = at("2026-06-05T08:05:00Z");
    const reloadTimes = fc.uniqueArray(fc.integer({ min: start + 1, max: end - 1 }), { maxLength: 8 });
    // Reloads right around the fire instants: a millisecond before, at, and a millisecond after.
    const slots = [0, 15, 30, 45, 60].map((m) => at("2026-06-05T07:00:00Z") + m * 60_000);
    const minuteEdges = fc.subarray(slots.flatMap((slot) => [slot - 1, slot, slot + 1]));
    await fc.assert(
      fc.asyncProperty(reloadTimes, minuteEdges, fc.boolean(), async (times, edges, retime) => {
        const h = harness("2026-06-05T06:55:00Z");
        const entry = configEntry({ id: "quarter", cron: "*/15 * * * *" });
        h.scheduler.replaceConfigSchedules([entry]);
        h.scheduler.start();
        const all = [...new Set([...times, ...edges])].sort((a, b) => a - b);
        for (const [i, t] of all.entries()) {
          await h.advanceTo(t);
          // Alternate between an edit that keeps the timing and one that re-times to the same slots.
          const cron = retime && i % 2 === 0 ? "0,15,30,45 * * * *" : "*/15 * * * *";
          h.scheduler.replaceConfigSchedules([{ ...entry, cron, prompt: `edit ${i}` }]);
        }
        await h.advanceTo(end);
        expect(isoTimes(h.fires)).toEqual([
          "2026-06-05T07:00:00.000Z",
          "2026-06-05T07:15:00.000Z",
          "2026-06-05T07:30:00.000Z",
          "2026-06-05T07:45:00.000Z",
          "2026-06-05T08:00:00.000Z",
        ]);
        h.shutDown();
      }),
      { numRuns: 25 },
    );
  });
});
