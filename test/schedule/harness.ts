// A scheduler on a real SQLite store in a temp dir, driven by the manual clock: records every
// fire and event, and restarts (closing and reopening the store) like a Telecode restart would.
import { afterEach } from "vitest";
import {
  createScheduler,
  DEFAULT_LOOP_CAPS,
  type ConfigScheduleEntry,
  type FireOutcome,
  type Schedule,
  type Scheduler,
  type SchedulerEvent,
  type SchedulerSettings,
} from "../../src/schedule/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";
import { useTempDirs } from "../support/temp-dirs.js";

export const SETTINGS: SchedulerSettings = {
  loopsEnabled: true,
  attended: false,
  caps: DEFAULT_LOOP_CAPS,
  graceMs: 60 * 60_000,
  paused: false,
  defaultTimeZone: "Europe/Berlin",
};

export type Fire = { id: string; iteration: number; at: number; schedule: Schedule };

export type Harness = {
  clock: FakeClock;
  dir: string;
  readonly store: Store;
  readonly scheduler: Scheduler;
  fires: Fire[];
  events: SchedulerEvent[];
  /** The longest timer the scheduler has asked for, in ms. */
  longestTimerMs(): number;
  /** What the next fires answer (default: every run starts). */
  answer(fn: (schedule: Schedule) => FireOutcome | Promise<FireOutcome>): void;
  /** Moves the clock on by `ms` and lets every fire in flight settle. */
  advance(ms: number): Promise<void>;
  /** Moves the clock to `atMs` (which must not be in the past) and lets fires settle. */
  advanceTo(atMs: number): Promise<void>;
  /** The computer sleeps for `ms`: the wall clock moves on, the scheduler's timer stays where it was. */
  sleep(ms: number): void;
  /** Stops Telecode: the scheduler and the store are gone, the clock keeps running. */
  shutDown(): void;
  /** Starts Telecode again on the same database, with these config schedules. */
  startUp(options?: { settings?: SchedulerSettings; config?: readonly ConfigScheduleEntry[] }): Promise<void>;
};

export const at = (iso: string): number => Date.parse(iso);

export type HarnessOptions = {
  /** How late every scheduler timer wakes, in ms (real timers wake a few ms late, more under load). */
  timerLateMs?: number;
};

/** Call at module level; each call of the returned function makes a fresh harness at `startIso`. */
export function useSchedulerHarness(): (
  startIso: string,
  settings?: SchedulerSettings,
  options?: HarnessOptions,
) => Harness {
  const tempDir = useTempDirs("schedule");
  const open: Harness[] = [];
  afterEach(() => {
    for (const h of open.splice(0)) h.shutDown();
  });
  return (startIso, settings = SETTINGS, options = {}) => {
    const dir = tempDir();
    const clock = createFakeClock(at(startIso));
    const fires: Fire[] = [];
    const events: SchedulerEvent[] = [];
    let answer: (schedule: Schedule) => FireOutcome | Promise<FireOutcome> = () => "started";
    let store: Store | null = null;
    let scheduler: Scheduler | null = null;

    // The scheduler's timers, seen through a wrapper so the harness can stop at each one and let
    // the fires it started settle, as the event loop would between two real timers.
    const pending = new Set<{ at: number }>();
    let longestMs = 0;
    const schedulerClock = {
      now: () => clock.now(),
      setTimer(ms: number, fn: () => void) {
        longestMs = Math.max(longestMs, ms);
        const delayMs = ms + (options.timerLateMs ?? 0);
        const timer = { at: clock.now() + delayMs };
        pending.add(timer);
        const handle = clock.setTimer(delayMs, () => {
          pending.delete(timer);
          fn();
        });
        return {
          cancel() {
            pending.delete(timer);
            handle.cancel();
          },
        };
      },
    };
    const nextTimerAt = (): number | null => {
      const times = [...pending].map((t) => t.at);
      return times.length === 0 ? null : Math.min(...times);
    };

    const boot = (s: SchedulerSettings): void => {
      store = openStore(dir, { now: () => clock.now() });
      scheduler = createScheduler({
        clock: schedulerClock,
        repository: store.schedules,
        settings: s,
        fire: (schedule, iteration) => {
          fires.push({ id: schedule.id, iteration, at: clock.now(), schedule });
          return answer(schedule);
        },
        onEvent: (event) => events.push(event),
      });
    };
    boot(settings);

    const harness: Harness = {
      clock,
      dir,
      get store() {
        if (store === null) throw new Error("Telecode is shut down");
        return store;
      },
      get scheduler() {
        if (scheduler === null) throw new Error("Telecode is shut down");
        return scheduler;
      },
      fires,
      events,
      longestTimerMs: () => longestMs,
      answer: (fn) => (answer = fn),
      async advance(ms) {
        await harness.advanceTo(clock.now() + ms);
      },
      async advanceTo(atMs) {
        if (atMs < clock.now()) throw new Error("the clock only moves forward");
        await scheduler?.whenIdle();
        for (let next = nextTimerAt(); next !== null && next <= atMs; next = nextTimerAt()) {
          clock.advance(next - clock.now());
          await scheduler?.whenIdle();
        }
        clock.advance(atMs - clock.now());
        await scheduler?.whenIdle();
      },
      sleep(ms) {
        clock.sleep(ms);
        for (const timer of pending) timer.at += ms;
      },
      shutDown() {
        scheduler?.stop();
        store?.close();
        scheduler = null;
        store = null;
      },
      async startUp(options = {}) {
        harness.shutDown();
        boot(options.settings ?? settings);
        if (options.config) harness.scheduler.replaceConfigSchedules(options.config);
        harness.scheduler.start();
        await harness.scheduler.whenIdle();
      },
    };
    open.push(harness);
    return harness;
  };
}

/** A config entry with defaults a test can override. */
export function configEntry(
  overrides: Partial<ConfigScheduleEntry> & { id: string; cron: string },
): ConfigScheduleEntry {
  return {
    timeZone: "Europe/Berlin",
    prompt: "Review yesterday's commits.",
    project: "app",
    chatId: 42,
    topic: null,
    session: "new",
    runOnce: false,
    overrides: { permissionMode: null, model: null, effort: null },
    maxRunCostUsd: null,
    maxDayCostUsd: null,
    ...overrides,
  };
}

/** Fire times as ISO strings, for readable expectations. */
export const isoTimes = (fires: readonly Fire[]): string[] => fires.map((f) => new Date(f.at).toISOString());
