// The domain records the repositories return, with zod schemas that check every row read
// back from SQLite (a row that does not fit is a `store.corrupt_row`, not a silent oddity).
import { z } from "zod";
import { EFFORTS } from "../config/index.js";
import { PERMISSION_MODES } from "../domain/index.js";
import type { RunInput } from "../sessions/index.js";
import { StoreError } from "./errors.js";

export const RUN_STATES = ["running", "completed", "failed", "cancelled", "interrupted"] as const;
export type RunState = (typeof RUN_STATES)[number];
export type FinishedRunState = Exclude<RunState, "running">;

export const DECISION_KINDS = ["approval", "plan", "question"] as const;
export type DecisionKind = (typeof DECISION_KINDS)[number];

export const DECISION_STATES = ["pending", "approved", "denied", "answered", "expired", "withdrawn"] as const;
export type DecisionState = (typeof DECISION_STATES)[number];

const flag = z.union([z.literal(0), z.literal(1)]).transform((v) => v === 1);
const epochMs = z.number().int();
const messageId = z.number().int().nullable();

export const chatRow = z
  .object({
    chat_id: z.number().int(),
    mode: z.enum(PERMISSION_MODES).nullable(),
    model: z.string().nullable(),
    effort: z.enum(EFFORTS).nullable(),
    project: z.string().nullable(),
    preview: flag,
    questions: flag,
    listen_to_all: flag,
    loops: flag,
    updated_at: epochMs,
  })
  .transform((r) => ({
    chatId: r.chat_id,
    mode: r.mode,
    model: r.model,
    effort: r.effort,
    project: r.project,
    preview: r.preview,
    questions: r.questions,
    listenToAll: r.listen_to_all,
    /** Claude may schedule loops in this chat (`/loops on|off`). */
    loops: r.loops,
    updatedAt: r.updated_at,
  }));

/** A chat's choices; a null field means "the config's default". */
export type ChatPreferences = z.output<typeof chatRow>;

export const sessionRow = z
  .object({
    session_id: z.string().min(1),
    chat_id: z.number().int(),
    project: z.string(),
    title: z.string().nullable(),
    created_at: epochMs,
    last_used_at: epochMs,
    live: flag,
    current: flag,
  })
  .transform((r) => ({
    sessionId: r.session_id,
    chatId: r.chat_id,
    project: r.project,
    title: r.title,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    /** A CLI process is attached to it right now. */
    live: r.live,
    /** The session a new message in this chat and project continues. */
    current: r.current,
  }));

export type SessionRecord = z.output<typeof sessionRow>;

const promptBlock = z.discriminatedUnion("type", [
  z.object({ type: z.literal("text"), text: z.string() }),
  z.object({
    type: z.literal("image"),
    mediaType: z.enum(["image/jpeg", "image/png", "image/gif", "image/webp"]),
    base64: z.string(),
  }),
  z.object({
    type: z.literal("document"),
    mediaType: z.literal("application/pdf"),
    base64: z.string(),
    title: z.string().optional(),
  }),
]);

const runInputShape = z.object({
  prompt: z.union([z.string(), z.array(promptBlock)]),
  mode: z.enum(PERMISSION_MODES),
  choice: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("current") }),
    z.object({ kind: z.literal("new") }),
    z.object({ kind: z.literal("continue") }),
    z.object({ kind: z.literal("resume"), sessionId: z.string().min(1) }),
  ]),
  unattended: z.boolean().optional(),
  trigger: z.record(z.string(), z.unknown()).optional(),
  requester: z.object({ userId: z.number().int(), name: z.string() }).optional(),
});

/** A run's input as stored: JSON text that must read back as a RunInput. */
const runInputJson = z.string().transform((text, ctx): RunInput => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    ctx.addIssue({ code: "custom", message: "not JSON" });
    return z.NEVER;
  }
  const parsed = runInputShape.safeParse(value);
  if (parsed.success) return parsed.data as RunInput;
  for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
  return z.NEVER;
});

/** The JSON a run's input is stored as. */
export function runInputText(input: RunInput): string {
  return JSON.stringify(input);
}

