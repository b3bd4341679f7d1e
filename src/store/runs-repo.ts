// Runs: one row per prompt a person sent, from start to its end state. This is what lets a
// restart find runs that were cut off (still "running") and tell the person.
import { randomUUID } from "node:crypto";
import type { Database } from "better-sqlite3";
import type { PermissionMode } from "../domain/index.js";
import type { RunInput } from "../sessions/index.js";
import { StoreError } from "./errors.js";
import { readRow, readRows, runInputText, runRow, type FinishedRunState, type RunRecord } from "./records.js";

export type StartRunInput = {
  /** Generated (a UUID) when omitted. */
  runId?: string;
  chatId: number;
  project: string;
  /** Unknown until the CLI reports it for a new session; set later with setSession. */
  sessionId?: string | null;
  promptMessageId?: number | null;
  progressMessageId?: number | null;
  /** What the run was asked, kept while it may be continued (see `finish`). */
  input?: RunInput | null;
};

export type FinishRunInput = {
  state: FinishedRunState;
  costUsd?: number | null;
  /** A short machine-readable outcome, e.g. the CLI's result subtype. */
  outcome?: string | null;
  /** What went wrong, for failed and interrupted runs (already redacted). */
  error?: string | null;
};

/** Where a kept run is: its keeper, the line before its own, the mode it was asked in. */
export type KeptRunInput = { keeperId: string; startSeq: number; mode: PermissionMode };

export type RunsRepository = {
  start(input: StartRunInput): RunRecord;
  get(runId: string): RunRecord | null;
  setSession(runId: string, sessionId: string): boolean;
  setProgressMessage(runId: string, messageId: number): boolean;
  /** The run's process is kept: where to find it again after a restart. */
  setKept(runId: string, kept: KeptRunInput): boolean;
  /** The last line of the run's process processed for it (only ever moves forward). */
  setLastSeq(runId: string, seq: number): boolean;
  /** The CLI began the run's turn in `sessionId` (it has the prompt, written with `promptUuid`). */
  setTaken(runId: string, sessionId: string, promptUuid?: string): boolean;
  /**
   * Ends a running run; false (and no change) when it had already ended. Its input is kept only
   * when it was interrupted or failed (Continue, or "Run it in a new session", may send it again).
   */
  finish(runId: string, input: FinishRunInput): boolean;
  /** Oldest first. */
  listRunning(): RunRecord[];
  /** Marks these runs interrupted if they are still running; returns the records changed. */
  markInterrupted(runIds: readonly string[], reason?: string): RunRecord[];
  /** Most recent first. */
  recent(chatId: number, limit?: number): RunRecord[];
  /** The latest run the chat's message `messageId` started, if one did (and is still kept). */
  startedBy(chatId: number, messageId: number): RunRecord | null;
  /** Forgets the inputs of runs that ended before `beforeMs` (Continue then resumes without them). */
  forgetInputs(beforeMs: number): number;
  /**
   * Spends the one taking-up of an interrupted run (its Continue) or a failed one (its request
   * run again): true the first time only, across restarts.
   */
  claimResume(runId: string): boolean;
  /** The summary the run's progress message is to show (null: shown); the front end's own text. */
  setPendingSummary(runId: string, summary: string | null): boolean;
  /** Ended runs whose progress message may not show their summary yet (a stop came first). */
  listPendingSummaries(): RunRecord[];
  /** Deletes the runs that ended before `beforeMs`, their decisions with them; returns how many. */
  pruneEnded(beforeMs: number): number;
};

