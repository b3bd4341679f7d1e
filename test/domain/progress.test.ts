// The progress reducer: what a person watching a run is told, event by event.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  reduceProgress,
  startProgress,
  tickProgress,
  type ProgressState,
  type TelecodeEvent,
} from "../../src/domain/index.js";
import { timedRun } from "./progress-events.js";

const T0 = 1_750_000_000_000;

function run(
  events: readonly (TelecodeEvent | [TelecodeEvent, number])[],
  start: ProgressState = startProgress({ startedAtMs: T0, effort: "high" }),
): ProgressState {
  let state = start;
  let at = T0;
  for (const item of events) {
    const [event, gapMs] = Array.isArray(item) ? item : [item, 1000];
    at += gapMs;
    state = reduceProgress(state, event, at);
  }
  return state;
}

const toolStarted = (id: string, title: string, parent: string | null = null): TelecodeEvent => ({
  type: "tool_started",
  toolUseId: id,
  name: "Bash",
  kind: "command",
  title,
  input: {},
  parentToolUseId: parent,
});
const toolFinished = (id: string, ok: boolean, detail = ""): TelecodeEvent => ({
  type: "tool_finished",
  toolUseId: id,
  name: "Bash",
  kind: "command",
  title: "",
  ok,
  detail,
  parentToolUseId: null,
});

