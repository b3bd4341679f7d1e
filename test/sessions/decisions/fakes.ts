// Test fakes for the driver's boundaries: a clock whose time only moves when told, a front
// end that records what it was asked, and engine session controls whose acks the test releases.
import type { DecisionOutcome, InfoMessage } from "../../../src/policy/index.js";
import type { DecisionClock, PendingDecisionView, PersonPort } from "../../../src/sessions/decisions/index.js";

export type FakeClock = DecisionClock & {
  /** Moves time forward, firing due timers in time order. */
  advance(ms: number): void;
  readonly activeTimers: number;
};

export function fakeClock(startMs = 0): FakeClock {
  let now = startMs;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    now: () => now,
    setTimer(ms, fn) {
      const id = ++seq;
      timers.set(id, { at: now + ms, fn });
      return { cancel: () => timers.delete(id) };
    },
    advance(ms) {
      const target = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= target)
          .sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = target;
    },
    get activeTimers() {
      return timers.size;
    },
  };
}

export type RecordingPort = PersonPort & {
  asks: PendingDecisionView[];
  outcomes: { decisionId: string; outcome: DecisionOutcome }[];
  infos: { sessionKey: string; info: InfoMessage }[];
  /** The latest prompt shown for a decision. */
  lastAsk(): PendingDecisionView;
};

export function recordingPort(onAsk?: (view: PendingDecisionView) => void): RecordingPort {
  const port: RecordingPort = {
    asks: [],
    outcomes: [],
    infos: [],
    ask(view) {
      port.asks.push(view);
      onAsk?.(view);
    },
    settled(decisionId, outcome) {
      port.outcomes.push({ decisionId, outcome });
    },
    inform(sessionKey, info) {
      port.infos.push({ sessionKey, info });
    },
    lastAsk() {
      const last = port.asks.at(-1);
      if (!last) throw new Error("nothing was asked");
      return last;
    },
  };
  return port;
}

/** Session controls whose set_permission_mode ack the test releases by hand; logs the order. */
export function manualSession(log: string[]) {
  const acks: { mode: string; resolve: () => void; reject: (e: Error) => void }[] = [];
  return {
    sessionId: "s-1" as string | undefined,
    pid: 4242 as number | undefined,
    setPermissionMode(mode: string): Promise<void> {
      log.push(`set_permission_mode ${mode}`);
      return new Promise<void>((resolve, reject) => acks.push({ mode, resolve, reject }));
    },
    setModel: () => Promise.resolve(),
    interrupt: () => Promise.resolve(),
    /** Acks the oldest outstanding set_permission_mode. */
    ack(): void {
      const a = acks.shift();
      if (!a) throw new Error("no set_permission_mode outstanding");
      log.push(`ack ${a.mode}`);
      a.resolve();
    },
    fail(message: string): void {
      const a = acks.shift();
      if (!a) throw new Error("no set_permission_mode outstanding");
      a.reject(new Error(message));
    },
    get outstanding(): number {
      return acks.length;
    },
  };
}

/** Resolves once pending promise callbacks have run (not a sleep: no time passes). */
export async function settleMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
