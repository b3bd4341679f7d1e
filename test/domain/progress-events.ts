// fast-check generators of TelecodeEvent sequences for the progress reducer and its
// renderers: small id pools so starts, finishes and decisions meet each other.

import fc from "fast-check";
import type { NoteKind, TelecodeEvent, ToolKind } from "../../src/domain/index.js";

const toolId = fc.constantFrom("t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11", "t12");
const requestId = fc.constantFrom("r1", "r2", "r3");
const kind = fc.constantFrom<ToolKind>("command", "file_change", "tool", "web", "note", "subagent");
const noteKind = fc.constantFrom<NoteKind>("rate_limit", "api_retry", "compaction", "warning", "info", "stall");
/** Titles and texts with everything Telegram HTML must escape, newlines, emoji and length. */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 20 }),
  fc.constantFrom("<b>&amp;</b>", 'npm test && echo "ok" > out.txt', "a\nb\nc", "😀".repeat(300), "x".repeat(5000)),
);
const parent = fc.option(toolId, { nil: null });

export const progressEvent: fc.Arbitrary<TelecodeEvent> = fc.oneof(
  fc.record({
    type: fc.constant("session_started" as const),
    sessionId: fc.uuid(),
    model: text,
    cwd: fc.constant("/tmp"),
    permissionMode: fc.constantFrom("default", "plan", ""),
    tools: fc.constant([]),
  }),
  fc.record({
    type: fc.constant("turn_started" as const),
    sessionId: fc.constant("s1"),
    turn: fc.nat(5),
    origin: fc.constant("person" as const),
  }),
  fc.record({
    type: fc.constant("tool_started" as const),
    toolUseId: toolId,
    name: fc.constantFrom("Bash", "Read", "Agent", "TaskUpdate"),
    kind,
    title: text,
    input: fc.constant({}),
    parentToolUseId: parent,
  }),
  fc.record({ type: fc.constant("tool_updated" as const), toolUseId: toolId, detail: text }),
  fc.record({
    type: fc.constant("tool_finished" as const),
    toolUseId: toolId,
    name: fc.constantFrom("Bash", "TaskUpdate"),
    kind,
    title: text,
    ok: fc.boolean(),
    detail: text,
    parentToolUseId: parent,
  }),
  fc.record({ type: fc.constant("text" as const), text, parentToolUseId: fc.constant(null) }),
  fc.record({ type: fc.constant("thinking" as const), text, parentToolUseId: fc.constant(null) }),
  fc.record(
    {
      type: fc.constant("note" as const),
      kind: noteKind,
      text,
      key: fc.constantFrom("k1", "k2", "rl:five_hour"),
      untilMs: fc.integer({ min: 0, max: 2_000_000 }),
    },
    { requiredKeys: ["type", "kind", "text"] },
  ),
  fc.record({ type: fc.constant("mode_changed" as const), mode: fc.constantFrom("default", "plan", "acceptEdits") }),
  fc.record({
    type: fc.constant("checklist" as const),
    items: fc.array(
      fc.record(
        {
          id: fc.constantFrom("1", "2", "3"),
          text,
          activeText: text,
          status: fc.constantFrom("pending" as const, "in_progress" as const, "completed" as const),
        },
        { requiredKeys: ["text", "status"] },
      ),
      { maxLength: 30 },
    ),
  }),
  fc.record({
    type: fc.constant("task_changed" as const),
    taskId: fc.constantFrom("a", "b"),
    phase: fc.constantFrom("started" as const, "updated" as const, "finished" as const),
  }),
  fc.record({
    type: fc.constant("approval_requested" as const),
    request: fc.record({
      requestId,
      toolName: fc.constant("Bash"),
      input: fc.constant({}),
      permissionSuggestions: fc.constant([]),
    }),
  }),
  fc.record({ type: fc.constant("question_asked" as const), requestId, questions: fc.constant([]) }),
  fc.record({
    type: fc.constant("approval_resolved" as const),
    requestId,
    decision: fc.constantFrom("allow" as const, "deny" as const),
    by: fc.constant("Alice"),
  }),
  fc.record({ type: fc.constant("approval_withdrawn" as const), requestId }),
  fc.record({
    type: fc.constant("usage" as const),
    inputTokens: fc.nat(),
    outputTokens: fc.nat(),
    costUsd: fc.double({ min: 0, max: 50, noNaN: true }),
    contextPercent: fc.double({ min: 0, max: 100, noNaN: true }),
  }),
  fc.record({
    type: fc.constant("turn_finished" as const),
    ok: fc.boolean(),
    answer: text,
    interrupted: fc.boolean(),
    costUsd: fc.double({ min: 0, max: 50, noNaN: true }),
    numTurns: fc.nat(20),
    durationMs: fc.nat(1_000_000),
    origin: fc.constant("person" as const),
  }),
);

export const runCompleted: fc.Arbitrary<TelecodeEvent> = fc.record(
  {
    type: fc.constant("run_completed" as const),
    runId: fc.constant("run1"),
    ok: fc.boolean(),
    answer: text,
    error: fc.record({ reason: fc.constant("cli_error" as const), what: text, hint: text }),
    interrupted: fc.boolean(),
    cancelled: fc.boolean(),
    costUsd: fc.double({ min: 0, max: 50, noNaN: true }),
    durationMs: fc.nat(1_000_000),
    sessionId: fc.uuid(),
  },
  { requiredKeys: ["type", "runId", "ok", "answer", "interrupted", "cancelled", "costUsd", "durationMs"] },
);

/** A run's events with the time each is observed (ms after the start), increasing. */
export const timedRun: fc.Arbitrary<{ event: TelecodeEvent; atMs: number }[]> = fc
  .tuple(
    fc.array(fc.tuple(progressEvent, fc.nat(120_000)), { maxLength: 80 }),
    fc.option(runCompleted, { nil: undefined }),
  )
  .map(([events, end]) => {
    let at = 0;
    const timed = events.map(([event, gap]) => ({ event, atMs: (at += gap) }));
    return end === undefined ? timed : [...timed, { event: end, atMs: at + 1000 }];
  });
