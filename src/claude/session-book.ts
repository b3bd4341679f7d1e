// What Telecode remembers of each CLI session across its processes (a resume, an idle close,
// a restart): the last running total the CLI reported (a turn's own cost needs it, as the CLI
// carries the total into a resumed process) and the session's plan (the CLI keeps its task
// list across a resume; a new process's translator would otherwise know none of it). SQLite in
// Telecode, memory in `telecode run` and replay.
import type { ChecklistItem } from "../domain/index.js";

/** Implementations must not throw: a failed read reads as nothing known. */
export interface SessionBook {
  /** The session's last known running total in USD; undefined when it was never seen. */
  lastTotalUsd(sessionId: string): number | undefined;
  recordTotalUsd(sessionId: string, totalUsd: number): void;
  /** The session's plan as it last stood; undefined when it never had one. */
  planOf(sessionId: string): readonly ChecklistItem[] | undefined;
  recordPlan(sessionId: string, items: readonly ChecklistItem[]): void;
}

/** A book in memory, for one process's lifetime. */
export function createMemorySessionBook(): SessionBook {
  const totals = new Map<string, number>();
  const plans = new Map<string, readonly ChecklistItem[]>();
  return {
    lastTotalUsd: (sessionId) => totals.get(sessionId),
    recordTotalUsd: (sessionId, totalUsd) => void totals.set(sessionId, totalUsd),
    planOf: (sessionId) => plans.get(sessionId),
    recordPlan: (sessionId, items) => void plans.set(sessionId, items),
  };
}
