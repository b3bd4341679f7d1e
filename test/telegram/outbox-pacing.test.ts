import { describe, expect, it } from "vitest";
import { GlobalCap, WakeTimer } from "../../src/telegram/outbox-pacing.js";
import { createFakeClock } from "../support/fake-clock.js";

describe("GlobalCap", () => {
  it("has room until the cap is full, then when the oldest call of the window is a second old", () => {
    const cap = new GlobalCap(3);
    for (const at of [0, 100, 200]) {
      expect(cap.slotAt(at)).toBe(at);
      cap.record(at);
    }
    expect(cap.slotAt(250)).toBe(1000);
    expect(cap.slotAt(1000)).toBe(1000);
    cap.record(1000);
    expect(cap.slotAt(1001)).toBe(1100);
    expect(cap.slotAt(1300)).toBe(1300);
  });
});

describe("WakeTimer", () => {
  it("keeps one timer, for the earliest wake-up asked for", () => {
    const clock = createFakeClock();
    let woken = 0;
    const wake = new WakeTimer(clock, () => (woken += 1));
    wake.at(500, 0);
    wake.at(800, 0); // later: the 500 ms one stands
    expect(clock.activeTimers).toBe(1);
    wake.at(200, 0); // earlier: replaces it
    expect(clock.activeTimers).toBe(1);
    clock.advance(199);
    expect(woken).toBe(0);
    clock.advance(1);
    expect(woken).toBe(1);
    expect(clock.activeTimers).toBe(0);
  });

  it("sets nothing for an infinite wake-up, and cancels what was set", () => {
    const clock = createFakeClock();
    let woken = 0;
    const wake = new WakeTimer(clock, () => (woken += 1));
    wake.at(Number.POSITIVE_INFINITY, 0);
    expect(clock.activeTimers).toBe(0);
    wake.at(100, 0);
    wake.cancel();
    clock.advance(1000);
    expect(woken).toBe(0);
  });
});
