// The Telegram progress message and the messages that end a run, as the person reads them.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createClockFormatter,
  describeTool,
  reduceProgress,
  startProgress,
  type ProgressState,
  type RunCompleted,
  type TelecodeEvent,
  type ToolKind,
  TURN_CUT_OFF_NOTE,
} from "../../src/domain/index.js";
import { outlineRequestedMessage, personDeniedMessage, unattendedMessage } from "../../src/policy/index.js";
import {
  answerFooterOf,
  renderFinalAnswer,
  renderProgressHtml,
  renderProgressSummaryHtml,
  renderRunErrorHtml,
  validateTelegramHtml,
} from "../../src/render/index.js";
import { timedRun } from "../domain/progress-events.js";
import { textOf as text } from "./html-text.js";

const T0 = Date.UTC(2026, 0, 5, 14, 0, 0);
const clock = createClockFormatter("UTC");

/** A run that ended well, with the facts a test cares about. */
function succeeded(facts: Pick<RunCompleted, "costUsd" | "durationMs"> & Partial<RunCompleted>): RunCompleted {
  return { type: "run_completed", runId: "r", ok: true, answer: "", interrupted: false, cancelled: false, ...facts };
}

function stateAfter(events: readonly [TelecodeEvent, number][]): ProgressState {
  return events.reduce(
    (state, [event, atMs]) => reduceProgress(state, event, T0 + atMs),
    startProgress({ startedAtMs: T0, effort: "high", mode: "plan" }),
  );
}

const tool = (
  id: string,
  title: string,
  atMs: number,
  parent: string | null = null,
  name = "Bash",
  kind: ToolKind = "command",
): [TelecodeEvent, number] => [
  { type: "tool_started", toolUseId: id, name, kind, title, input: {}, parentToolUseId: parent },
  atMs,
];
const finished = (id: string, ok: boolean, atMs: number, detail = "", name = "Bash"): [TelecodeEvent, number] => [
  { type: "tool_finished", toolUseId: id, name, kind: "command", title: "", ok, detail, parentToolUseId: null },
  atMs,
];

