// Decisions waiting for a person (tool approvals, plan approvals, questions) and how they
// ended. A decision is resolved at most once, so a double tap or a late tap does nothing.
import { randomUUID } from "node:crypto";
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";
import {
  decisionRow,
  readRow,
  readRows,
  type DecisionKind,
  type DecisionRecord,
  type DecisionState,
} from "./records.js";

export type AddDecisionInput = {
  /** Generated (a UUID) when omitted; the Telegram layer may pass its own short id. */
  decisionId?: string;
  chatId: number;
  runId: string;
  kind: DecisionKind;
  /** The CLI's control request id. */
  requestId: string;
  messageId?: number | null;
};

/** How a person's decision reads on its message: "Allowed" by "Ann". */
export type DecisionHow = { summary: string; by?: string | undefined };

export type DecisionsRepository = {
  add(input: AddDecisionInput): DecisionRecord;
  get(decisionId: string): DecisionRecord | null;
  byRequest(runId: string, requestId: string): DecisionRecord | null;
  /**
   * The prompt's message (showing the decision as pending, with `html` as its text when given),
   * and its buttons' token (so they work again after a restart) when given.
   */
  setMessage(decisionId: string, messageId: number, html?: string, callbackToken?: string): boolean;
  /** The prompt's message now reads `html` (the same decision asked again, edited in place). */
  setMessageHtml(decisionId: string, html: string): boolean;
  /** Telegram shows the decision's recorded state now (its settled edit was delivered). */
  markShown(decisionId: string): boolean;
  /** Decisions whose message does not show their recorded state yet (an edit a crash lost), oldest first. */
  listUnshown(): DecisionRecord[];
  /**
   * pending → state; false when it was no longer pending (someone already decided). `how`: the
   * outcome line its message shows and who decided, so a restart can show the same.
   */
  resolve(decisionId: string, state: Exclude<DecisionState, "pending">, how?: DecisionHow): boolean;
  /** Oldest first; all chats, or one. */
  listPending(chatId?: number): DecisionRecord[];
  /** Ends every pending decision as expired (after a restart) but those of `keepRunIds`; returns them, message ids included. */
  expireAll(keepRunIds?: ReadonlySet<string>): DecisionRecord[];
};

export function createDecisionsRepository(db: Database, now: () => number): DecisionsRepository {
  const select = db.prepare("SELECT * FROM decisions WHERE decision_id = ?");
  const selectByRequest = db.prepare("SELECT * FROM decisions WHERE run_id = ? AND request_id = ?");
  const insert = db.prepare(`
    INSERT INTO decisions (decision_id, chat_id, run_id, kind, request_id, message_id, state, created_at, shown_state)
    VALUES (@decision_id, @chat_id, @run_id, @kind, @request_id, @message_id, 'pending', @created_at,
      CASE WHEN @message_id IS NULL THEN NULL ELSE 'pending' END)`);
  const setMessage = db.prepare(
    `UPDATE decisions SET message_id = ?, message_html = COALESCE(?, message_html),
      callback_token = COALESCE(?, callback_token), shown_state = 'pending' WHERE decision_id = ?`,
  );
  const setHtml = db.prepare("UPDATE decisions SET message_html = ? WHERE decision_id = ?");
  const markShown = db.prepare("UPDATE decisions SET shown_state = state WHERE decision_id = ?");
  const unshown = db.prepare(
    "SELECT * FROM decisions WHERE message_id IS NOT NULL AND shown_state IS NOT state ORDER BY created_at, rowid",
  );
  const resolve = db.prepare(
    `UPDATE decisions SET state = ?, resolved_at = ?, outcome_summary = ?, decided_by = ?
      WHERE decision_id = ? AND state = 'pending'`,
  );
  const pending = db.prepare(
    "SELECT * FROM decisions WHERE state = 'pending' AND (@chat_id IS NULL OR chat_id = @chat_id) ORDER BY created_at, rowid",
  );
  const expire = db.prepare(
    "UPDATE decisions SET state = 'expired', resolved_at = ? WHERE decision_id = ? AND state = 'pending'",
  );

  const get = (decisionId: string): DecisionRecord | null => {
    const row = select.get(decisionId);
    return row === undefined ? null : readRow(decisionRow, "decisions", row);
  };
  const listPending = (chatId?: number): DecisionRecord[] =>
    readRows(decisionRow, "decisions", pending.all({ chat_id: chatId ?? null }));

  const expireAll = db.transaction((keepRunIds: ReadonlySet<string>): DecisionRecord[] => {
    const open = listPending().filter((d) => !keepRunIds.has(d.runId));
    const at = now();
    for (const d of open) expire.run(at, d.decisionId);
    return open.map((d) => ({ ...d, state: "expired" as const, resolvedAt: at }));
  });

  return {
    add: (input) => {
      const decisionId = input.decisionId ?? randomUUID();
      insert.run({
        decision_id: decisionId,
        chat_id: input.chatId,
        run_id: input.runId,
        kind: input.kind,
        request_id: input.requestId,
        message_id: input.messageId ?? null,
        created_at: now(),
      });
      const stored = get(decisionId);
      if (!stored)
        throw new StoreError(
          "store.not_found",
          "A decision could not be read back after writing it. Run `telecode doctor` to check the database.",
          { details: { decisionId } },
        );
      return stored;
    },
    get,
    byRequest: (runId, requestId) => {
      const row = selectByRequest.get(runId, requestId);
      return row === undefined ? null : readRow(decisionRow, "decisions", row);
    },
    setMessage: (decisionId, messageId, html, callbackToken) =>
      setMessage.run(messageId, html ?? null, callbackToken ?? null, decisionId).changes > 0,
    setMessageHtml: (decisionId, html) => setHtml.run(html, decisionId).changes > 0,
    markShown: (decisionId) => markShown.run(decisionId).changes > 0,
    listUnshown: () => readRows(decisionRow, "decisions", unshown.all()),
    resolve: (decisionId, state, how) =>
      resolve.run(state, now(), how?.summary ?? null, how?.by ?? null, decisionId).changes > 0,
    listPending,
    expireAll: (keepRunIds = new Set()) => expireAll(keepRunIds),
  };
}