export const runRow = z
  .object({
    run_id: z.string().min(1),
    chat_id: z.number().int(),
    project: z.string(),
    session_id: z.string().nullable(),
    state: z.enum(RUN_STATES),
    prompt_message_id: messageId,
    progress_message_id: messageId,
    started_at: epochMs,
    ended_at: epochMs.nullable(),
    cost_usd: z.number().nullable(),
    outcome: z.string().nullable(),
    error: z.string().nullable(),
    keeper_id: z.string().nullable(),
    start_seq: z.number().int().min(0).nullable(),
    last_seq: z.number().int().min(0).nullable(),
    mode: z.enum(PERMISSION_MODES).nullable(),
    input: runInputJson.nullable(),
    prompt_taken: flag,
    resumed_at: epochMs.nullable(),
    prompt_uuid: z.string().nullable(),
    pending_summary: z.string().nullable(),
  })
  .transform((r) => ({
    runId: r.run_id,
    chatId: r.chat_id,
    project: r.project,
    sessionId: r.session_id,
    state: r.state,
    promptMessageId: r.prompt_message_id,
    progressMessageId: r.progress_message_id,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    costUsd: r.cost_usd,
    outcome: r.outcome,
    error: r.error,
    /** The keeper whose process runs it (it survives a restart of Telecode); null for a direct child. */
    keeperId: r.keeper_id,
    /** The process's last line before the run's own: a re-attach replays from just after it. */
    startSeq: r.start_seq,
    /** The last line of the process this Telecode processed and stored for the run. */
    lastSeq: r.last_seq,
    /** The mode the run was asked in (its decisions follow it after a restart). */
    mode: r.mode,
    /** What the run was asked (kept while it may be continued; null once it ended otherwise). */
    input: r.input,
    /** The CLI began the run's turn, so it has the prompt. */
    promptTaken: r.prompt_taken,
    /** When a person tapped Continue on it (interrupted runs continue once). */
    resumedAt: r.resumed_at,
    /** The uuid of the message Telecode wrote for it, as the CLI's transcript records it (null: not known). */
    promptUuid: r.prompt_uuid,
    /** The summary its progress message is to show, until Telegram confirmed it (the front end's own text). */
    pendingSummary: r.pending_summary,
  }));

export type RunRecord = z.output<typeof runRow>;

export const QUEUED_RUN_STATES = ["waiting", "dropped"] as const;
export type QueuedRunState = (typeof QUEUED_RUN_STATES)[number];

export const queuedRunRow = z
  .object({
    run_id: z.string().min(1),
    chat_id: z.number().int(),
    project: z.string(),
    input: runInputJson,
    prompt_message_id: messageId,
    message_id: messageId,
    queued_at: epochMs,
    state: z.enum(QUEUED_RUN_STATES),
  })
  .transform((r) => ({
    runId: r.run_id,
    chatId: r.chat_id,
    project: r.project,
    input: r.input,
    promptMessageId: r.prompt_message_id,
    /** The message that shows it ("Queued", or its progress once it started). */
    messageId: r.message_id,
    queuedAt: r.queued_at,
    /** waiting: runs at the next start; dropped: a restart found it too old (Retry runs it). */
    state: r.state,
  }));

export type QueuedRunRecord = z.output<typeof queuedRunRow>;

export const decisionRow = z
  .object({
    decision_id: z.string().min(1),
    chat_id: z.number().int(),
    run_id: z.string().min(1),
    kind: z.enum(DECISION_KINDS),
    request_id: z.string().min(1),
    message_id: messageId,
    state: z.enum(DECISION_STATES),
    created_at: epochMs,
    resolved_at: epochMs.nullable(),
    callback_token: z.string().nullable(),
    message_html: z.string().nullable(),
    shown_state: z.enum(DECISION_STATES).nullable(),
    outcome_summary: z.string().nullable(),
    decided_by: z.string().nullable(),
  })
  .transform((r) => ({
    decisionId: r.decision_id,
    chatId: r.chat_id,
    runId: r.run_id,
    kind: r.kind,
    /** The CLI's control request id this decision answers. */
    requestId: r.request_id,
    messageId: r.message_id,
    state: r.state,
    createdAt: r.created_at,
    resolvedAt: r.resolved_at,
    /** The token of the message's buttons, so a restart can make them work again. */
    callbackToken: r.callback_token,
    /** The prompt's message (its last part) as sent, with the buttons. */
    messageHtml: r.message_html,
    /** The state Telegram is known to show; a restart brings the message to `state` when they differ. */
    shownState: r.shown_state,
    /** The outcome line its message shows once settled ("Allowed", "Color: teal"), when a person decided. */
    outcomeSummary: r.outcome_summary,
    /** Who decided, as outcomes name them ("Ann"). */
    decidedBy: r.decided_by,
  }));

export type DecisionRecord = z.output<typeof decisionRow>;

export const usageRow = z
  .object({ day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), cost_usd: z.number(), runs: z.number().int().min(0) })
  .transform((r) => ({ day: r.day, costUsd: r.cost_usd, runs: r.runs }));

export type DailyUsage = z.output<typeof usageRow>;

/** Validates one row; a mismatch means the file was edited or damaged, so say which table. */
export function readRow<T>(schema: z.ZodType<T>, table: string, row: unknown): T {
  const parsed = schema.safeParse(row);
  if (parsed.success) return parsed.data;
  throw new StoreError(
    "store.corrupt_row",
    `A row in the ${table} table does not have the expected shape. The database may have been edited or damaged; run \`telecode doctor\`.`,
    {
      cause: parsed.error,
      details: { table, issues: parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`) },
    },
  );
}

export function readRows<T>(schema: z.ZodType<T>, table: string, rows: readonly unknown[]): T[] {
  return rows.map((row) => readRow(schema, table, row));
}
