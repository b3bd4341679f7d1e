// Time for every layer: "now" and one-shot timers, injected so tests can control them. The
// system clock is the only implementation that touches the host's timers; pure layers take
// times as arguments and set no timers at all.

export type TimerHandle = { cancel(): void };

export type TimerOptions = {
  /**
   * The timer paces work the process must finish (ending what a CLI left running): it keeps the
   * process alive even on a clock whose timers do not.
   */
  keepsProcessAlive?: boolean;
};

export type Clock = {
  /** Epoch milliseconds. */
  now(): number;
  /**
   * This process's own time in milliseconds: it stands still while the computer sleeps and is
   * not moved when the system clock is set, as the host's timers are not. Only differences mean
   * anything (how long Claude Code was silent while the computer was awake).
   */
  awakeMs(): number;
  /** Calls `fn` once after `ms` milliseconds (any non-negative delay) unless cancelled first. */
  setTimer(ms: number, fn: () => void, options?: TimerOptions): TimerHandle;
};

/** The longest delay the host's setTimeout honours; Node fires anything longer after 1 ms. */
export const MAX_HOST_TIMER_MS = 2 ** 31 - 1;

/** The host's timer functions; tests pass a fake to watch what the system clock asks of them. */
export type TimerHost<T = unknown> = {
  now(): number;
  /** The monotonic time the host's timers count (Node's performance.now()). */
  awakeMs(): number;
  setTimeout(fn: () => void, ms: number): T;
  clearTimeout(timer: T): void;
  /** Lets the process exit while this timer is pending (Node's `unref`). */
  unref?(timer: T): void;
};

export type SystemClockOptions = {
  /**
   * Whether a pending timer keeps the process alive. The engine's watchdogs must not (a
   * finished `telecode run` exits); the bridge's must, so a stop can flush what is queued.
   * Default false.
   */
  keepsProcessAlive?: boolean;
  /** The host's timers; default the global setTimeout and Date.now. */
  host?: TimerHost;
};

const globalHost: TimerHost<NodeJS.Timeout> = {
  now: () => Date.now(),
  awakeMs: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (timer) => clearTimeout(timer),
  unref: (timer) => void timer.unref(),
};

/**
 * The real clock. A delay longer than the host allows is waited out as a chain of shorter
 * host timers, re-armed from the deadline, so it never fires early.
 */
export function createSystemClock(options: SystemClockOptions = {}): Clock {
  const host: TimerHost = options.host ?? globalHost;
  const detach = options.keepsProcessAlive === true ? undefined : host.unref?.bind(host);
  return {
    now: () => host.now(),
    awakeMs: () => host.awakeMs(),
    setTimer(ms, fn, timerOptions) {
      const deadline = host.now() + Math.max(0, ms);
      let current: unknown;
      let cancelled = false;
      const arm = (delayMs: number): void => {
        current = host.setTimeout(wake, Math.min(MAX_HOST_TIMER_MS, Math.max(0, delayMs)));
        if (timerOptions?.keepsProcessAlive !== true) detach?.(current);
      };
      const wake = (): void => {
        if (cancelled) return;
        const left = deadline - host.now();
        if (left > 0 && ms > MAX_HOST_TIMER_MS) arm(left);
        else fn();
      };
      arm(ms);
      return {
        cancel: () => {
          cancelled = true;
          host.clearTimeout(current);
        },
      };
    },
  };
}