describe("reduceProgress", () => {
  it("shows a schedule Telecode's hook took over as done, with what was scheduled, not as a hook error", () => {
    const reason =
      "PreToolUse:CronCreate hook error: Scheduled by Telecode (this is not an error): loop f1c928fc, every 5 minutes, next at 08:10 today. Each time it fires, Telecode sends the prompt.";
    const state = run([toolStarted("t1", "CronCreate */5 * * * *"), toolFinished("t1", false, reason)]);
    expect(state.tools[0]).toMatchObject({
      status: "done",
      detail: "scheduled by Telecode: loop f1c928fc, every 5 minutes, next at 08:10 today.",
    });
    const refused = run([
      toolStarted("t2", "CronCreate"),
      toolFinished(
        "t2",
        false,
        "<tool_use_error>PreToolUse:CronCreate hook error: Scheduling is turned off.</tool_use_error>",
      ),
    ]);
    expect(refused.tools[0]).toMatchObject({ status: "failed", detail: "Scheduling is turned off." });
  });

  it("shows a loop list and a stopped loop Telecode's hook answered as done, with what it did", () => {
    const listed =
      "PreToolUse:CronList hook error: Listed by Telecode (this is not an error): this chat has 2 loops. Telecode keeps them (the CLI's own list is empty by design):\n- 3f9a2c1b (loop): every 5 minutes";
    const stopped =
      "<tool_use_error>PreToolUse:ScheduleWakeup hook error: Stopped by Telecode (this is not an error): loop 3f9a2c1b ended; no further wake-up will come.</tool_use_error>";
    const state = run([
      toolStarted("t1", "CronList"),
      toolFinished("t1", false, listed),
      toolStarted("t2", "ScheduleWakeup"),
      toolFinished("t2", false, stopped),
    ]);
    expect(state.tools.map((t) => [t.status, t.detail])).toEqual([
      ["done", "listed by Telecode: this chat has 2 loops."],
      ["done", "stopped by Telecode: loop 3f9a2c1b ended; no further wake-up will come."],
    ]);
  });

  it("follows a run from start to answer: steps, tool lines, waiting on a person, cost and outcome", () => {
    const state = run([
      {
        type: "session_started",
        sessionId: "sess-1",
        model: "claude-sonnet-4-5",
        cwd: "/w",
        permissionMode: "default",
        tools: [],
      },
      { type: "turn_started", sessionId: "sess-1", turn: 1, origin: "person" },
      toolStarted("t1", "Read src/app.ts"),
      toolFinished("t1", true),
      toolStarted("t2", "npm test"),
    ]);
    expect(state.phase).toBe("working");
    expect(state.steps).toBe(2);
    expect(state.tools.map((t) => [t.title, t.status, t.startedAtMs - T0])).toEqual([
      ["Read src/app.ts", "done", 3000],
      ["npm test", "running", 5000],
    ]);
    expect([state.model, state.effort, state.mode, state.sessionId]).toEqual([
      "claude-sonnet-4-5",
      "high",
      "default",
      "sess-1",
    ]);

    const asked = reduceProgress(
      state,
      {
        type: "approval_requested",
        request: { requestId: "r1", toolName: "Bash", input: {}, permissionSuggestions: [] },
      },
      T0 + 6000,
    );
    expect([asked.phase, asked.pendingDecisions]).toEqual(["waiting", ["r1"]]);
    const answered = reduceProgress(
      asked,
      { type: "approval_resolved", requestId: "r1", decision: "allow", by: "Alice" },
      T0 + 7000,
    );
    expect([answered.phase, answered.pendingDecisions]).toEqual(["working", []]);

    const done = run(
      [
        toolFinished("t2", false, "exit code 1"),
        { type: "usage", inputTokens: 10, outputTokens: 5, costUsd: 0.02, contextPercent: 12.5 },
        {
          type: "turn_finished",
          ok: true,
          answer: "ok",
          interrupted: false,
          costUsd: 0.03,
          numTurns: 3,
          durationMs: 9000,
          origin: "person",
        },
        {
          type: "run_completed",
          runId: "run-1",
          ok: true,
          answer: "ok",
          interrupted: false,
          cancelled: false,
          costUsd: 0.03,
          durationMs: 9500,
          sessionId: "sess-1",
        },
      ],
      answered,
    );
    expect(done.phase).toBe("done");
    expect(done.tools.at(-1)).toMatchObject({ status: "failed", detail: "exit code 1" });
    expect([done.costUsd, done.contextPercent, done.outcome]).toEqual([
      0.03,
      12.5,
      { ok: true, interrupted: false, cancelled: false, durationMs: 9500 },
    ]);
    expect(reduceProgress(done, toolStarted("late", "after the end"), T0 + 99_000)).toBe(done);
  });

  it("costs a run what its own turn cost, never the session's running total the usage line carries", () => {
    const usage: TelecodeEvent = { type: "usage", inputTokens: 100, outputTokens: 20, costUsd: 0.0364 };
    const resumed = run([
      usage,
      {
        type: "turn_finished",
        ok: true,
        answer: "ok",
        interrupted: false,
        costUsd: 0.0008,
        numTurns: 1,
        durationMs: 900,
        origin: "person",
      },
    ]);
    expect(resumed.costUsd).toBe(0.0008);
    const cancelled = run([
      usage,
      {
        type: "run_completed",
        runId: "r",
        ok: false,
        answer: "",
        interrupted: true,
        cancelled: true,
        costUsd: 0,
        durationMs: 10,
      },
    ]);
    expect(cancelled.costUsd).toBe(0);
  });

  it("names the end as the person will read it: cancelled, interrupted, failed", () => {
    const end = (over: Partial<Extract<TelecodeEvent, { type: "run_completed" }>>): ProgressState =>
      run([
        toolStarted("t1", "sleep 100"),
        {
          type: "run_completed",
          runId: "r",
          ok: false,
          answer: "",
          interrupted: false,
          cancelled: false,
          costUsd: 0,
          durationMs: 1,
          ...over,
        },
      ]);
    expect(end({ cancelled: true, interrupted: true }).phase).toBe("cancelled");
    expect(end({ interrupted: true }).phase).toBe("interrupted");
    const failed = end({ error: { reason: "api_error", what: "API error.", hint: "Try again." } });
    expect([failed.phase, failed.outcome?.error?.reason, failed.tools[0]?.status]).toEqual([
      "failed",
      "api_error",
      "failed",
    ]);
  });

  it("keys notes: a retry note updates in place and goes once work resumes; a rate-limit wait ends on time", () => {
    const retrying = run([
      { type: "note", kind: "api_retry", key: "api_retry:1", text: "API error, retry 1/10" },
      { type: "note", kind: "api_retry", key: "api_retry:1", text: "API error, retry 2/10" },
      { type: "note", kind: "rate_limit", key: "rl", text: "Rate limited until 14:05", untilMs: T0 + 60_000 },
      { type: "note", kind: "warning", text: "disk almost full" },
      { type: "note", kind: "warning", text: "disk almost full" },
    ]);
    expect(retrying.notes.map((n) => n.text)).toEqual([
      "API error, retry 2/10",
      "Rate limited until 14:05",
      "disk almost full",
    ]);
    const resumed = reduceProgress(retrying, { type: "text", text: "Now…", parentToolUseId: null }, T0 + 10_000);
    expect(resumed.notes.map((n) => n.kind)).toEqual(["rate_limit", "warning"]);
    expect(tickProgress(resumed, T0 + 59_999)).toBe(resumed);
    expect(tickProgress(resumed, T0 + 60_000).notes.map((n) => n.kind)).toEqual(["warning"]);
  });

  it("keeps every running call and only the most recent finished ones", () => {
    const events: TelecodeEvent[] = [toolStarted("long", "npm run build")];
    for (let i = 0; i < 30; i++) events.push(toolStarted(`t${i}`, `step ${i}`), toolFinished(`t${i}`, true));
    const state = run(events);
    expect(state.steps).toBe(31);
    expect(state.tools[0]?.toolUseId).toBe("long");
    expect(state.tools.slice(1).map((t) => t.title)).toEqual(Array.from({ length: 8 }, (_, i) => `step ${22 + i}`));
  });

  it("counts background tasks until they finish, and not the ones a tool call waits on", () => {
    const state = run([
      { type: "task_changed", taskId: "a", phase: "started", backgrounded: true },
      { type: "task_changed", taskId: "b", phase: "started", backgrounded: true },
      { type: "task_changed", taskId: "bash", phase: "started", taskType: "local_bash", backgrounded: false },
      { type: "task_changed", taskId: "agent", phase: "started", taskType: "local_agent", backgrounded: false },
      { type: "task_changed", taskId: "a", phase: "updated", backgrounded: true },
      { type: "task_changed", taskId: "a", phase: "finished", backgrounded: true },
    ]);
    expect(state.backgroundTaskIds).toEqual(["b"]);
    // A foreground task moved to the background later counts from then on.
    const moved = run([{ type: "task_changed", taskId: "bash", phase: "updated", backgrounded: true }], state);
    expect(moved.backgroundTaskIds).toEqual(["b", "bash"]);
  });

  it("keeps Claude's latest words, failed and denied steps, and the project directory", () => {
    const state = run([
      { type: "session_started", sessionId: "s", model: "m", cwd: "/home/me/app", permissionMode: "plan", tools: [] },
      { type: "text", text: "I will read the config first.", parentToolUseId: null },
      toolStarted("t1", "cat missing.txt"),
      toolFinished("t1", false, "<tool_use_error>Error: No such file</tool_use_error>"),
      { type: "text", text: "The subagent's own words.", parentToolUseId: "t9" },
      toolStarted("t2", "touch x"),
      toolFinished("t2", false, "The user doesn't want to proceed with this tool use."),
      toolStarted("t3", "big"),
      toolFinished(
        "t3",
        true,
        "<persisted-output>\nOutput too large (1.9MB). Full output saved to: /x.txt\n\nPreview:\n0001",
      ),
    ]);
    expect(state.narration).toBe("I will read the config first.");
    expect(state.cwd).toBe("/home/me/app");
    expect(state.failedTools.map((t) => [t.title, t.detail])).toEqual([
      ["cat missing.txt", "Error: No such file"],
      ["touch x", "The user doesn't want to proceed with this tool use."],
    ]);
    expect(state.tools.at(-1)?.detail).toBe("Output too large (1.9MB). Full output saved to: /x.txt");
    expect(startProgress({ startedAtMs: T0, cwd: "/srv/app" }).cwd).toBe("/srv/app");
  });

  it("holds its invariants over any sequence of events", () => {
    fc.assert(
      fc.property(timedRun, (events) => {
        let state = startProgress({ startedAtMs: T0 });
        let started = 0;
        for (const { event, atMs } of events) {
          const before = state;
          state = reduceProgress(state, event, T0 + atMs);
          if (event.type === "tool_started" && before.outcome === undefined) started++;
          expect(state.tools.length).toBeLessThanOrEqual(20);
          expect(state.notes.length).toBeLessThanOrEqual(4);
          expect(new Set(state.tools.map((t) => t.toolUseId)).size).toBe(state.tools.length);
        }
        expect(state.steps).toBeGreaterThanOrEqual(started);
        const completed = events.some(({ event }) => event.type === "run_completed");
        expect(state.outcome !== undefined).toBe(completed);
        if (completed)
          expect(state.tools.every((t) => t.status !== "running") && state.pendingDecisions.length === 0).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
