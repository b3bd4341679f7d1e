// The watch for the computer's sleep, on the manual clock whose `sleep` moves the wall clock on
// and leaves awake time and the timers where they were, as a closed laptop does; and for a
// change of network, on addresses the test sets.
import { describe, expect, it } from "vitest";
import { LOOK_EVERY_MS, momentOf, networkAddresses, sleptSince, watchForWakes } from "../../src/ports/index.js";
import { createFakeClock } from "../support/fake-clock.js";

const HOUR = 3_600_000;

describe("watchForWakes", () => {
  it("tells its listeners how long the computer slept, within a look of waking", () => {
    const clock = createFakeClock(Date.parse("2026-12-07T18:00:00Z"));
    const watch = watchForWakes(clock, { addresses: () => "192.168.1.20" });
    const heard: number[] = [];
    watch.onWake((wake) => {
      heard.push(wake.sleptMs);
      expect(wake.networkChanged).toBe(false);
    });
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
    const watch = watchForWakes(clock, { addresses: () => "192.168.1.20" });
    const heard: number[] = [];
    watch.onWake((wake) => heard.push(wake.sleptMs));
    clock.sleep(9_000);
    clock.advance(LOOK_EVERY_MS);
    expect(heard).toEqual([]);
    watch.stop();
  });

  it("tells every listener though one throws, and the throw to onListenerError", () => {
    const clock = createFakeClock(0);
    const errors: unknown[] = [];
    const watch = watchForWakes(clock, {
      lookEveryMs: 1000,
      addresses: () => "192.168.1.20",
      onListenerError: (error) => errors.push(error),
    });
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

  it("tells its listeners when the machine's addresses change (another Wi-Fi, a VPN), with the look before", () => {
    const clock = createFakeClock(0);
    let addresses = "192.168.1.20";
    const watch = watchForWakes(clock, { addresses: () => addresses });
    const heard: { sleptMs: number; networkChanged: boolean; lookedBefore: number }[] = [];
    watch.onWake((wake) => heard.push({ ...wake, lookedBefore: wake.lookedBefore.awakeMs }));
    clock.advance(2 * LOOK_EVERY_MS);
    addresses = "10.8.0.2 192.168.1.20";
    clock.advance(LOOK_EVERY_MS);
    expect(heard).toEqual([{ sleptMs: 0, networkChanged: true, lookedBefore: 2 * LOOK_EVERY_MS }]);
    clock.advance(LOOK_EVERY_MS);
    expect(heard).toHaveLength(1);
    // Addresses that cannot be read are taken as unchanged.
    const failing = watchForWakes(clock, {
      addresses: () => {
        throw new Error("EMFILE");
      },
    });
    failing.onWake(() => heard.push({ sleptMs: -1, networkChanged: true, lookedBefore: -1 }));
    clock.advance(3 * LOOK_EVERY_MS);
    expect(heard).toHaveLength(1);
    failing.stop();
    watch.stop();
  });

  it("reads this machine's IPv4 addresses, without the loopback", () => {
    expect(networkAddresses()).not.toMatch(/127\.0\.0\.1/);
    expect(networkAddresses()).toBe(networkAddresses());
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
