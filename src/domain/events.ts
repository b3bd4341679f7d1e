// Telecode's own event union: what every front end renders and what `replay --json` and
// `run --json` print (one JSON object per line, `type` = the event name). Engine-neutral,
// past tense, plain data. No I/O, no wire shapes.
import type { RunFailure } from "./run-failure.js";

export type ToolKind = "command" | "file_change" | "tool" | "web" | "note" | "subagent";

export type NoteKind = "rate_limit" | "api_retry" | "compaction" | "warning" | "info" | "stall";

/** Modes a person or a config may choose; `bypassPermissions` only via dangerously_skip_permissions. */
export const CHOOSABLE_PERMISSION_MODES = ["default", "acceptEdits", "plan", "plan-auto", "auto", "dontAsk"] as const;
/** Permission modes as Telecode names them; `plan-auto` is plan mode with automatic exit. */
export const PERMISSION_MODES = [...CHOOSABLE_PERMISSION_MODES, "bypassPermissions"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/**
 * Who started a turn: a person's message ("person"), or something else: a schedule's fire
 * (Telecode's, or a cron job the CLI holds), a wake-up Claude asked for, an event of a Monitor
 * it watches, or a background task (an agent or a shell command) that finished.
 */
export type TurnOrigin = "person" | "schedule" | "wakeup" | "monitor" | "subagent";

/** A request from the CLI to use a tool (or leave plan mode, or ask a question). */
export type ApprovalRequest = {
  /** The CLI's control request id: the only key an answer is matched by. */
  requestId: string;
  toolName: string;
  input: Readonly<Record<string, unknown>>;
  toolUseId?: string;
  /** The CLI's one-line description of the call, when it gives one. */
  description?: string;
  /** Why the CLI asks (e.g. "A variable in this command can't be checked before it runs"). */
  decisionReason?: string;
  /** e.g. "mode" when plan mode forbids the call. */
  decisionReasonType?: string;
  /** The CLI's "always allow" suggestions, sent back verbatim as updatedPermissions. */
  permissionSuggestions: readonly Readonly<Record<string, unknown>>[];
  blockedPath?: string;
  /** Set when the request comes from inside a subagent. */
  agentId?: string;
  /** The file an Edit or Write targets, as it was when the request was put to the person. */
  fileNow?: FileNow;
};

/** A file an Edit or Write targets: missing, or how many lines it has and where an Edit lands. */
export type FileNow = { exists: false } | { exists: true; lines: number; editSite?: EditSite };

/**
 * An Edit's place in its file: the text around `old_string` (the rest of its first and last
 * lines and a few whole lines beyond), and the line number the text before it starts on.
 */
export type EditSite = {
  /** 1-based line number of the first line of `before`. */
  firstLine: number;
  /** From the start of the first context line up to `old_string`. */
  before: string;
  /** From the end of `old_string` to the end of the last context line. */
  after: string;
};

/** A permission rule change the CLI suggested ("always allow …"), passed back as it came. */
export type PermissionUpdate = { readonly type: string } & { readonly [key: string]: unknown };

/**
 * Who made a permission decision, in Claude Code's words (the `source` of its OpenTelemetry
 * `tool_decision` event): a person allowing once, a person allowing for good ("always allow"),
 * a person saying no, or Telecode's configuration with no person asked. CLIs before 2.1.337 take
 * no "config" (they drop it and infer, as they do when the field is left out).
 */
export type DecisionClassification = "user_temporary" | "user_permanent" | "user_reject" | "config";

/**
 * The answer to an ApprovalRequest as the CLI takes it: allow, with the input to run (echoed
 * or edited) and rules to keep, or deny, with a message the model reads; either says who decided
 * when someone did.
 */
export type ApprovalAnswer =
  | {
      behavior: "allow";
      updatedInput: Record<string, unknown>;
      updatedPermissions?: readonly PermissionUpdate[];
      decisionClassification?: DecisionClassification;
    }
  | {
      behavior: "deny";
      message: string;
      interrupt?: boolean;
      decisionClassification?: DecisionClassification;
      /** The person said no to an MCP server's question (a decline, where nobody answering is a cancel). */
      declined?: true;
    };

export type SessionStarted = {
  type: "session_started";
  /** The CLI session id: the resume token. */
  sessionId: string;
  model: string;
  cwd: string;
  permissionMode: string;
  tools: readonly string[];
  /** The CLI's own slash commands in this project ("compact", "loop", project commands), when it lists them. */
  slashCommands?: readonly string[];
  cliVersion?: string;
};

export type TurnStarted = {
  type: "turn_started";
  sessionId: string;
  turn: number;
  origin: TurnOrigin;
  /** The run this turn answers, when Telecode wrote its message (live sessions only). */
  runId?: string;
  /** The uuid on that message: the CLI's transcript records the message under it. */
  promptUuid?: string;
};

export type ToolStarted = {
  type: "tool_started";
  toolUseId: string;
  name: string;
  kind: ToolKind;
  title: string;
  input: Readonly<Record<string, unknown>>;
  parentToolUseId: string | null;
};

export type ToolUpdated = { type: "tool_updated"; toolUseId: string; detail: string };

export type ToolFinished = {
  type: "tool_finished";
  toolUseId: string;
  name: string;
  kind: ToolKind;
  title: string;
  ok: boolean;
  /** A short excerpt of the result (errors in full up to a few hundred characters). */
  detail: string;
  parentToolUseId: string | null;
};

export type TextEmitted = { type: "text"; text: string; parentToolUseId: string | null };
export type ThinkingEmitted = { type: "thinking"; text: string; parentToolUseId: string | null };

/** The key of the note saying a process's output ended in the middle of a turn (no result will come). */
export const TURN_CUT_OFF_NOTE = "turn_cut_off";

/**
 * The key of the note saying the session asked for was not there (gone, or nothing to continue),
 * so a fresh one started in its place.
 */
export const SESSION_GONE_NOTE = "session_gone";

/** The key of the note naming the MCP servers that wait for a sign-in (its `servers`). */
export const MCP_SIGN_IN_NOTE = "mcp_unavailable:sign_in";

export type NoteEmitted = {
  type: "note";
  kind: NoteKind;
  text: string;
  /** Notes with the same key replace each other (e.g. one updating API-retry line). */
  key?: string;
  /** Epoch ms until which a wait is expected (rate limit rejected). */
  untilMs?: number;
  /** The MCP servers the note names, for a front end that offers to act on them (a sign-in). */
  servers?: readonly string[];
};

export type ModeChanged = { type: "mode_changed"; mode: string };

/**
 * Where one of the login's usage limits stands, as the CLI reported it after a model call
 * (a subscription login only; it reports when the state changes). `usedPercent` comes only near
 * the limit; `extraUsage`: the limit is reached and extra usage carries on past it.
 */
export type UsageLimitReported = {
  type: "usage_limit";
  /** Which limit, as people read it: "5h", "7-day", "7-day Opus". */
  limit: string;
  state: "ok" | "warning" | "reached";
  usedPercent?: number;
  /** When the limit's window resets (epoch ms). */
  resetsAtMs?: number;
  extraUsage: boolean;
};

/**
 * A background task of the CLI started, progressed or ended (system/task_started →
 * "started"; task_progress → "updated"; task_notification, or task_updated whose
 * patch.status is completed/failed/killed → "finished"). Subagents have taskType
 * "local_agent"; long shell commands "local_bash". Needed to know when background agents end:
 * their tool call finishes as soon as they are launched.
 */
export type TaskChanged = {
  type: "task_changed";
  taskId: string;
  phase: "started" | "updated" | "finished";
  /** The tool call that started it (the Agent tool_use id). */
  toolUseId?: string;
  taskType?: string;
  description?: string;
  /** The CLI's status when it gives one ("completed", "failed", "killed", …). */
  status?: string;
  /**
   * The task runs in the background (the CLI's is_backgrounded). False for a subagent or a
   * long Bash the tool call waits on: those are not "in background".
   */
  backgrounded?: boolean;
};

/** Where one entry of the agent's plan stands, in Claude Code's words. */
export const CHECKLIST_STATUSES = ["pending", "in_progress", "completed"] as const;

/** One entry of the agent's own plan. */
export type ChecklistItem = {
  /** The CLI's id for it (Claude Code's task list has ids; its older todo list has none). */
  id?: string;
  text: string;
  /** What it reads while in progress ("Running the tests"), when the agent gave that. */
  activeText?: string;
  status: (typeof CHECKLIST_STATUSES)[number];
};

/**
 * The agent's own plan changed: Claude Code's task list (TaskCreate, TaskUpdate, TaskList) or
 * its todo list (TodoWrite), whole, in order. Also sent as a turn starts while items are open,
 * so every run's progress shows the plan it works on.
 */
export type ChecklistChanged = { type: "checklist"; items: readonly ChecklistItem[] };

export type ApprovalRequested = { type: "approval_requested"; request: ApprovalRequest };
export type ApprovalResolved = {
  type: "approval_resolved";
  requestId: string;
  decision: "allow" | "deny";
  /** Who decided: a person's name, "policy", "timeout", "session end". */
  by: string;
};
export type ApprovalWithdrawn = { type: "approval_withdrawn"; requestId: string };

export type QuestionAsked = {
  type: "question_asked";
  requestId: string;
  questions: readonly {
    question: string;
    header?: string;
    multiSelect: boolean;
    options: readonly { label: string; description?: string }[];
  }[];
};

/**
 * One model call's tokens, as the CLI reports them while its turn goes on (once per API message;
 * output tokens are only the first count, the final one comes with the turn's usage). What a
 * cost cap watches during a turn; the turn's own cost stays `turn_finished.costUsd`.
 */
export type StepUsage = {
  type: "step_usage";
  /** The model that answered ("" when the CLI did not say). */
  model: string;
  /** Uncached input tokens. */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  parentToolUseId: string | null;
};

export type UsageReported = {
  type: "usage";
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Context tokens / context window, 0–100, when the window is known. */
  contextPercent?: number;
};

export type TurnFinished = {
  type: "turn_finished";
  ok: boolean;
  answer: string;
  /** Why a failed, not interrupted turn failed. */
  error?: RunFailure;
  interrupted: boolean;
  costUsd: number;
  numTurns: number;
  durationMs: number;
  origin: TurnOrigin;
  /** The run this turn answers, when Telecode wrote its message (live sessions only). */
  runId?: string;
};

export type RunCompleted = {
  type: "run_completed";
  runId: string;
  ok: boolean;
  answer: string;
  /** Why it failed (absent when ok, cancelled, or interrupted without a cause). */
  error?: RunFailure;
  interrupted: boolean;
  /** The person cancelled it (reads "cancelled", not "error"). */
  cancelled: boolean;
  costUsd: number;
  durationMs: number;
  sessionId?: string;
  /** The run never reached the engine: cancelled while queued, or it could not or might not start. */
  unstarted?: true;
};

/** Claude Code's guess at the person's next message, after a turn's answer (none until the conversation holds two of the model's messages). */
export type PromptSuggested = { type: "prompt_suggested"; text: string; sessionId: string | undefined };

export type TelecodeEvent =
  | SessionStarted
  | TurnStarted
  | ToolStarted
  | ToolUpdated
  | ToolFinished
  | TextEmitted
  | ThinkingEmitted
  | NoteEmitted
  | ModeChanged
  | UsageLimitReported
  | TaskChanged
  | ChecklistChanged
  | ApprovalRequested
  | ApprovalResolved
  | ApprovalWithdrawn
  | QuestionAsked
  | StepUsage
  | UsageReported
  | TurnFinished
  | RunCompleted
  | PromptSuggested;

export type TelecodeEventType = TelecodeEvent["type"];
