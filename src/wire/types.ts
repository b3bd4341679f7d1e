// The stream-json shapes Telecode reads from and writes to the Claude Code CLI (2.1.332).
// Field names are the CLI's own. Only fields Telecode uses are typed; every decoded
// object keeps all its other fields (see `WireUnknownFields`). No I/O here.

/** Extra fields a line carried that Telecode does not type. Kept, never rejected. */
export type WireUnknownFields = { readonly [key: string]: unknown };

export type WireTextBlock = { type: "text"; text: string } & WireUnknownFields;
export type WireThinkingBlock = { type: "thinking"; thinking: string } & WireUnknownFields;
export type WireToolUseBlock = {
  type: "tool_use";
  id: string;
  name: string;
  input: Record<string, unknown>;
} & WireUnknownFields;
export type WireToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content?: string | readonly WireContentBlock[];
  is_error?: boolean;
} & WireUnknownFields;
/** The blocks Telecode reads; `readBlock` (content-blocks.ts) picks them out so `type` narrows. */
export type WireReadBlock = WireTextBlock | WireThinkingBlock | WireToolUseBlock | WireToolResultBlock;
/** Any other block type (image, tool_reference, redacted_thinking, …), kept as is. */
export type WireOtherBlock = { type: string } & WireUnknownFields;
export type WireContentBlock = WireReadBlock | WireOtherBlock;

export type WireUsage = {
  input_tokens?: number;
  output_tokens?: number;
  cache_read_input_tokens?: number;
  cache_creation_input_tokens?: number;
} & WireUnknownFields;

export type WireModelUsage = {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadInputTokens?: number;
  cacheCreationInputTokens?: number;
  costUSD?: number;
  contextWindow?: number;
} & WireUnknownFields;

// ---------------------------------------------------------------- system

export type WireSystemInit = {
  type: "system";
  subtype: "init";
  session_id: string;
  cwd?: string;
  model?: string;
  permissionMode?: string;
  tools?: readonly string[];
  claude_code_version?: string;
} & WireUnknownFields;

export type WireSystemStatus = {
  type: "system";
  subtype: "status";
  status: string | null;
  permissionMode?: string;
  compact_result?: string;
} & WireUnknownFields;

export type WireSystemApiRetry = {
  type: "system";
  subtype: "api_retry";
  attempt: number;
  max_retries: number;
  retry_delay_ms: number;
  error_status: number | null;
  error?: string;
} & WireUnknownFields;

export type WireSystemCompactBoundary = {
  type: "system";
  subtype: "compact_boundary";
  compact_metadata: {
    trigger: string;
    pre_tokens?: number;
    post_tokens?: number;
  } & WireUnknownFields;
} & WireUnknownFields;

/** task_started / task_progress / task_updated / task_notification. */
export type WireSystemTask = {
  type: "system";
  subtype: "task_started" | "task_progress" | "task_updated" | "task_notification";
  task_id: string;
  tool_use_id?: string;
  description?: string;
  task_type?: string;
  status?: string;
  summary?: string;
  is_backgrounded?: boolean;
} & WireUnknownFields;

/** hook_started / hook_progress / hook_response. */
export type WireSystemHook = {
  type: "system";
  subtype: "hook_started" | "hook_progress" | "hook_response";
  hook_id?: string;
  hook_name?: string;
  hook_event?: string;
  outcome?: string;
  exit_code?: number;
} & WireUnknownFields;

export type WireSystemThinkingTokens = {
  type: "system";
  subtype: "thinking_tokens";
  estimated_tokens?: number;
} & WireUnknownFields;

/** Any other system subtype: decoded, kept whole, shown as nothing or an info note. */
export type WireSystemOther = { type: "system"; subtype: string } & WireUnknownFields;

export type WireSystemMessage =
  | WireSystemInit
  | WireSystemStatus
  | WireSystemApiRetry
  | WireSystemCompactBoundary
  | WireSystemTask
  | WireSystemHook
  | WireSystemThinkingTokens
  | WireSystemOther;

// ---------------------------------------------------------------- conversation

export type WireAssistantMessage = {
  type: "assistant";
  session_id?: string;
  parent_tool_use_id: string | null;
  message: {
    id?: string;
    model?: string;
    content: readonly WireContentBlock[];
    usage?: WireUsage;
  } & WireUnknownFields;
  /** Synthetic API-error variant. */
  error?: unknown;
  api_error_status?: number | null;
  is_api_error_message?: boolean;
  /** Its typed kind, e.g. "media_removed" (not checked by the decoder). */
  api_error?: unknown;
  /** Its kind's parameters, e.g. `{ media: "document", media_reason: "unprocessable" }` (not checked). */
  api_error_params?: unknown;
  /** Interrupted while streaming. */
  aborted?: boolean;
} & WireUnknownFields;