export function createRunsRepository(db: Database, now: () => number): RunsRepository {
  const select = db.prepare("SELECT * FROM runs WHERE run_id = ?");
  const insert = db.prepare(`
    INSERT INTO runs (run_id, chat_id, project, session_id, state, prompt_message_id, progress_message_id, started_at, input)
    VALUES (@run_id, @chat_id, @project, @session_id, 'running', @prompt_message_id, @progress_message_id, @started_at, @input)`);
  const setSession = db.prepare("UPDATE runs SET session_id = ? WHERE run_id = ?");
  const setTaken = db.prepare("UPDATE runs SET session_id = ?, prompt_taken = 1, prompt_uuid = ? WHERE run_id = ?");
  const setProgress = db.prepare("UPDATE runs SET progress_message_id = ? WHERE run_id = ?");
  const setKept = db.prepare(
    "UPDATE runs SET keeper_id = @keeper_id, start_seq = @start_seq, last_seq = @start_seq, mode = @mode WHERE run_id = @run_id",
  );
  const setLastSeq = db.prepare("UPDATE runs SET last_seq = ? WHERE run_id = ? AND (last_seq IS NULL OR last_seq < ?)");
  const finish = db.prepare(`
    UPDATE runs SET state = @state, ended_at = @ended_at, cost_usd = @cost_usd, outcome = @outcome, error = @error,
      input = CASE WHEN @state IN ('interrupted', 'failed') THEN input END
    WHERE run_id = @run_id AND state = 'running'`);
  const forgetInputs = db.prepare(
    "UPDATE runs SET input = NULL WHERE input IS NOT NULL AND state <> 'running' AND ended_at < ?",
  );
  const claimResume = db.prepare(
    "UPDATE runs SET resumed_at = ? WHERE run_id = ? AND state IN ('interrupted', 'failed') AND resumed_at IS NULL",
  );
  const setPendingSummary = db.prepare("UPDATE runs SET pending_summary = ? WHERE run_id = ?");
  const pendingSummaries = db.prepare(
    "SELECT * FROM runs WHERE pending_summary IS NOT NULL AND progress_message_id IS NOT NULL ORDER BY ended_at, rowid",
  );
  const pruneEnded = db.prepare("DELETE FROM runs WHERE state <> 'running' AND ended_at < ?");
  const running = db.prepare("SELECT * FROM runs WHERE state = 'running' ORDER BY started_at, rowid");
  const recent = db.prepare("SELECT * FROM runs WHERE chat_id = ? ORDER BY started_at DESC, rowid DESC LIMIT ?");
  const startedBy = db.prepare(
    "SELECT * FROM runs WHERE chat_id = ? AND prompt_message_id = ? ORDER BY started_at DESC, rowid DESC LIMIT 1",
  );

  const get = (runId: string): RunRecord | null => {
    const row = select.get(runId);
    return row === undefined ? null : readRow(runRow, "runs", row);
  };

  const start = (input: StartRunInput): RunRecord => {
    const runId = input.runId ?? randomUUID();
    insert.run({
      run_id: runId,
      chat_id: input.chatId,
      project: input.project,
      session_id: input.sessionId ?? null,
      prompt_message_id: input.promptMessageId ?? null,
      progress_message_id: input.progressMessageId ?? null,
      started_at: now(),
      input: input.input === undefined || input.input === null ? null : runInputText(input.input),
    });
    const stored = get(runId);
    if (!stored)
      throw new StoreError(
        "store.not_found",
        "A run could not be read back after writing it. Run `telecode doctor` to check the database.",
        { details: { runId } },
      );
    return stored;
  };

  const finishRun = (runId: string, input: FinishRunInput): boolean =>
    finish.run({
      run_id: runId,
      state: input.state,
      ended_at: now(),
      cost_usd: input.costUsd ?? null,
      outcome: input.outcome ?? null,
      error: input.error ?? null,
    }).changes > 0;

  const markInterrupted = db.transaction((runIds: readonly string[], reason: string): RunRecord[] => {
    const changed: RunRecord[] = [];
    for (const runId of runIds) {
      if (!finishRun(runId, { state: "interrupted", error: reason })) continue;
      const record = get(runId);
      if (record) changed.push(record);
    }
    return changed;
  });

  return {
    start,
    get,
    setSession: (runId, sessionId) => setSession.run(sessionId, runId).changes > 0,
    setProgressMessage: (runId, messageId) => setProgress.run(messageId, runId).changes > 0,
    setKept: (runId, kept) =>
      setKept.run({ run_id: runId, keeper_id: kept.keeperId, start_seq: kept.startSeq, mode: kept.mode }).changes > 0,
    setLastSeq: (runId, seq) => setLastSeq.run(seq, runId, seq).changes > 0,
    setTaken: (runId, sessionId, promptUuid) => setTaken.run(sessionId, promptUuid ?? null, runId).changes > 0,
    finish: finishRun,
    listRunning: () => readRows(runRow, "runs", running.all()),
    markInterrupted: (runIds, reason = "Telecode stopped while this was running") => markInterrupted(runIds, reason),
    recent: (chatId, limit = 20) => readRows(runRow, "runs", recent.all(chatId, limit)),
    startedBy: (chatId, messageId) => {
      const row = startedBy.get(chatId, messageId);
      return row === undefined ? null : readRow(runRow, "runs", row);
    },
    forgetInputs: (beforeMs) => forgetInputs.run(beforeMs).changes,
    claimResume: (runId) => claimResume.run(now(), runId).changes > 0,
    setPendingSummary: (runId, summary) => setPendingSummary.run(summary, runId).changes > 0,
    listPendingSummaries: () => readRows(runRow, "runs", pendingSummaries.all()),
    pruneEnded: (beforeMs) => pruneEnded.run(beforeMs).changes,
  };
}
