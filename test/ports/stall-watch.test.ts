// The watch for a transfer that stalls, on the manual clock: it lives while its bytes move,
// however long that takes, and reports a stall a quiet spell (and any allowance) after the last.
import { describe, expect, it } from "vitest";
import { watchForStall } from "../../src/ports/index.js";
import { createFakeClock } from "../support/fake-clock.js";

describe("watchForStall", () => {
  it("reports a transfer nothing moved for since it started, once, after the quiet spell", () => {
    const clock = createFakeClock(0);
    const stalls: number[] = [];
    watchForStall(clock, 30_000, (spellMs) => stalls.push(spellMs));
    clock.advance(29_999);
    expect(stalls).toEqual([]);
    clock.advance(1);
    expect(stalls).toEqual([30_000]);
    clock.advance(10 * 60_000);
    expect(stalls).toEqual([30_000]);
    expect(clock.activeTimers).toBe(0);
  });

  it("lives while its bytes move, an hour if need be, and stalls a spell after the last move", () => {
    const clock = createFakeClock(0);
    const stalls: number[] = [];
    const watch = watchForStall(clock, 30_000, (spellMs) => stalls.push(spellMs));
    for (let second = 0; second < 3600; second += 1) {
      clock.advance(1000);
      watch.moved();
    }
    expect(stalls).toEqual([]);
    // 3,600 moves, but one timer at a time: re-armed only when it fires early (every ~30 s).
    expect(clock.requestedDelaysMs.length).toBeLessThan(200);
    clock.advance(29_999);
    expect(stalls).toEqual([]);
    clock.advance(1);
    expect(stalls).toEqual([30_000]);
    expect(clock.now()).toBe(3_600_000 + 30_000);
  });

  it("allows what is granted past each spell, counted from the last move", () => {
    const clock = createFakeClock(0);
    const stalls: number[] = [];
    const watch = watchForStall(clock, 30_000, (spellMs) => stalls.push(spellMs));
    clock.advance(10_000);
    watch.moved();
    watch.allow(64_000);
    watch.allow(1_000); // a smaller allowance does not shrink it
    clock.advance(93_999);
    expect(stalls).toEqual([]);
    clock.advance(1);
    expect(stalls).toEqual([94_000]);
  });

  it("reports nothing once stopped", () => {
    const clock = createFakeClock(0);
    const stalls: number[] = [];
    const watch = watchForStall(clock, 30_000, (spellMs) => stalls.push(spellMs));
    clock.advance(10_000);
    watch.stop();
    clock.advance(60_000);
    expect(stalls).toEqual([]);
    expect(clock.activeTimers).toBe(0);
  });

  it("does not count the time the computer slept (the host's timers do not)", () => {
    const clock = createFakeClock(0);
    const stalls: number[] = [];
    watchForStall(clock, 30_000, (spellMs) => stalls.push(spellMs));
    clock.advance(20_000);
    clock.sleep(8 * 3_600_000);
    clock.advance(9_999);
    expect(stalls).toEqual([]);
    clock.advance(1);
    expect(stalls).toEqual([30_000]);
  });
});