export type WireToolResultMeta = {
  id: string;
  permission_decision?: { decision: string; source: string; reason_type?: string } & WireUnknownFields;
} & WireUnknownFields;

export type WireUserMessage = {
  type: "user";
  session_id?: string;
  parent_tool_use_id: string | null;
  message: { role: "user"; content: string | readonly WireContentBlock[] } & WireUnknownFields;
  tool_use_result?: unknown;
  tool_result_meta?: readonly WireToolResultMeta[];
  isReplay?: boolean;
  isSynthetic?: boolean;
} & WireUnknownFields;

export type WireResultMessage = {
  type: "result";
  subtype: string; // "success" | "error_during_execution" | "error_max_turns" | …
  is_error: boolean;
  session_id: string;
  result?: string;
  num_turns?: number;
  duration_ms?: number;
  total_cost_usd?: number;
  usage?: WireUsage;
  modelUsage?: Readonly<Record<string, WireModelUsage>>;
  terminal_reason?: string;
  stop_reason?: string | null;
  api_error_status?: number | null;
  /** The CLI's kind of an API failure, e.g. "connection_failed", "usage_limit_reached". */
  api_error?: string;
  errors?: readonly string[];
  permission_denials?: readonly { tool_name: string; tool_use_id: string }[];
  origin?: { kind: string } & WireUnknownFields;
} & WireUnknownFields;

export type WireRateLimitEvent = {
  type: "rate_limit_event";
  rate_limit_info: {
    status: "allowed" | "allowed_warning" | "rejected" | (string & {});
    resetsAt?: number; // unix seconds
    rateLimitType?: string;
    utilization?: number;
  } & WireUnknownFields;
} & WireUnknownFields;

export type WireStreamEvent = {
  type: "stream_event";
  event: { type: string } & WireUnknownFields;
  parent_tool_use_id: string | null;
} & WireUnknownFields;

// ---------------------------------------------------------------- control channel

export type WirePermissionUpdate = { type: string } & WireUnknownFields;

export type WireCanUseToolRequest = {
  subtype: "can_use_tool";
  tool_name: string;
  input: Record<string, unknown>;
  tool_use_id?: string;
  description?: string;
  display_name?: string;
  permission_suggestions?: readonly WirePermissionUpdate[];
  blocked_path?: string;
  decision_reason?: string;
  decision_reason_type?: string;
  requires_user_interaction?: boolean;
  agent_id?: string;
} & WireUnknownFields;

export type WireHookCallbackRequest = {
  subtype: "hook_callback";
  callback_id: string;
  tool_use_id?: string;
  input: Record<string, unknown>;
} & WireUnknownFields;

/**
 * An MCP server asks the person something (MCP elicitation): a form (`requested_schema`, its
 * properties in `property_order`) or a link to open (`mode: "url"`). Not checked when decoded:
 * whatever comes is asked, as well as it can be, and answered.
 */
export type WireElicitationRequest = {
  subtype: "elicitation";
  mcp_server_name?: string;
  message?: string;
  mode?: "form" | "url" | (string & {});
  url?: string;
  elicitation_id?: string;
  requested_schema?: Record<string, unknown>;
  property_order?: readonly string[];
  title?: string;
  display_name?: string;
  description?: string;
} & WireUnknownFields;

/** What the person made of an elicitation: the values (or just a yes, for a link), a no, or no answer. */
export type ElicitationAnswer =
  { action: "accept"; content?: Record<string, unknown> } | { action: "decline" } | { action: "cancel" };

/** initialize, mcp_message, rewind_files, interrupt, elicitation, and anything newer. */
export type WireOtherControlRequest = { subtype: string } & WireUnknownFields;

export type WireIncomingRequest = WireCanUseToolRequest | WireHookCallbackRequest | WireOtherControlRequest;

/** A request the CLI sends us (stdout). */
export type WireControlRequest = {
  type: "control_request";
  request_id: string;
  request: WireIncomingRequest;
} & WireUnknownFields;

