import { describe, expect, it } from "vitest";
import { describeTool, TOOL_TITLE_MAX_CHARS } from "../../src/domain/index.js";

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
    ["TodoWrite", { todos: [] }, "note", "update todos"],
    ["Task", { description: "Explore the repo" }, "subagent", "Explore the repo"],
    ["Agent", { subagent_type: "general-purpose" }, "subagent", "general-purpose"],
    ["CronCreate", { cron: "* * * * *" }, "tool", "CronCreate"],
    ["mcp__github__create_issue", { title: "x" }, "tool", "mcp__github__create_issue"],
  ] as const)("%s → %s", (name, input, kind, title) => {
    expect(describeTool(name, input)).toEqual({ kind, title });
  });

  it("falls back to the tool name when the field is missing or not a string", () => {
    expect(describeTool("Bash", {})).toEqual({ kind: "command", title: "Bash" });
    expect(describeTool("Edit", { file_path: 42 })).toEqual({ kind: "file_change", title: "Edit" });
  });

  it("cuts very long titles", () => {
    const title = describeTool("Bash", { command: "x".repeat(5000) }).title;
    expect(title).toHaveLength(TOOL_TITLE_MAX_CHARS);
    expect(title.endsWith("…")).toBe(true);
  });
});
