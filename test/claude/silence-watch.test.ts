// Stall notes and the hard ceiling, on a fake clock: the threshold grows while a tool runs,
// output resets it (its time taken once a read of stdout), and neither a paused reader (slow
// consumer) nor a CLI waiting for our answer is silence, nor is a night the computer slept through.
import { describe, expect, it } from "vitest";
import { SilenceWatch } from "../../src/claude/silence-watch.js";
import { createFakeClock } from "../support/fake-clock.js";

function setup(toolRunning = false) {
  const clock = createFakeClock(1_000_000);
  const stalls: number[] = [];
  const kills: number[] = [];
  const state = { toolRunning, awaitingAnswer: false };
  const watch = new SilenceWatch({
    clock,
    stallNoteMs: 10 * 60_000,
    hardSilenceMs: 120 * 60_000,
    toolFactor: 3,
    isToolRunning: () => state.toolRunning,
    isAwaitingAnswer: () => state.awaitingAnswer,
    onStall: (ms) => stalls.push(ms),
    onHardSilence: (ms) => kills.push(ms),
  });
  return { clock, watch, stalls, kills, state };
}

const MIN = 60_000;

describe("SilenceWatch", () => {
  it("notes a stall once per silence and stops the process at the ceiling", () => {
    const { clock, watch, stalls, kills } = setup();
    watch.start();
    clock.advance(9 * MIN);
    expect(stalls).toEqual([]);
    clock.advance(1 * MIN);
    expect(stalls).toEqual([10 * MIN]);
    clock.advance(50 * MIN);
    expect(stalls).toHaveLength(1);
    clock.advance(60 * MIN);
    expect(kills).toEqual([120 * MIN]);
  });

  it("waits three times longer while a tool runs, and output restarts the count", () => {
    const { clock, watch, stalls } = setup(true);
    watch.start();
    clock.advance(25 * MIN);
    watch.activity();
    clock.advance(29 * MIN);
    expect(stalls).toEqual([]);
    clock.advance(1 * MIN);
    expect(stalls).toEqual([30 * MIN]);
  });

  it("takes the time once for the lines handled in one go (one read of stdout), and again for the next read's", async () => {
    const { clock, watch, stalls } = setup();
    watch.start();
    clock.advance(5 * MIN);
    watch.activity();
    // Still the same read (a fake clock can move inside one; a real read takes microseconds).
    clock.advance(2 * MIN);
    watch.activity();
    clock.advance(8 * MIN);
    expect(stalls).toEqual([10 * MIN]);
    await Promise.resolve();
    watch.activity();
    clock.advance(9 * MIN);
    expect(stalls).toEqual([10 * MIN]);
    clock.advance(1 * MIN);
    expect(stalls).toEqual([10 * MIN, 10 * MIN]);
  });

  it("does not count time while the CLI waits for an answer of ours, and counts again after it", () => {
    const { clock, watch, stalls, kills, state } = setup();
    watch.start();
    state.awaitingAnswer = true;
    clock.advance(5 * 60 * MIN);
    expect(stalls).toEqual([]);
    expect(kills).toEqual([]);
    state.awaitingAnswer = false;
    watch.activity();
    clock.advance(10 * MIN);
    expect(stalls).toEqual([10 * MIN]);
    clock.advance(110 * MIN);
    expect(kills).toEqual([120 * MIN]);
  });

  it("does not count time while we paused reading, and stops when the turn ends", () => {
    const { clock, watch, stalls, kills } = setup();
    watch.start();
    watch.setPaused(true);
    clock.advance(200 * MIN);
    expect(stalls).toEqual([]);
    watch.setPaused(false);
    watch.stop();
    clock.advance(200 * MIN);
    expect(kills).toEqual([]);
  });

  it("lets a check armed for one turn serve the next, measuring from the new turn's output", () => {
    const { clock, watch, stalls, kills } = setup();
    watch.start();
    clock.advance(6 * MIN);
    watch.stop();
    clock.advance(1 * MIN);
    // Turns that follow each other arm no timers of their own.
    for (let turn = 0; turn < 100; turn++) {
      watch.start();
      watch.stop();
    }
    watch.start();
    expect(clock.requestedDelaysMs).toHaveLength(2);
    // The first turn's check comes due at 10 min: 3 min after this turn's start, so it waits on.
    clock.advance(9 * MIN);
    expect(stalls).toEqual([]);
    clock.advance(1 * MIN);
    expect(stalls).toEqual([10 * MIN]);
    watch.stop();
    // Due while no turn runs, a check lapses: nothing is noted and nothing is armed again.
    clock.advance(300 * MIN);
    expect(stalls).toHaveLength(1);
    expect(kills).toEqual([]);
    expect(clock.activeTimers).toBe(0);
  });

  it("does not count the hours the computer slept: a run left overnight is not stopped on waking", () => {
    const { clock, watch, stalls, kills } = setup();
    watch.start();
    clock.advance(100 * MIN);
    watch.activity();
    stalls.length = 0;
    // The lid closes; the ceiling's check, armed two hours of awake time ago, comes due 20 min after waking.
    clock.sleep(8 * 60 * MIN);
    clock.advance(20 * MIN);
    expect(kills).toEqual([]);
    expect(stalls).toEqual([10 * MIN]);
    clock.advance(100 * MIN);
    expect(kills).toEqual([120 * MIN]);
  });

  it("cancels its checks when disposed", () => {
    const { clock, watch, stalls, kills } = setup();
    watch.start();
    watch.dispose();
    expect(clock.activeTimers).toBe(0);
    clock.advance(300 * MIN);
    expect([stalls, kills]).toEqual([[], []]);
    watch.start();
    expect(clock.activeTimers).toBe(2);
  });
});
