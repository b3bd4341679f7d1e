// The system clock's timers: a delay longer than the host's setTimeout allows (2^31-1 ms;
// Node fires such a timeout after 1 ms) is waited out in shorter steps and fires on time,
// never early; cancelling works at any step.
import { afterEach, describe, expect, it } from "vitest";
import { createSystemClock, MAX_HOST_TIMER_MS, type TimerHost } from "../../src/ports/index.js";
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";

const LONG_MS = 2 ** 31 + 1000;

/** The host's setTimeout played by the test's fake clock, so no real time passes. */
function fakeHost(clock: FakeClock): TimerHost<{ cancel(): void }> {
  return {
    now: () => clock.now(),
    awakeMs: () => clock.awakeMs(),
    setTimeout: (fn, ms) => clock.setTimer(ms, fn),
    clearTimeout: (timer) => timer.cancel(),
  };
}

describe("system clock", () => {
  it("waits out a delay over 2^31-1 ms in host-sized steps and fires at its deadline", () => {
    const host = createFakeClock(5_000);
    const clock = createSystemClock({ host: fakeHost(host) });
    let firedAt: number | undefined;
    clock.setTimer(LONG_MS, () => (firedAt = host.now()));
    host.advance(MAX_HOST_TIMER_MS);
    expect(firedAt).toBeUndefined();
    host.advance(LONG_MS - MAX_HOST_TIMER_MS - 1);
    expect(firedAt).toBeUndefined();
    host.advance(1);
    expect(firedAt).toBe(5_000 + LONG_MS);
    expect(Math.max(...host.requestedDelaysMs)).toBeLessThanOrEqual(MAX_HOST_TIMER_MS);
  });

  it("fires short delays as they are, and a cancelled long timer never", () => {
    const host = createFakeClock(0);
    const clock = createSystemClock({ host: fakeHost(host) });
    const fired: string[] = [];
    clock.setTimer(10, () => fired.push("short"));
    const long = clock.setTimer(LONG_MS, () => fired.push("long"));
    host.advance(MAX_HOST_TIMER_MS + 5);
    long.cancel();
    host.advance(LONG_MS);
    expect(fired).toEqual(["short"]);
    expect(host.activeTimers).toBe(0);
  });

  it("lets the process exit while its timers wait, unless a timer paces work to finish", () => {
    const host = createFakeClock(0);
    const unrefed: unknown[] = [];
    const clock = createSystemClock({ host: { ...fakeHost(host), unref: (timer) => void unrefed.push(timer) } });
    clock.setTimer(10, () => undefined);
    expect(unrefed).toHaveLength(1);
    clock.setTimer(10, () => undefined, { keepsProcessAlive: true });
    expect(unrefed).toHaveLength(1);
  });

  it("counts awake time as the host's timers do: a sleep moves the wall clock, not it", () => {
    const host = createFakeClock(5_000);
    const clock = createSystemClock({ host: fakeHost(host) });
    const [wall, awake] = [clock.now(), clock.awakeMs()];
    host.advance(1_000);
    host.sleep(3_600_000);
    expect(clock.now() - wall).toBe(3_601_000);
    expect(clock.awakeMs() - awake).toBe(1_000);
  });

  describe("with the real host timers", () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning);
    afterEach(() => void process.off("warning", onWarning));

    it("has not fired a 2^31+1000 ms timer after a short real wait", async () => {
      process.on("warning", onWarning);
      const clock = createSystemClock();
      let fired = false;
      const timer = clock.setTimer(LONG_MS, () => (fired = true));
      await new Promise<void>((resolve) => setTimeout(resolve, 50));
      timer.cancel();
      expect(fired).toBe(false);
      expect(warnings.map((w) => w.name)).not.toContain("TimeoutOverflowWarning");
    });
  });
});
