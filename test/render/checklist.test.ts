// The agent's plan as a person reads it: in the progress message, its summary and the terminal.
import { describe, expect, it } from "vitest";
import { reduceProgress, startProgress, type ChecklistItem, type TelecodeEvent } from "../../src/domain/index.js";
import {
  renderProgressHtml,
  renderProgressSummaryHtml,
  renderTerminalLine,
  validateTelegramHtml,
} from "../../src/render/index.js";
import { checklistLines, checklistSummary } from "../../src/render/checklist.js";
import { textOf } from "./html-text.js";

const T0 = Date.UTC(2026, 0, 5, 14, 0, 0);
const done = (text: string): ChecklistItem => ({ text, status: "completed" });
const doing = (text: string, activeText?: string): ChecklistItem => ({
  text,
  status: "in_progress",
  ...(activeText === undefined ? {} : { activeText }),
});
const todo = (text: string): ChecklistItem => ({ text, status: "pending" });
const plan = [done("Read the code"), doing("Run the tests", "Running the tests"), todo("Fix <the> bug")];

describe("the plan's lines", () => {
  it("marks each item, in progress by what it is doing", () => {
    expect(checklistLines(plan, 8, 90)).toEqual(["✓ Read the code", "▸ Running the tests", "○ Fix <the> bug"]);
    expect(checklistSummary(plan, 90)).toBe("1/3 done · next: Run the tests");
    expect(checklistSummary([todo("A"), todo("B")], 90)).toBe("0/2 done · next: A");
    expect(checklistSummary([done("A")], 90)).toBe("1/1 done");
  });

  it("folds a long plan to what is in hand: what is done in one line, what is left past the room in another", () => {
    const long = [
      ...Array.from({ length: 6 }, (_, i) => done(`Done ${i + 1}`)),
      doing("Now"),
      ...Array.from({ length: 9 }, (_, i) => todo(`Next ${i + 1}`)),
    ];
    const lines = checklistLines(long, 8, 90);
    expect(lines).toEqual([
      "✓ 6 done",
      "▸ Now",
      "○ Next 1",
      "○ Next 2",
      "○ Next 3",
      "○ Next 4",
      "○ Next 5",
      "○ 4 more",
    ]);
    expect(checklistLines(long.slice(0, 8), 8, 90)).toHaveLength(8);
  });

  it("puts a long item on one line, cut", () => {
    const [line] = checklistLines([todo(`Check\nevery ${"word ".repeat(40)}`)], 8, 40);
    expect(line).toMatch(/^○ Check every word word .*…$/);
    expect(line!.length).toBeLessThanOrEqual(42);
  });
});

describe("the plan in a run's messages", () => {
  const events: [TelecodeEvent, number][] = [
    [
      {
        type: "tool_started",
        toolUseId: "t1",
        name: "TaskUpdate",
        kind: "note",
        title: "Run the tests · in progress",
        input: {},
        parentToolUseId: null,
      },
      100,
    ],
    [
      {
        type: "tool_finished",
        toolUseId: "t1",
        name: "TaskUpdate",
        kind: "note",
        title: "Run the tests · in progress",
        ok: true,
        detail: "Updated task #2 status",
        parentToolUseId: null,
      },
      200,
    ],
    [{ type: "checklist", items: plan }, 200],
    [
      {
        type: "tool_started",
        toolUseId: "t2",
        name: "TaskUpdate",
        kind: "note",
        title: "#9 completed",
        input: {},
        parentToolUseId: null,
      },
      300,
    ],
    [
      {
        type: "tool_finished",
        toolUseId: "t2",
        name: "TaskUpdate",
        kind: "note",
        title: "#9 completed",
        ok: false,
        detail: "Task not found",
        parentToolUseId: null,
      },
      400,
    ],
    [
      {
        type: "tool_started",
        toolUseId: "t3",
        name: "Bash",
        kind: "command",
        title: "npm test",
        input: {},
        parentToolUseId: null,
      },
      500,
    ],
  ];
  const state = events.reduce(
    (s, [event, at]) => reduceProgress(s, event, T0 + at),
    startProgress({ startedAtMs: T0 }),
  );

  it("shows the plan above the steps, without the steps that only kept it", () => {
    expect(textOf(renderProgressHtml(state, { nowMs: T0 + 2000 }))).toBe(
      [
        "⚙️ Working · 2 s · 3 steps",
        "",
        "☑ Tasks · 1/3 done",
        "✓ Read the code",
        "▸ Running the tests",
        "○ Fix <the> bug",
        "",
        "✗ ☑ TaskUpdate #9 completed — Task not found",
        "▸ $ Bash npm test",
      ].join("\n"),
    );
  });

  it("says where the plan stands in the summary", () => {
    const ended = reduceProgress(
      state,
      {
        type: "run_completed",
        runId: "r",
        ok: true,
        answer: "",
        interrupted: false,
        cancelled: false,
        costUsd: 0,
        durationMs: 3000,
      },
      T0 + 3000,
    );
    expect(textOf(renderProgressSummaryHtml(ended, T0 + 3000))).toBe(
      "✅ Done · 3 s · 3 steps\n☑ Tasks · 1/3 done · next: Run the tests\n\n✗ ☑ TaskUpdate #9 completed — Task not found",
    );
  });

  it("keeps the message under Telegram's limit with a long plan, giving up its items last", () => {
    const amp = "&".repeat(200);
    const long = reduceProgress(
      startProgress({ startedAtMs: T0, model: amp, effort: amp, mode: amp }),
      { type: "checklist", items: Array.from({ length: 30 }, (_, i) => todo(`${i} ${amp}`)) },
      T0,
    );
    const html = renderProgressHtml(long, { nowMs: T0 + 2000 });
    expect(html.length).toBeLessThanOrEqual(4096);
    expect(validateTelegramHtml(html)).toBeUndefined();
    expect(textOf(html)).toContain("☑ Tasks · 0/30 done\n○ 0 &&&");
  });

  it("prints the plan as one line in the terminal", () => {
    expect(renderTerminalLine({ type: "checklist", items: plan })).toBe("☑ tasks 1/3 done · next: Run the tests");
    expect(renderTerminalLine({ type: "checklist", items: [] })).toBeUndefined();
  });
});
