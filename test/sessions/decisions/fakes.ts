// Test fakes for the driver's boundaries: a front end that records what it was asked, and
// engine session controls whose acks the test releases (the clock is test/support's).
import type { DecisionOutcome, InfoMessage } from "../../../src/policy/index.js";
import type { Lane } from "../../../src/domain/index.js";
import type { PendingDecisionView, PersonPort } from "../../../src/sessions/decisions/index.js";

/** A lane named for a test ("chat-1"); decisions and typed replies are routed by lane. */
export function lane(name: string): Lane {
  return { chatId: 1, project: name };
}

export type RecordingPort = PersonPort & {
  asks: PendingDecisionView[];
  outcomes: { decisionId: string; outcome: DecisionOutcome }[];
  infos: { lane: Lane; info: InfoMessage }[];
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
    inform(lane, info) {
      port.infos.push({ lane, info });
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