describe("renderProgressHtml", () => {
  it("shows state, elapsed time, steps, tool lines, notes and the footer", () => {
    const state = stateAfter([
      [
        {
          type: "session_started",
          sessionId: "s",
          model: "claude-opus-4",
          cwd: "/work/app",
          permissionMode: "plan",
          tools: [],
        },
        500,
      ],
      tool("t1", "/work/app/src/<app>.ts", 1000, null, "Read", "tool"),
      finished("t1", true, 2000),
      tool("t2", "npm test", 3000),
      finished("t2", false, 4000, "exit code 1\nFAIL app.test.ts"),
      tool("t3", "npm run build", 5000),
      tool("t4", "TODO in /work/app/src", 6000, "t3", "Grep", "tool"),
      [
        {
          type: "note",
          kind: "rate_limit",
          key: "rl",
          text: "Rate limited (5-hour limit reached)",
          untilMs: T0 + 30 * 60_000,
        },
        7000,
      ],
      [{ type: "usage", inputTokens: 1, outputTokens: 1, costUsd: 0.5, contextPercent: 43.4 }, 8000],
    ]);
    const html = renderProgressHtml(state, { nowMs: T0 + 125_000, clock });
    expect(validateTelegramHtml(html)).toBeUndefined();
    expect(text(html)).toBe(
      [
        "⚙️ Working · 2 min 5 s · 4 steps",
        "",
        "✓ 📖 Read src/<app>.ts",
        "✗ $ Bash npm test — exit code 1 ⏎ FAIL app.test.ts",
        "▸ $ Bash npm run build (2 min)",
        "  ▸ 🔎 Grep TODO in src (1 min 59 s)",
        "",
        "⏳ Rate limited (5-hour limit reached) (resumes at 14:30, in 27 min 55 s)",
        "",
        "claude-opus-4 · high effort · plan mode · context 43%",
      ].join("\n"),
    );
  });

  it("marks a plan the person asked to outline with ↩, and the summary does not list it as failed", () => {
    const state = stateAfter([
      tool("p1", "ExitPlanMode", 1000, null, "ExitPlanMode", "tool"),
      finished("p1", false, 2000, outlineRequestedMessage, "ExitPlanMode"),
      tool("b1", "rm -rf build", 3000),
      finished("b1", false, 4000, personDeniedMessage("Bash")),
    ]);
    const live = text(renderProgressHtml(state, { nowMs: T0 + 5000, clock })).split("\n");
    expect(live).toContain("↩ 📋 ExitPlanMode — outline requested");
    expect(live).toContain("✗ $ Bash rm -rf build — denied");
    const ended = reduceProgress(state, succeeded({ costUsd: 0.01, durationMs: 5000 }), T0 + 5000);
    expect(text(renderProgressSummaryHtml(ended, T0 + 5000)).split("\n")).toEqual([
      "✅ Done · 5 s · 2 steps · $0.01",
      "",
      "✗ $ Bash rm -rf build — denied",
    ]);
  });

  it("says how long a usage limit holds the run, without repeating the time its note names", () => {
    const limited = (text: string, untilMs: number) =>
      stateAfter([[{ type: "note", kind: "rate_limit", key: "rl", text, untilMs }, 1000]]);
    const line = (state: ProgressState) =>
      text(renderProgressHtml(state, { nowMs: T0 + 5000, clock }))
        .split("\n")
        .find((l) => l.startsWith("⏳ Rate"));
    expect(line(limited("Rate limited until 14:30 today (5h limit reached)", T0 + 30 * 60_000))).toBe(
      "⏳ Rate limited until 14:30 today (5h limit reached) (resumes in 29 min 55 s)",
    );
    // A weekly limit days away: the wait in days and hours.
    const nextWeek = T0 + 5000 + (6 * 24 + 3) * 3_600_000;
    expect(line(limited("Rate limited until 17:00 on 11 January (7-day limit reached)", nextWeek))).toBe(
      "⏳ Rate limited until 17:00 on 11 January (7-day limit reached) (resumes in 6 d 3 h)",
    );
  });

  it("shows a running line's own time only after a minute, and says when it waits for a person", () => {
    const state = stateAfter([
      tool("t1", "sleep 30", 0),
      [
        {
          type: "approval_requested",
          request: { requestId: "r1", toolName: "Bash", input: {}, permissionSuggestions: [] },
        },
        1000,
      ],
    ]);
    const lines = text(renderProgressHtml(state, { nowMs: T0 + 59_999 })).split("\n");
    expect(lines).toContain("▸ $ Bash sleep 30");
    expect(lines[0]).toBe("⏸ Waiting for you · 1 min · 1 step");
    expect(lines).toContain("⏸ Waiting for your answer below");
  });

  it("says a refused call was refused in the person's words, not in the words the model read", () => {
    const state = stateAfter([
      tool("t1", "touch x", 0),
      finished("t1", false, 100, personDeniedMessage("Bash")),
      tool("t2", "touch y", 200),
      finished("t2", false, 300, `<tool_use_error>${unattendedMessage("Bash")}</tool_use_error>`),
    ]);
    expect(
      text(renderProgressHtml(state, { nowMs: T0 + 400, clock }))
        .split("\n")
        .slice(2, 4),
    ).toEqual(["✗ $ Bash touch x — denied", "✗ $ Bash touch y — not allowed: nobody was watching this run"]);
  });

  it("leaves out what is not worth reading yet: the first second, and steps before the first call", () => {
    const started = stateAfter([]);
    expect(text(renderProgressHtml(started, { nowMs: T0 + 300, clock })).split("\n")[0]).toBe("⏳ Starting…");
    expect(text(renderProgressHtml(started, { nowMs: T0 + 1500, clock })).split("\n")[0]).toBe("⏳ Starting… · 1.5 s");
    const oneCall = stateAfter([tool("t1", "ls", 200)]);
    expect(text(renderProgressHtml(oneCall, { nowMs: T0 + 400, clock })).split("\n")[0]).toBe("⚙️ Working · 1 step");
    const answered = stateAfter([[succeeded({ answer: "Hi.", costUsd: 0.0008, durationMs: 327 }), 327]]);
    expect(text(renderProgressSummaryHtml(answered, T0 + 5000))).toBe("✅ Done · 327 ms · $0.0008");
  });

  it("keeps running calls in view when many finish after them", () => {
    const events: [TelecodeEvent, number][] = [tool("long", "npm run e2e", 0)];
    for (let i = 0; i < 10; i++) events.push(tool(`t${i}`, `step ${i}`, i + 1), finished(`t${i}`, true, i + 1));
    const lines = text(renderProgressHtml(stateAfter(events), { nowMs: T0 + 20, maxToolLines: 3 })).split("\n");
    expect(lines.filter((l) => /^[▸✓]/.test(l))).toEqual([
      "▸ $ Bash npm run e2e",
      "✓ $ Bash step 8",
      "✓ $ Bash step 9",
    ]);
  });

  it("keeps every running call in view, also one started before calls that are still running", () => {
    const events: [TelecodeEvent, number][] = [tool("a1", "first agent", 0), tool("a2", "second agent", 1)];
    for (let i = 0; i < 5; i++) events.push(tool(`b${i}`, `echo ${i}`, i + 2), finished(`b${i}`, true, i + 2));
    const lines = text(renderProgressHtml(stateAfter(events), { nowMs: T0 + 20, maxToolLines: 6 })).split("\n");
    expect(lines.filter((l) => /^[▸✓]/.test(l))).toEqual([
      "▸ $ Bash first agent",
      "▸ $ Bash second agent",
      "✓ $ Bash echo 1",
      "✓ $ Bash echo 2",
      "✓ $ Bash echo 3",
      "✓ $ Bash echo 4",
    ]);
  });

  it("shows Claude's latest words between tool calls, cut to the last sentences that fit", () => {
    const narration = `${"Background sentence that is long enough to matter. ".repeat(8)}Now I **edit** \`src/app.ts\` to fix the bug.`;
    const state = stateAfter([
      tool("t1", "npm test", 0),
      [{ type: "text", text: `First para.\n\n${narration}`, parentToolUseId: null }, 500],
      [{ type: "text", text: "A subagent talking to itself.", parentToolUseId: "t1" }, 600],
    ]);
    const lines = text(renderProgressHtml(state, { nowMs: T0 + 1000 })).split("\n");
    const said = lines.find((l) => l.startsWith("💬"))!;
    expect(said).toMatch(/^💬 … .*Now I edit src\/app\.ts to fix the bug\.$/);
    expect(said.length).toBeLessThanOrEqual(300);
    expect(renderProgressHtml(state, { nowMs: T0 + 1000 })).toContain("<b>edit</b> <code>src/app.ts</code>");
  });

  it("says '1 in background' only for a task that runs in the background", () => {
    const foreground = stateAfter([
      tool("t1", "sleep 5", 0),
      [{ type: "task_changed", taskId: "b1", phase: "started", taskType: "local_bash", backgrounded: false }, 3000],
    ]);
    expect(text(renderProgressHtml(foreground, { nowMs: T0 + 4000 })).split("\n")[0]).toBe("⚙️ Working · 4 s · 1 step");
    const background = stateAfter([
      tool("t1", "npm run watch", 0),
      [{ type: "task_changed", taskId: "b1", phase: "started", taskType: "local_bash", backgrounded: true }, 100],
    ]);
    expect(text(renderProgressHtml(background, { nowMs: T0 + 4000 })).split("\n")[0]).toBe(
      "⚙️ Working · 4 s · 1 step · 1 in background",
    );
  });

  it("is valid Telegram HTML within the limit for any run, at any time", () => {
    fc.assert(
      fc.property(timedRun, fc.nat(10_000_000), fc.integer({ min: 0, max: 40 }), (events, later, lines) => {
        let state = startProgress({ startedAtMs: T0, model: "m<1>", effort: "&", mode: "plan" });
        for (const { event, atMs } of events) {
          state = reduceProgress(state, event, T0 + atMs);
          const html = renderProgressHtml(state, { nowMs: T0 + atMs, clock, maxToolLines: lines });
          expect(validateTelegramHtml(html)).toBeUndefined();
          expect(html.length).toBeLessThanOrEqual(4096);
        }
        const end = T0 + (events.at(-1)?.atMs ?? 0) + later;
        expect(validateTelegramHtml(renderProgressSummaryHtml(state, end))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });
});

describe("the end of a run", () => {
  const done = stateAfter([
    [{ type: "turn_started", sessionId: "0a1b2c3d-4e5f", turn: 1, origin: "person" }, 100],
    tool("t1", "ls", 200),
    [succeeded({ costUsd: 0.0421, durationMs: 125_000, sessionId: "0a1b2c3d-4e5f" }), 125_000],
  ]);

  it("summarises the progress message in one line", () => {
    expect(text(renderProgressSummaryHtml(done, T0 + 999_999))).toBe("✅ Done · 2 min 5 s · 1 step · $0.0421");
  });

  it("says how long the run took as the answer's footer does, though its message went live later", () => {
    // Queued behind another run: the message went live 4.6 s after the engine started the run.
    const queued = reduceProgress(
      startProgress({ startedAtMs: T0 + 4600 }),
      succeeded({ costUsd: 0.0008, durationMs: 5000 }),
      T0 + 5000,
    );
    expect(text(renderProgressSummaryHtml(queued, T0 + 9000))).toBe("✅ Done · 5 s · $0.0008");
    expect(text(renderFinalAnswer("Hi.", answerFooterOf(queued)).parts[0]!.html)).toContain("$0.0008 · 0 turns · 5 s");
  });

  it("keeps a long path's file name in view, cutting the folders between", () => {
    const deep = "/work/app/packages/web/src/components/dashboard/widgets/charts/time-series/TimeSeriesChart.test.tsx";
    const state = stateAfter([
      [
        { type: "session_started", sessionId: "s", model: "m", cwd: "/work/app", permissionMode: "default", tools: [] },
        0,
      ],
      tool("t1", deep, 100, null, "Edit", "file_change"),
      finished("t1", false, 200, "String to replace not found in file.", "Edit"),
      [succeeded({ costUsd: 0.01, durationMs: 300 }), 300],
    ]);
    expect(text(renderProgressSummaryHtml(state, T0 + 5000)).split("\n")[2]).toBe(
      "✗ ✎ Edit packages/…/components/dashboard/widgets/charts/time-series/TimeSeriesChart.test.tsx — String to replace not found in file.",
    );
    // A URL is no path: it is cut at its end, its scheme and host whole.
    const url = `https://docs.example.com/${"guides/".repeat(12)}streaming.html`;
    const fetching = stateAfter([tool("t2", url, 100, null, "WebFetch", "web")]);
    const line = text(renderProgressHtml(fetching, { nowMs: T0 + 1000 }))
      .split("\n")
      .find((l) => l.includes("WebFetch"))!;
    expect(line).toBe(`▸ 🌐 WebFetch ${url.slice(0, 77)}…`);
  });

  it("names a step by what it acts on, an MCP server's tool by its server and name", () => {
    const todos = describeTool("TodoWrite", {
      todos: [
        { content: "Read the code", status: "completed", activeForm: "Reading the code" },
        { content: "Run the tests", status: "in_progress", activeForm: "Running the tests" },
      ],
    });
    const cron = describeTool("CronCreate", { cron: "0 9 * * 1-5", prompt: "check the build", recurring: true });
    const mcp = describeTool("mcp__github__create_issue", { title: "Crash on start" });
    const state = stateAfter([
      tool("t1", todos.title, 100, null, "TodoWrite", todos.kind),
      finished("t1", true, 150, "", "TodoWrite"),
      tool("t2", cron.title, 200, null, "CronCreate", cron.kind),
      finished("t2", true, 250, "", "CronCreate"),
      tool("t3", mcp.title, 300, null, "mcp__github__create_issue", mcp.kind),
    ]);
    expect(text(renderProgressHtml(state, { nowMs: T0 + 1000 })).split("\n")).toEqual(
      expect.arrayContaining([
        "✓ ☑ TodoWrite Running the tests (1/2 done)",
        "✓ ⏰ CronCreate check the build · 0 9 * * 1-5",
        "▸ 🔌 github · create_issue",
      ]),
    );
  });

  it("keeps failed and denied steps in the summary, without the CLI's wrappers, paths relative", () => {
    const state = stateAfter([
      [
        { type: "session_started", sessionId: "s", model: "m", cwd: "/work/app", permissionMode: "default", tools: [] },
        0,
      ],
      tool("t1", "/work/app/src/a.ts", 100, null, "Read", "tool"),
      finished("t1", false, 200, "<tool_use_error>File does not exist: /work/app/src/a.ts</tool_use_error>", "Read"),
      tool("t2", "rm -rf build", 300),
      finished("t2", false, 400, "The user doesn't want to proceed with this tool use."),
      tool("t3", "ls", 500),
      finished("t3", true, 600, "a b"),
      [succeeded({ costUsd: 0.01, durationMs: 700 }), 700],
    ]);
    expect(text(renderProgressSummaryHtml(state, T0 + 5000)).split("\n")).toEqual([
      "✅ Done · 700 ms · 3 steps · $0.01",
      "",
      "✗ 📖 Read src/a.ts — File does not exist: src/a.ts",
      "✗ $ Bash rm -rf build — not run",
    ]);
  });

  it("keeps the warnings and usage limits a person should not miss, not the ones the error says", () => {
    const note = (kind: "warning" | "rate_limit" | "info" | "compaction", text: string, extra = {}) =>
      [{ type: "note", kind, text, ...extra }, 100] as [TelecodeEvent, number];
    const notes = [
      note("info", "Loaded 3 skills"),
      note("compaction", "Context compacted (auto): 5,020 → 2,613 tokens"),
      note("rate_limit", "5h limit 91% used, resets 17:46 today", { key: "rate_limit:five_hour" }),
      note("warning", "Hook PreToolUse:Bash failed (exit 1): no such file"),
      note("warning", "Claude Code stopped before it finished this turn.", { key: TURN_CUT_OFF_NOTE }),
    ];
    const ok = stateAfter([...notes, [succeeded({ costUsd: 0.01, durationMs: 700 }), 700]]);
    expect(text(renderProgressSummaryHtml(ok, T0 + 5000)).split("\n")).toEqual([
      "✅ Done · 700 ms · $0.01",
      "",
      "⏳ 5h limit 91% used, resets 17:46 today",
      "⚠️ Hook PreToolUse:Bash failed (exit 1): no such file",
      "⚠️ Claude Code stopped before it finished this turn.",
    ]);

    const limited = note("rate_limit", "Rate limited until 17:46 today (5h limit reached)", {
      key: "rate_limit:five_hour",
      untilMs: T0 + 3_600_000,
    });
    const error = { reason: "rate_limited", what: "API error 429: You've hit your 5-hour limit.", hint: "" } as const;
    const failed = stateAfter([
      ...notes,
      limited,
      [{ ...succeeded({ costUsd: 0, durationMs: 700 }), ok: false, error }, 700],
    ]);
    expect(text(renderProgressSummaryHtml(failed, T0 + 5000)).split("\n")).toEqual([
      "❌ Failed · 700 ms",
      "",
      "⚠️ Hook PreToolUse:Bash failed (exit 1): no such file",
    ]);
    // Interrupted: the summary says the turn was cut short; a limit met on the way stays.
    const cut = stateAfter([
      ...notes,
      [{ ...succeeded({ costUsd: 0, durationMs: 700 }), ok: false, interrupted: true }, 700],
    ]);
    expect(
      text(renderProgressSummaryHtml(cut, T0 + 5000))
        .split("\n")
        .slice(2),
    ).toEqual(["⏳ 5h limit 91% used, resets 17:46 today", "⚠️ Hook PreToolUse:Bash failed (exit 1): no such file"]);
  });

  it("says a run that failed before Claude Code started was not started, with no duration", () => {
    const failedWith = (reason: "project_missing" | "not_found" | "exited_before_output") =>
      stateAfter([
        [{ ...succeeded({ costUsd: 0, durationMs: 0 }), ok: false, error: { reason, what: "w", hint: "" } }, 0],
      ]);
    expect(text(renderProgressSummaryHtml(failedWith("project_missing"), T0))).toBe("❌ Not started");
    expect(text(renderProgressSummaryHtml(failedWith("not_found"), T0))).toBe("❌ Not started");
    // Claude Code was started and failed: how long it took is worth saying.
    expect(text(renderProgressSummaryHtml(failedWith("exited_before_output"), T0))).toBe("❌ Failed · 0 ms");
  });

  it("ends the final answer with cost, turns, duration and the session to reply to", () => {
    const { parts } = renderFinalAnswer("**Fixed** the bug.", answerFooterOf(done));
    expect(parts).toEqual([{ html: expect.any(String), silent: false }]);
    expect(text(parts[0]!.html)).toBe(
      "Fixed the bug.\n\n$0.0421 · 1 turn · 2 min 5 s · session 0a1b2c3d — reply to continue",
    );

    const long = renderFinalAnswer("word ".repeat(2000), answerFooterOf(done)).parts;
    expect(long.length).toBeGreaterThan(2);
    for (const part of long) expect(validateTelegramHtml(part.html)).toBeUndefined();
    expect(long.at(-1)!.html).toMatch(/reply to continue<\/i>$/);
    expect(text(renderFinalAnswer("", answerFooterOf(done)).parts[0]!.html)).toMatch(/^\(no text in the answer\)/);
  });

  it("leaves the cost out of the footer of a run that cost nothing, as the progress line does", () => {
    const local = { ...answerFooterOf(done), costUsd: 0 };
    expect(text(renderFinalAnswer("Context Usage", local).parts[0]!.html)).toBe(
      "Context Usage\n\n1 turn · 2 min 5 s · session 0a1b2c3d — reply to continue",
    );
  });

  it("words an error as what happened, what to do, and the incident id", () => {
    const html = renderRunErrorHtml({
      what: "Claude Code exited with <code 1>",
      hint: "Send the message again",
      incidentId: "k3x9",
    });
    expect(text(html)).toBe("❌ Claude Code exited with <code 1>. Send the message again. (incident k3x9)");
  });
});
