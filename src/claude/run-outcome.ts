// How a run or a process ended, in words people read: the run_completed event built from a
// turn's outcome, and the error for a process that went away. Pure functions.
import { excerpt, formatDurationMs } from "../domain/index.js";
import type { RunCompleted } from "../domain/index.js";
import type { ProcessExit } from "./transport.js";
import { ClaudeError } from "./errors.js";

const STDERR_QUOTE_CHARS = 1_000;

export type CompletionFields = {
  ok: boolean;
  answer?: string;
  error?: string;
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
  endReason: "idle" | "cancel" | "silence" | "close" | undefined;
  silentMs: number;
  hadOutput: boolean;
  stderrTail: string;
};

/** The error that explains a process's end: silence, a failed start (quoting stderr), or a crash. */
export function processEndError(end: ProcessEnd): ClaudeError {
  const { exit, stderrTail: tail } = end;
  const details = { exitCode: exit.code, signal: exit.signal, stderrTail: tail };
  if (end.endReason === "silence") {
    return new ClaudeError(
      "claude.exited",
      `Claude Code produced no output for ${formatDurationMs(end.silentMs)} and was stopped; send your message again to resume the session.`,
      { details },
    );
  }
  if (end.endReason === "close") return new ClaudeError("claude.exited", "The session was closed.", { details });
  if (!end.hadOutput && (exit.code !== 0 || exit.signal !== null)) {
    const quoted = tail === "" ? "(nothing on stderr)" : excerpt(tail.slice(-STDERR_QUOTE_CHARS), STDERR_QUOTE_CHARS);
    return new ClaudeError(
      "claude.exited",
      `Claude Code exited with ${describeExit(exit)} before any output: ${quoted}. Check claude.extra_args, and that \`claude\` starts in a terminal.`,
      { details },
    );
  }
  const lastLine = tail.split("\n").pop() ?? "";
  return new ClaudeError(
    "claude.exited",
    `Claude Code exited unexpectedly (${describeExit(exit)})${lastLine === "" ? "" : `: ${excerpt(lastLine, 300)}`}; send your message again to resume the session.`,
    { details },
  );
}

/** "code 1" or "signal SIGTERM". */
export function describeExit(exit: ProcessExit): string {
  return exit.signal !== null ? `signal ${exit.signal}` : `code ${String(exit.code)}`;
}

/** "no output for 10 min; still running: Bash `npm test`. You can cancel the run." */
export function stallNoteText(silentMs: number, running: readonly string[]): string {
  const still = running.length > 0 ? `; still running: ${running.join(", ")}` : "";
  return `no output for ${formatDurationMs(silentMs)}${still}. You can cancel the run.`;
}
