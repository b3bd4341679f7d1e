// Notices that the computer slept, or that its network changed under it. The host's timers count
// this process's own time, which stands still while a laptop's lid is closed: on waking, a
// schedule due at 9:00 would still wait out the rest of its timer (up to an hour) and the long
// poll would wait on a connection that is gone. The wall clock has moved on, though; when it is
// found ahead of awake time by more than noise, everyone listening is told at once. Connections
// also die when the machine's addresses change with the lid open (another Wi-Fi, a VPN coming
// up or going down); those are looked at as often and told the same way.
import { networkInterfaces } from "node:os";
import type { Clock, TimerHandle } from "./clock.js";

/** How often the two clocks (and the addresses) are compared: a wake is noticed within this long. */
export const LOOK_EVERY_MS = 5_000;
/** The wall clock this far ahead of awake time is a sleep (or the clock set ahead); less is noise. */
export const SLEEP_NOTICE_MS = 10_000;

/** A moment by both clocks, to tell later whether the computer slept since. */
export type Moment = Readonly<{ atMs: number; awakeMs: number }>;

/** What the watch found at one look. */
export type Wake = Readonly<{
  /** How long the computer slept since the look before (0 when it did not). */
  sleptMs: number;
  /** The machine's network addresses changed since the look before. */
  networkChanged: boolean;
  /** The look before: a connection opened before it may be on the network of then. */
  lookedBefore: Moment;
}>;

type BothClocks = Pick<Clock, "now" | "awakeMs">;

export function momentOf(clock: BothClocks): Moment {
  return { atMs: clock.now(), awakeMs: clock.awakeMs() };
}

/** How long the computer slept (or its clock was set ahead) since `moment`. */
export function sleptSince(clock: BothClocks, moment: Moment): number {
  return clock.now() - moment.atMs - (clock.awakeMs() - moment.awakeMs);
}

/**
 * This machine's addresses on its networks, as one string: its IPv4 addresses but the loopback
 * and self-assigned ones (a container's bridge adds link-local IPv6 ones, and IPv6 privacy
 * addresses rotate by themselves, neither of which ends a connection).
 */
export function networkAddresses(): string {
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((a) => a.family === "IPv4" && !a.internal && !a.address.startsWith("169.254."))
    .map((a) => a.address)
    .sort()
    .join(" ");
}

export type WakeWatch = {
  /** Calls `listener` each time the computer is found to have slept or changed network; returns its unsubscribe. */
  onWake(listener: (wake: Wake) => void): () => void;
  /** Stops looking (the watch's timer may be what keeps the process alive). */
  stop(): void;
};

export type WakeWatchOptions = {
  lookEveryMs?: number;
  /** The machine's addresses (default `networkAddresses`; tests change them at will). */
  addresses?: () => string;
  /** A listener threw: the others are still told. */
  onListenerError?: (error: unknown) => void;
};

export function watchForWakes(clock: Clock, options: WakeWatchOptions = {}): WakeWatch {
  const lookEveryMs = options.lookEveryMs ?? LOOK_EVERY_MS;
  const addressesNow = options.addresses ?? networkAddresses;
  const listeners = new Set<(wake: Wake) => void>();
  /** The addresses at the last look; kept when they cannot be read. */
  const readAddresses = (before: string | undefined): string | undefined => {
    try {
      return addressesNow();
    } catch {
      return before;
    }
  };
  let last = momentOf(clock);
  let addresses = readAddresses(undefined);
  let timer: TimerHandle | undefined;
  const look = (): void => {
    const slept = sleptSince(clock, last);
    const lookedBefore = last;
    last = momentOf(clock);
    const before = addresses;
    addresses = readAddresses(before);
    timer = clock.setTimer(lookEveryMs, look);
    const wake: Wake = {
      sleptMs: slept < SLEEP_NOTICE_MS ? 0 : slept,
      networkChanged: addresses !== before,
      lookedBefore,
    };
    if (wake.sleptMs === 0 && !wake.networkChanged) return;
    for (const listener of [...listeners]) {
      try {
        listener(wake);
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
