// A deadline that moves while the work does. A transfer over a slow line (a phone's hotspot, a
// throttled plan) takes as long as its bytes need, and is alive all that while: each chunk that
// moves says so. One whose connection died without a word stops moving, and is given up a quiet
// spell after its last chunk, however big the file. Counted in awake time, as timers are.
import type { Clock, TimerHandle } from "./clock.js";

export type StallWatch = {
  /** Bytes moved: nothing is given up before `quietMs` (and any allowance) from now. */
  moved(): void;
  /** From now on, allow `extraMs` more past each quiet spell (what buffers still hold to go out). */
  allow(extraMs: number): void;
  /** The transfer ended (done, failed or aborted): no stall is reported. */
  stop(): void;
};

/**
 * Watches a transfer that starts now: `onStall(spellMs)` is called once nothing has moved for
 * `spellMs`, the quiet spell and any allowance, unless it is stopped first.
 */
export function watchForStall(clock: Clock, quietMs: number, onStall: (spellMs: number) => void): StallWatch {
  let lastMovedMs = clock.awakeMs();
  let extraMs = 0;
  let timer: TimerHandle | undefined;
  const dueInMs = (): number => lastMovedMs + quietMs + extraMs - clock.awakeMs();
  // One timer at a time, re-armed from the last move when it fires early: a chunk costs a clock read.
  const arm = (ms: number): void => {
    timer = clock.setTimer(ms, () => {
      const left = dueInMs();
      if (left > 0) return arm(left);
      timer = undefined;
      onStall(quietMs + extraMs);
    });
  };
  arm(quietMs);
  return {
    moved() {
      lastMovedMs = clock.awakeMs();
    },
    allow(ms) {
      extraMs = Math.max(extraMs, ms);
    },
    stop() {
      timer?.cancel();
      timer = undefined;
    },
  };
}
