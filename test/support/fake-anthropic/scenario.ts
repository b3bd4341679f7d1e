// The data a test scripts the fake Messages API with: assistant turns, HTTP errors, delays,
// broken streams. Plain data, except a dynamic reply, which is built from the request it answers
// (for answers that must name something only the CLI knows, like its plan file). The server
// (server.ts) interprets it.

export type FakeBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

/** A streamed assistant message (SSE), the normal answer. */
export type FakeMessageReply = {
  kind: "message";
  blocks: readonly FakeBlock[];
  /** Defaults to "tool_use" when a tool_use block is present, else "end_turn". */
  stopReason?: string;
  /** Deltas per text/thinking block (the text is cut into this many pieces). Default 1. */
  chunks?: number;
  /** Wait this long before the response headers. */
  delayMs?: number;
  /**
   * Wait for this before the response headers (after `delayMs`): a turn that must still be going
   * when something else happens, however slow the machine.
   */
  until?: PromiseLike<unknown>;
  /** Wait this long between SSE events that carry deltas (slow streams). */
  deltaDelayMs?: number;
  /** Wait this long after the last content block, before message_delta (the CLI prints the blocks, the turn stays open). */
  stopDelayMs?: number;
  inputTokens?: number;
  outputTokens?: number;
  /** The prompt cache's read tokens in `message_start`'s usage (Claude Code reads a warm cache by it). */
  cacheReadTokens?: number;
  /** Extra response headers (e.g. anthropic-ratelimit-unified-*). */
  headers?: Readonly<Record<string, string>>;
};

/** An HTTP error answer with the API's JSON error body. */
export type FakeErrorReply = {
  kind: "error";
  status: number;
  /** e.g. "overloaded_error", "rate_limit_error", "api_error", "invalid_request_error". */
  errorType?: string;
  message?: string;
  /** The error's `details` object, e.g. `{ error_code: "claude_code_version_too_old" }`. */
  details?: Readonly<Record<string, unknown>>;
  delayMs?: number;
  headers?: Readonly<Record<string, string>>;
};

/** A stream that sends `afterEvents` SSE events of `message` and then drops the socket. */
export type FakeCutReply = { kind: "cut"; afterEvents: number; message: FakeMessageReply };

/** Accepts the request and never answers (until the server closes): a silent upstream. */
export type FakeHangReply = { kind: "hang" };

/** Built when its request arrives, from what the CLI sent (e.g. a path named in the system prompt). */
export type FakeDynamicReply = {
  kind: "dynamic";
  build: (request: RecordedRequest) => FakeMessageReply | FakeErrorReply | FakeCutReply | FakeHangReply;
};

export type FakeReply = FakeMessageReply | FakeErrorReply | FakeCutReply | FakeHangReply | FakeDynamicReply;

/** Shorthands for the common replies. */
export const reply = {
  text(text: string, extra: Partial<Omit<FakeMessageReply, "kind" | "blocks">> = {}): FakeMessageReply {
    return { kind: "message", blocks: [{ type: "text", text }], ...extra };
  },
  tool(name: string, input: Record<string, unknown>, text?: string): FakeMessageReply {
    const blocks: FakeBlock[] = text === undefined ? [] : [{ type: "text", text }];
    blocks.push({ type: "tool_use", name, input });
    return { kind: "message", blocks };
  },
  bash(command: string, description = "Run a command"): FakeMessageReply {
    return { kind: "message", blocks: [{ type: "tool_use", name: "Bash", input: { command, description } }] };
  },
  error(status: number, extra: Partial<Omit<FakeErrorReply, "kind" | "status">> = {}): FakeErrorReply {
    return { kind: "error", status, ...extra };
  },
  overloaded(): FakeErrorReply {
    return { kind: "error", status: 529, errorType: "overloaded_error", message: "Overloaded" };
  },
  cut(afterEvents: number, message: FakeMessageReply): FakeCutReply {
    return { kind: "cut", afterEvents, message };
  },
  hang(): FakeHangReply {
    return { kind: "hang" };
  },
  dynamic(build: FakeDynamicReply["build"]): FakeDynamicReply {
    return { kind: "dynamic", build };
  },
};

/**
 * A reply's `until`: the turn goes on, however slow the machine, until the test opens the gate
 * (once what must happen while it runs has happened).
 */
export function gate(): { until: Promise<void>; open: () => void } {
  let open!: () => void;
  const until = new Promise<void>((resolve) => (open = resolve));
  return { until, open };
}

/** What the fake saw in one request, for assertions. */
export type RecordedRequest = {
  n: number;
  method: string;
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: Record<string, unknown>;
  stream: boolean;
  model: string;
  maxTokens: number;
  /** The scenario key the request was routed to ("" for the default queue). */
  key: string;
  /** The text of the last user message that holds typed text (the person's prompt). */
  lastPrompt: string;
  /** tool_result blocks of the last user message. */
  toolResults: readonly { toolUseId: string; isError: boolean; text: string }[];
  /** What the fake answered: "sse", "error 529", "cut", "hang", "json" (non-streaming). */
  answered: string;
  /** The reply it was answered with (a dynamic reply already built); absent for "json". */
  reply?: Exclude<FakeReply, FakeDynamicReply>;
};
