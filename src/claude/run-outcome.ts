// How a run or a process ended: the run_completed event built from a turn's outcome, and the
// failure that explains a process that went away. Pure functions.
import { formatDurationMs, type RunCompleted, type RunFailure } from "../domain/index.js";
import type { EndReason } from "./connection.js";
import { engineFailure } from "./failures.js";
import type { ProcessExit } from "./transport.js";

export type CompletionFields = {
  ok: boolean;
  answer?: string;
  error?: RunFailure;
  interrupted?: boolean;
  costUsd?: number;
};

/** The run_completed event; a cancelled run reads "cancelled" (no error), never ok. */
export function runCompletedEvent(
  run: { id: string; cancelled: boolean; startedAt: number },
  fields: CompletionFields,
  nowMs: number,
  sessionId: string | undefined,
): RunCompleted {
  const event: RunCompleted = {
    type: "run_completed",
    runId: run.id,
    ok: fields.ok && !run.cancelled,
    answer: fields.answer ?? "",
    interrupted: fields.interrupted ?? run.cancelled,
    cancelled: run.cancelled,
    costUsd: fields.costUsd ?? 0,
    durationMs: nowMs - run.startedAt,
  };
  if (fields.error !== undefined && !run.cancelled) event.error = fields.error;
  if (sessionId !== undefined) event.sessionId = sessionId;
  return event;
}

export type ProcessEnd = {
  exit: ProcessExit;
  /** Why we ended it ourselves; undefined when it ended on its own. */
  endReason: EndReason | undefined;
  silentMs: number;
  hadOutput: boolean;
  stderrTail: string;
};

/** The failure that explains a process's end: silence, a failed start (quoting stderr), or a crash. */
export function processEndFailure(end: ProcessEnd): RunFailure {
  const { exit, stderrTail } = end;
  if (end.endReason === "silence") return engineFailure("silence", { exit, silentMs: end.silentMs });
  if (end.endReason === "close")
    return { reason: "session_ended", what: "The session was closed.", hint: "Send the message again to continue." };
  if (!end.hadOutput && (exit.code !== 0 || exit.signal !== null))
    return engineFailure("exited_before_output", { exit, stderrTail });
  return engineFailure("exited", { exit, stderrTail });
}

/** "no output for 10 min; still running: Bash `npm test`. You can cancel the run." */
export function stallNoteText(silentMs: number, running: readonly string[]): string {
  const still = running.length > 0 ? `; still running: ${running.join(", ")}` : "";
  return `no output for ${formatDurationMs(silentMs)}${still}. You can cancel the run.`;
}
