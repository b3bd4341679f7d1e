// The watch for the computer's sleep, on the manual clock whose `sleep` moves the wall clock on
// and leaves awake time and the timers where they were, as a closed laptop does.
import { describe, expect, it } from "vitest";
import { LOOK_EVERY_MS, momentOf, sleptSince, watchForWakes } from "../../src/ports/index.js";
import { createFakeClock } from "../support/fake-clock.js";

const HOUR = 3_600_000;

describe("watchForWakes", () => {
  it("tells its listeners how long the computer slept, within a look of waking", () => {
    const clock = createFakeClock(Date.parse("2026-12-07T18:00:00Z"));
    const watch = watchForWakes(clock);
    const heard: number[] = [];
    watch.onWake((sleptMs) => heard.push(sleptMs));
    clock.advance(2 * LOOK_EVERY_MS);
    clock.sleep(14 * HOUR);
    expect(heard).toEqual([]);
    clock.advance(LOOK_EVERY_MS);
    expect(heard).toEqual([14 * HOUR]);
    clock.advance(10 * LOOK_EVERY_MS);
    expect(heard).toEqual([14 * HOUR]);
    watch.stop();
  });

  it("takes a few seconds' difference for noise, not a sleep", () => {
    const clock = createFakeClock(0);
    const watch = watchForWakes(clock);
    const heard: number[] = [];
    watch.onWake((sleptMs) => heard.push(sleptMs));
    clock.sleep(9_000);
    clock.advance(LOOK_EVERY_MS);
    expect(heard).toEqual([]);
    watch.stop();
  });

  it("tells every listener though one throws, and the throw to onListenerError", () => {
    const clock = createFakeClock(0);
    const errors: unknown[] = [];
    const watch = watchForWakes(clock, { lookEveryMs: 1000, onListenerError: (error) => errors.push(error) });
    const heard: string[] = [];
    watch.onWake(() => {
      throw new Error("scheduler store locked");
    });
    const off = watch.onWake(() => heard.push("second"));
    clock.sleep(HOUR);
    clock.advance(1000);
    expect(heard).toEqual(["second"]);
    expect(errors).toEqual([new Error("scheduler store locked")]);
    off();
    clock.sleep(HOUR);
    clock.advance(1000);
    expect(heard).toEqual(["second"]);
    expect(errors).toHaveLength(2);
    watch.stop();
  });

  it("stops looking when stopped: no timer is left", () => {
    const clock = createFakeClock(0);
    const watch = watchForWakes(clock);
    expect(clock.activeTimers).toBe(1);
    watch.stop();
    expect(clock.activeTimers).toBe(0);
  });

  it("tells, for a moment, how long the computer has slept since", () => {
    const clock = createFakeClock(0);
    const moment = momentOf(clock);
    clock.advance(5_000);
    expect(sleptSince(clock, moment)).toBe(0);
    clock.sleep(HOUR);
    clock.advance(5_000);
    expect(sleptSince(clock, moment)).toBe(HOUR);
  });
});
