// The terminal's lines for tool calls: the same sign and name as the Telegram progress
// message, paths relative to the project, and no CLI wrappers around a result.

import { describe, expect, it } from "vitest";
import type { TelecodeEvent } from "../../src/domain/index.js";
import { renderTerminalLine } from "../../src/render/index.js";

const finished = (name: string, title: string, ok: boolean, detail: string): TelecodeEvent => ({
  type: "tool_finished",
  toolUseId: "t",
  name,
  kind: name === "Bash" ? "command" : name === "Write" ? "file_change" : "tool",
  title,
  ok,
  detail,
  parentToolUseId: null,
});

describe("renderTerminalLine", () => {
  it("shows Claude Code's guess at the next message on a line of its own", () => {
    const guess: TelecodeEvent = { type: "prompt_suggested", text: "run the tests", sessionId: "s" };
    expect(renderTerminalLine(guess, {})).toBe("💬 suggested next: run the tests");
  });

  it("names each tool with its sign, paths relative to the project", () => {
    const cwd = "/home/me/app";
    const started: TelecodeEvent = {
      type: "tool_started",
      toolUseId: "t",
      name: "Grep",
      kind: "tool",
      title: "TODO in /home/me/app/src",
      input: {},
      parentToolUseId: null,
    };
    expect(renderTerminalLine(started, { cwd })).toBe("▸ 🔎 Grep TODO in src");
    expect(renderTerminalLine(finished("Write", "/home/me/app/a.ts", true, "File created"), { cwd })).toBe(
      "✓ ✎ Write a.ts — File created",
    );
    // A Read's output is the file; its line names it already.
    expect(renderTerminalLine(finished("Read", "/home/me/app/b.ts", true, "1\tconst a = 1;\n2\t"), { cwd })).toBe(
      "✓ 📖 Read b.ts",
    );
  });

  it("leaves out what Claude Code tells the model after a file tool", () => {
    const cwd = "/home/me/app";
    const note = " (file state is current in your context — no need to Read it back)";
    expect(
      renderTerminalLine(
        finished("Edit", "/home/me/app/a.ts", true, `The file /home/me/app/a.ts has been updated successfully.${note}`),
        { cwd },
      ),
    ).toBe("✓ ✎ Edit a.ts — The file a.ts has been updated successfully.");
    expect(
      renderTerminalLine(
        finished("Write", "/home/me/app/b.ts", true, `File created successfully at: /home/me/app/b.ts${note}`),
        {
          cwd,
        },
      ),
    ).toBe("✓ ✎ Write b.ts — File created successfully at: b.ts");
  });

  it("shows no usage line for a turn that used nothing (it failed before the model answered)", () => {
    const none: TelecodeEvent = { type: "usage", inputTokens: 0, outputTokens: 0, costUsd: 0 };
    expect(renderTerminalLine(none)).toBeUndefined();
    expect(renderTerminalLine({ ...none, outputTokens: 20, costUsd: 0.0008 })).toBe(
      "  tokens 0 in / 20 out · session $0.0008",
    );
  });

  it("ends approval lines with the request's id for a replay, and leaves it out when asked", () => {
    const resolved: TelecodeEvent = {
      type: "approval_resolved",
      requestId: "r-1",
      decision: "allow",
      by: "approve all",
    };
    expect(renderTerminalLine(resolved)).toBe("✓ allowed by approve all [r-1]");
    expect(renderTerminalLine(resolved, { requestIds: false })).toBe("✓ allowed by approve all");
    // Telecode's own rules: an allow says it was not asked; a refusal's why is on the tool's line.
    expect(renderTerminalLine({ ...resolved, by: "policy" })).toBe("✓ allowed without asking [r-1]");
    expect(renderTerminalLine({ ...resolved, decision: "deny", by: "policy" })).toBeUndefined();
    const withdrawn: TelecodeEvent = { type: "approval_withdrawn", requestId: "r-1" };
    expect(renderTerminalLine(withdrawn, { requestIds: false })).toBe("  approval withdrawn by Claude Code");
  });

  it("calls a task a background task only when it runs in the background", () => {
    const task = (backgrounded: boolean): TelecodeEvent => ({
      type: "task_changed",
      taskId: "a1",
      phase: "started",
      description: "List project files",
      backgrounded,
    });
    expect(renderTerminalLine(task(false), {})).toBe("  ◇ task started: List project files");
    expect(renderTerminalLine(task(true), {})).toBe("  ◇ background task started: List project files");
  });

  it("never shows the CLI's <tool_use_error> or <persisted-output> wrappers", () => {
    expect(
      renderTerminalLine(finished("Bash", "cron", false, "<tool_use_error>Error: No such tool</tool_use_error>")),
    ).toBe("✗ $ Bash cron — Error: No such tool");
    const persisted = "<persisted-output>\nOutput too large (1.9MB). Full output saved to: /t/x.txt\n\nPreview:\n00001";
    expect(renderTerminalLine(finished("Bash", "seq", true, persisted))).toBe(
      "✓ $ Bash seq — Output too large (1.9MB). Full output saved to: /t/x.txt",
    );
  });

  it("says why a turn failed on its ■ line, or only that it failed when the error follows on a line of its own", () => {
    const failed: TelecodeEvent = {
      type: "turn_finished",
      ok: false,
      answer: "",
      error: { reason: "api_error", what: "API error 529: Overloaded.", hint: "Send the message again in a minute." },
      interrupted: false,
      costUsd: 0,
      numTurns: 1,
      durationMs: 736,
      origin: "person",
    };
    expect(renderTerminalLine(failed, { steps: 0 })).toBe(
      "■ failed: API error 529: Overloaded. Send the message again in a minute. · 736 ms",
    );
    expect(renderTerminalLine(failed, { steps: 0, failureSaidAfter: true })).toBe("■ failed · 736 ms");
    // Steps and cost appear once there are some, as on the phone.
    expect(renderTerminalLine({ ...failed, costUsd: 0.0123 }, { steps: 2, failureSaidAfter: true })).toBe(
      "■ failed · 2 steps · 736 ms · $0.0123",
    );
  });
});