/** The CLI's answer to a request we sent. */
export type WireControlResponse = {
  type: "control_response";
  response:
    | ({ subtype: "success"; request_id: string; response?: Record<string, unknown> } & WireUnknownFields)
    | ({ subtype: "error"; request_id: string; error: string; error_code?: string } & WireUnknownFields);
} & WireUnknownFields;

export type WireControlCancelRequest = {
  type: "control_cancel_request";
  request_id: string;
} & WireUnknownFields;

/**
 * One step of a command the CLI runs: a user line that carried a `uuid`, a cron fire, a
 * wake-up. A `started` whose `command_uuid` the consumer did not write is a turn the CLI
 * started by itself (PROTOCOL.md, "Scheduling and turns the CLI starts itself").
 */
export type WireCommandLifecycle = {
  type: "command_lifecycle";
  command_uuid: string;
  state: "queued" | "started" | "completed" | "cancelled" | (string & {});
  /** Why the CLI started the turn: "schedule_wakeup" (cron) or "loop_wakeup" (ScheduleWakeup). */
  wakeup_source?: string;
  /** When a loop wake-up was due, Unix milliseconds. */
  scheduled_for?: number;
} & WireUnknownFields;

/**
 * Claude Code's guess at the person's next message, after a turn's result, when the host asked
 * for suggestions (initialize `promptSuggestions`): at most one a turn, none until the conversation holds two assistant messages.
 */
export type WirePromptSuggestion = {
  type: "prompt_suggestion";
  suggestion: string;
  session_id?: string;
} & WireUnknownFields;

/**
 * Other top-level types the Agent SDK lists (sdk.d.ts) that Telecode does not act on:
 * decoded and kept whole so they are not reported as unknown.
 */
export type WireAuxiliaryType =
  "tool_progress" | "tool_use_summary" | "auth_status" | "conversation_reset" | "keep_alive" | "active_goal";
export type WireAuxiliaryMessage = { type: WireAuxiliaryType } & WireUnknownFields;

/** Every line the CLI writes on stdout, decoded. */
export type WireMessage =
  | WireSystemMessage
  | WireAssistantMessage
  | WireUserMessage
  | WireResultMessage
  | WireRateLimitEvent
  | WireStreamEvent
  | WireControlRequest
  | WireControlResponse
  | WireControlCancelRequest
  | WireCommandLifecycle
  | WirePromptSuggestion
  | WireAuxiliaryMessage;

/** A line that could not be decoded: never thrown, always reported with the raw line. */
export type WireDecodeProblem = {
  kind: "decode_problem";
  reason: string;
  /** The raw line (cut to a few KiB for reports). */
  line: string;
  /**
   * Set when the line is well-formed but of a `type` Telecode does not know, as a newer Claude
   * Code may print: not a broken line, so it is left out without a warning to the person.
   */
  unknownType?: string;
};

// ---------------------------------------------------------------- what we write

/** Who decided, for the CLI's telemetry (a CLI that does not know a value drops it). */
export type WireDecisionClassification = "user_temporary" | "user_permanent" | "user_reject" | "config";

/** Our answer to a can_use_tool request. */
export type PermissionAnswer =
  | {
      behavior: "allow";
      updatedInput: Record<string, unknown>;
      updatedPermissions?: readonly WirePermissionUpdate[];
      decisionClassification?: WireDecisionClassification;
    }
  | { behavior: "deny"; message: string; interrupt?: boolean; decisionClassification?: WireDecisionClassification };

/** Requests Telecode sends the CLI. */
export type OutgoingControlRequest =
  | {
      subtype: "initialize";
      hooks: Record<string, readonly { matcher?: string; hookCallbackIds: readonly string[] }[]> | null;
      /** A `prompt_suggestion` line after each turn's result (none until the conversation holds two assistant messages). */
      promptSuggestions?: boolean;
    }
  | { subtype: "interrupt" }
  | { subtype: "set_permission_mode"; mode: string }
  | { subtype: "set_model"; model: string | null }
  | { subtype: "mcp_status" }
  /** Begins a sign-in to an MCP server (OAuth): the reply has the page to open, or says none is needed. */
  | { subtype: "mcp_authenticate"; serverName: string }
  /** The address the browser was sent to once the person signed in (when it could not reach Claude Code itself). */
  | { subtype: "mcp_oauth_callback_url"; serverName: string; callbackUrl: string }
  | { subtype: "mcp_reconnect"; serverName: string }
  /** A question answered from the conversation so far, beside any turn going on, and kept out of it. */
  | { subtype: "side_question"; question: string; history?: readonly { question: string; response: string }[] };
