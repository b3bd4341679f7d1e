// Accepted requests that have not started a run yet, in the order they came: kept so a crash or
// a restart loses none (the next start runs them, or drops the ones too old, with Retry).
import type { Database } from "better-sqlite3";
import type { RunInput } from "../sessions/index.js";
import { queuedRunRow, readRow, readRows, runInputText, type QueuedRunRecord } from "./records.js";

export type AddQueuedRunInput = {
  runId: string;
  chatId: number;
  project: string;
  input: RunInput;
  promptMessageId?: number | null;
  /** Default: now. */
  queuedAt?: number;
};

export type QueuedRunsRepository = {
  /** Keeps a waiting request; false (and no change) when its run id is already kept. */
  add(input: AddQueuedRunInput): boolean;
  get(runId: string): QueuedRunRecord | null;
  /** The message that shows the request; false when it is not kept. */
  setMessage(runId: string, messageId: number): boolean;
  /** What a waiting request runs with now (the person edited its message); false when none waits. */
  setInput(runId: string, input: RunInput): boolean;
  /** Removes the request and returns it as it was (null when it was not kept): one caller wins. */
  take(runId: string): QueuedRunRecord | null;
  /** Waiting requests, oldest first (the order they came in). */
  listWaiting(): QueuedRunRecord[];
  /** A waiting request that did not run (a restart found it too old, a spending cap refused it): it stays, dropped, until Retry takes it. */
  markDropped(runId: string): boolean;
  /** Forgets dropped requests queued before `beforeMs`; returns how many. */
  pruneDropped(beforeMs: number): number;
};

export function createQueuedRunsRepository(db: Database, now: () => number): QueuedRunsRepository {
  const insert = db.prepare(`
    INSERT INTO queued_runs (run_id, chat_id, project, input, prompt_message_id, queued_at, state)
    VALUES (@run_id, @chat_id, @project, @input, @prompt_message_id, @queued_at, 'waiting')
    ON CONFLICT (run_id) DO NOTHING`);
  const select = db.prepare("SELECT * FROM queued_runs WHERE run_id = ?");
  const remove = db.prepare("DELETE FROM queued_runs WHERE run_id = ?");
  const setMessage = db.prepare("UPDATE queued_runs SET message_id = ? WHERE run_id = ?");
  const setInput = db.prepare("UPDATE queued_runs SET input = ? WHERE run_id = ? AND state = 'waiting'");
  const waiting = db.prepare("SELECT * FROM queued_runs WHERE state = 'waiting' ORDER BY queued_at, rowid");
  const drop = db.prepare("UPDATE queued_runs SET state = 'dropped' WHERE run_id = ? AND state = 'waiting'");
  const prune = db.prepare("DELETE FROM queued_runs WHERE state = 'dropped' AND queued_at < ?");

  const get = (runId: string): QueuedRunRecord | null => {
    const row = select.get(runId);
    return row === undefined ? null : readRow(queuedRunRow, "queued_runs", row);
  };
  const take = db.transaction((runId: string): QueuedRunRecord | null => {
    const record = get(runId);
    if (record !== null) remove.run(runId);
    return record;
  });

  return {
    add: (input) =>
      insert.run({
        run_id: input.runId,
        chat_id: input.chatId,
        project: input.project,
        input: runInputText(input.input),
        prompt_message_id: input.promptMessageId ?? null,
        queued_at: input.queuedAt ?? now(),
      }).changes > 0,
    get,
    setMessage: (runId, messageId) => setMessage.run(messageId, runId).changes > 0,
    setInput: (runId, input) => setInput.run(runInputText(input), runId).changes > 0,
    take: (runId) => take(runId),
    listWaiting: () => readRows(queuedRunRow, "queued_runs", waiting.all()),
    markDropped: (runId) => drop.run(runId).changes > 0,
    pruneDropped: (beforeMs) => prune.run(beforeMs).changes,
  };
}
