// What a Claude Code process's end means for its session: the failure that explains it, whether
// anyone expected it, said in the log, and its control channel closed with it (every request
// still waiting on the process fails with that failure).
import type { RunFailure } from "../domain/index.js";
import type { Logger } from "../ports/index.js";
import type { CliConnection } from "./connection.js";
import { failureError } from "./errors.js";
import { engineFailure } from "./failures.js";
import { processEndFailure } from "./run-outcome.js";
import type { TransportClosed } from "./transport.js";

export type ClosedReading = {
  failure: RunFailure;
  /** The keeper holding the process went away: what it printed since is lost, not failed. */
  lost: boolean;
  /** Telecode ended it, or it exited cleanly: nothing to warn of when no run was in it. */
  expected: boolean;
};

export function settleClosedConnection(
  connection: CliConnection,
  closed: TransportClosed,
  logger: Logger,
): ClosedReading {
  const { exit, stderrTail } = closed;
  const lost = closed.lostWithKeeper === true;
  const failure = lost
    ? engineFailure("keeper_lost")
    : processEndFailure({
        exit,
        endReason: connection.endReason,
        silentMs: connection.silentMs,
        hadOutput: connection.hadOutput,
        stderrTail,
      });
  connection.channel.close(
    failureError("claude.exited", failure, { details: { exitCode: exit.code, signal: exit.signal, stderrTail } }),
  );
  const expected = connection.endReason !== undefined || (exit.code === 0 && exit.signal === null);
  logger.event(
    "claude.exited",
    {
      pid: connection.transport.pid,
      exit,
      reason: connection.endReason,
      stderrTail: expected ? undefined : stderrTail,
    },
    expected ? "info" : "warn",
  );
  return { failure, lost, expected };
}
