// Notices that the computer slept. The host's timers count this process's own time, which
// stands still while a laptop's lid is closed: on waking, a schedule due at 9:00 would still
// wait out the rest of its timer (up to an hour) and the long poll would wait on a connection
// that is gone. The wall clock has moved on, though; when it is found ahead of awake time by
// more than noise, everyone listening is told at once.
import type { Clock, TimerHandle } from "./clock.js";

/** How often the two clocks are compared: a wake is noticed within this long. */
export const LOOK_EVERY_MS = 5_000;
/** The wall clock this far ahead of awake time is a sleep (or the clock set ahead); less is noise. */
export const SLEEP_NOTICE_MS = 10_000;

/** A moment by both clocks, to tell later whether the computer slept since. */
export type Moment = Readonly<{ atMs: number; awakeMs: number }>;

type BothClocks = Pick<Clock, "now" | "awakeMs">;

export function momentOf(clock: BothClocks): Moment {
  return { atMs: clock.now(), awakeMs: clock.awakeMs() };
}

/** How long the computer slept (or its clock was set ahead) since `moment`. */
export function sleptSince(clock: BothClocks, moment: Moment): number {
  return clock.now() - moment.atMs - (clock.awakeMs() - moment.awakeMs);
}

export type WakeWatch = {
  /** Calls `listener` each time the computer is found to have slept; returns its unsubscribe. */
  onWake(listener: (sleptMs: number) => void): () => void;
  /** Stops looking (the watch's timer may be what keeps the process alive). */
  stop(): void;
};

export type WakeWatchOptions = {
  lookEveryMs?: number;
  /** A listener threw: the others are still told. */
  onListenerError?: (error: unknown) => void;
};

export function watchForWakes(clock: Clock, options: WakeWatchOptions = {}): WakeWatch {
  const lookEveryMs = options.lookEveryMs ?? LOOK_EVERY_MS;
  const listeners = new Set<(sleptMs: number) => void>();
  let last = momentOf(clock);
  let timer: TimerHandle | undefined;
  const look = (): void => {
    const slept = sleptSince(clock, last);
    last = momentOf(clock);
    timer = clock.setTimer(lookEveryMs, look);
    if (slept < SLEEP_NOTICE_MS) return;
    for (const listener of [...listeners]) {
      try {
        listener(slept);
      } catch (error) {
        options.onListenerError?.(error);
      }
    }
  };
  timer = clock.setTimer(lookEveryMs, look);
  return {
    onWake(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    stop() {
      timer?.cancel();
      listeners.clear();
    },
  };
}
