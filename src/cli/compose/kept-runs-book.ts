// What the store keeps about runs in kept processes, so a restarted Telecode can take them in
// again: the keeper and the line the run's own output starts after (written once, at start),
// and how far its output was processed (written at most once a second, and when let go of).
import type { KeptRunPlace } from "../../claude/index.js";
import type { PermissionMode } from "../../domain/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import type { Store } from "../../store/index.js";

export type KeptRunsBook = {
  /** A run started in a kept process. */
  started(runId: string, place: KeptRunPlace, mode: PermissionMode): void;
  /** Lines through `seq` of the run's process were processed; `now`: written at once. */
  processed(runId: string, seq: number, now?: boolean): void;
};

const WRITE_EVERY_MS = 1000;

export function storeKeptRunsBook(store: Store, clock: Clock, logger: Logger): KeptRunsBook {
  const written = new Map<string, number>();
  const record = (runId: string, write: () => unknown): void => {
    try {
      write();
    } catch (error) {
      // Bookkeeping for a restart: the run goes on regardless.
      logger.event("keeper.record_failed", { err: error, runId }, "error");
    }
  };
  return {
    started(runId, place, mode) {
      record(runId, () => store.runs.setKept(runId, { keeperId: place.keptId, startSeq: place.startSeq, mode }));
    },
    processed(runId, seq, now = false) {
      const at = clock.now();
      if (!now && at - (written.get(runId) ?? Number.NEGATIVE_INFINITY) < WRITE_EVERY_MS) return;
      written.set(runId, at);
      record(runId, () => store.runs.setLastSeq(runId, seq));
    },
  };
}
