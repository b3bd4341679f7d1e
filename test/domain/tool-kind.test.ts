// What a step names: each tool call's kind and title, for every tool the recorded CLIs list.
import { describe, expect, it } from "vitest";
import { describeTool, isMcpTool, knowsTool, toolDisplayName, TOOL_TITLE_MAX_CHARS } from "../../src/domain/index.js";
import { listFixtureVersions, listStdoutFixtures, stdoutLines } from "../wire/fixtures.js";

describe("describeTool (DESIGN.md §3 table)", () => {
  it.each([
    ["Bash", { command: "ls -a" }, "command", "ls -a"],
    ["Edit", { file_path: "/p/a.ts" }, "file_change", "/p/a.ts"],
    ["Write", { file_path: "/p/b.ts", content: "x" }, "file_change", "/p/b.ts"],
    ["MultiEdit", { file_path: "/p/c.ts" }, "file_change", "/p/c.ts"],
    ["NotebookEdit", { notebook_path: "/p/n.ipynb" }, "file_change", "/p/n.ipynb"],
    ["Read", { file_path: "/p/r.md" }, "tool", "/p/r.md"],
    ["Glob", { pattern: "**/*.ts" }, "tool", "**/*.ts"],
    ["Grep", { pattern: "TODO", path: "src" }, "tool", "TODO in src"],
    ["WebSearch", { query: "vitest 4" }, "web", "vitest 4"],
    ["WebFetch", { url: "https://example.com" }, "web", "https://example.com"],
    ["Task", { description: "Explore the repo" }, "subagent", "Explore the repo"],
    ["Agent", { subagent_type: "general-purpose" }, "subagent", "general-purpose"],
    ["mcp__github__create_issue", { title: "x" }, "tool", "mcp__github__create_issue"],
  ] as const)("%s → %s", (name, input, kind, title) => {
    expect(describeTool(name, input)).toEqual({ kind, title });
  });

  it("names what the CLI's newer tools act on, as their inputs (sdk-tools.d.ts) say", () => {
    const title = (name: string, input: Record<string, unknown>) => describeTool(name, input).title;
    // Inputs as recorded from the real CLI (test/golden/fixtures).
    expect(title("CronCreate", { cron: "*/5 * * * *", prompt: "check the build", recurring: true })).toBe(
      "check the build · */5 * * * *",
    );
    expect(title("CronCreate", { cron: "30 14 5 12 *", prompt: "check the deploy", recurring: false })).toBe(
      "check the deploy · 30 14 5 12 * (once)",
    );
    expect(title("ScheduleWakeup", { delaySeconds: 60, reason: "poll", prompt: "WAKE", noop: false })).toBe(
      "poll · in 1 min",
    );
    expect(title("ScheduleWakeup", { stop: true })).toBe("stop");
    expect(title("Monitor", { description: "watch the build", timeout_ms: 20000, command: "npm run watch" })).toBe(
      "watch the build",
    );
    expect(title("ToolSearch", { query: "select:CronCreate" })).toBe("CronCreate");
    expect(title("ToolSearch", { query: "select:CronCreate,CronList" })).toBe("CronCreate, CronList");
    expect(title("ToolSearch", { query: "schedule a job" })).toBe("schedule a job");
    expect(title("AskUserQuestion", { questions: [{ question: "Which color?", header: "Color" }] })).toBe(
      "Which color?",
    );
    expect(title("AskUserQuestion", { questions: [{ question: "A?" }, { question: "B?" }] })).toBe("2 questions");
    // The task list, as a person would follow it.
    expect(describeTool("TaskCreate", { subject: "Run the tests", description: "npm test" })).toEqual({
      kind: "note",
      title: "Run the tests",
    });
    expect(title("TaskUpdate", { taskId: "3", status: "completed" })).toBe("#3 completed");
    expect(title("TaskUpdate", { taskId: "3", status: "in_progress" })).toBe("#3 in progress");
    expect(title("TaskUpdate", { taskId: "3", subject: "Write the docs" })).toBe("Write the docs");
    expect(title("TaskGet", { taskId: "3" })).toBe("#3");
    // A task the session's list knows is named by its subject.
    const subjects = (id: string): string | undefined => (id === "3" ? "Write the docs" : undefined);
    const known = (name: string, input: Record<string, unknown>): string => describeTool(name, input, subjects).title;
    expect(known("TaskUpdate", { taskId: "3", status: "in_progress" })).toBe("Write the docs · in progress");
    expect(known("TaskUpdate", { taskId: "3", subject: "Write the README", status: "completed" })).toBe(
      "Write the README · completed",
    );
    expect(known("TaskUpdate", { taskId: "3", status: "deleted" })).toBe("Write the docs · deleted");
    expect(known("TaskUpdate", { taskId: "4", status: "completed" })).toBe("#4 completed");
    expect(known("TaskGet", { taskId: "3" })).toBe("Write the docs");
    const todos = [
      { content: "Read the code", status: "completed", activeForm: "Reading the code" },
      { content: "Run the tests", status: "in_progress", activeForm: "Running the tests" },
      { content: "Fix the bug", status: "pending", activeForm: "Fixing the bug" },
    ];
    expect(describeTool("TodoWrite", { todos })).toEqual({ kind: "note", title: "Running the tests (1/3 done)" });
    expect(title("TodoWrite", { todos: todos.map((t) => ({ ...t, status: "completed" })) })).toBe("3/3 done");
    expect(title("TodoWrite", { todos: [] })).toBe("clear todos");
    expect(title("Skill", { skill: "pdf" })).toBe("pdf");
    expect(title("Workflow", { name: "release", description: "Cut a release" })).toBe("release");
    expect(title("EnterWorktree", { name: "fix-login" })).toBe("fix-login");
    expect(title("ExitWorktree", { action: "remove" })).toBe("remove");
    expect(title("ReportFindings", { findings: [{ file: "a.ts", summary: "x", failure_scenario: "y" }] })).toBe(
      "1 finding",
    );
    expect(title("PushNotification", { message: "Tests pass" })).toBe("Tests pass");
  });

  it("falls back to the tool name when the field is missing or not a string", () => {
    expect(describeTool("Bash", {})).toEqual({ kind: "command", title: "Bash" });
    expect(describeTool("Edit", { file_path: 42 })).toEqual({ kind: "file_change", title: "Edit" });
    expect(describeTool("TodoWrite", { todos: "x" })).toEqual({ kind: "note", title: "TodoWrite" });
    expect(describeTool("TaskUpdate", { status: "completed" })).toEqual({ kind: "note", title: "TaskUpdate" });
    expect(describeTool("AskUserQuestion", { questions: [42] })).toEqual({ kind: "tool", title: "AskUserQuestion" });
    expect(describeTool("ScheduleWakeup", { delaySeconds: 120 })).toEqual({ kind: "tool", title: "in 2 min" });
    // A name that is also a property of every object is no tool Telecode knows.
    expect(describeTool("constructor", { command: "x" })).toEqual({ kind: "tool", title: "constructor" });
    expect(knowsTool("toString")).toBe(false);
  });

  it("names an MCP server's tool by its server and its name, Claude Code's own tools as they are", () => {
    expect(toolDisplayName("mcp__github__create_issue")).toBe("github · create_issue");
    expect(toolDisplayName("mcp__my_db__run__query")).toBe("my_db · run__query");
    expect(toolDisplayName("Bash")).toBe("Bash");
    expect(toolDisplayName("mcp__")).toBe("mcp__");
  });

  it("cuts very long titles", () => {
    const title = describeTool("Bash", { command: "x".repeat(5000) }).title;
    expect(title).toHaveLength(TOOL_TITLE_MAX_CHARS);
    expect(title.endsWith("…")).toBe(true);
  });

  it("knows every tool a recorded Claude Code lists, or says which it titles by name alone", () => {
    const listed = new Set<string>();
    for (const version of listFixtureVersions())
      for (const name of listStdoutFixtures(version))
        for (const line of stdoutLines(name, version)) {
          const parsed = JSON.parse(line) as { type?: string; subtype?: string; tools?: unknown };
          if (parsed.type === "system" && parsed.subtype === "init" && Array.isArray(parsed.tools))
            for (const tool of parsed.tools) if (typeof tool === "string") listed.add(tool);
        }
    expect(listed.size).toBeGreaterThan(20);
    // An MCP server's tools (the w recordings' mcp__ops__deploy) are the server's own: their
    // steps read as "ops · deploy", as the drift check leaves them out too.
    expect(listed).toContain("mcp__ops__deploy");
    expect([...listed].filter((tool) => !isMcpTool(tool) && !knowsTool(tool))).toEqual([]);
    expect(knowsTool("Frobnicate")).toBe(false);
  });
});
