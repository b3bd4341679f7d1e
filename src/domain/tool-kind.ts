// Maps a tool call (its name and input) to Telecode's tool kind and a short title, as in
// DESIGN.md §3. Pure and engine-neutral: knows Claude Code's tool names, nothing of the wire.
import type { ToolKind } from "./events.js";
import { excerpt } from "./text-format.js";

export type ToolDescription = { kind: ToolKind; title: string };

/** Titles longer than this are cut (a Bash heredoc can be kilobytes). */
export const TOOL_TITLE_MAX_CHARS = 300;

function stringField(input: Readonly<Record<string, unknown>>, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function cut(text: string): string {
  return excerpt(text, TOOL_TITLE_MAX_CHARS);
}

/**
 * The kind and title of a tool call. The title is the thing acted on (the command, the file
 * path, the pattern, the URL), falling back to the tool's name; at most 300 characters.
 */
export function describeTool(name: string, input: Readonly<Record<string, unknown>>): ToolDescription {
  switch (name) {
    case "Bash":
      return { kind: "command", title: cut(stringField(input, "command") ?? name) };
    case "Edit":
    case "Write":
    case "MultiEdit":
    case "NotebookEdit":
      return { kind: "file_change", title: cut(stringField(input, "file_path", "notebook_path", "path") ?? name) };
    case "Read":
      return { kind: "tool", title: cut(stringField(input, "file_path", "path") ?? name) };
    case "Glob":
    case "Grep": {
      const pattern = stringField(input, "pattern") ?? name;
      const path = stringField(input, "path");
      return { kind: "tool", title: cut(path === undefined ? pattern : `${pattern} in ${path}`) };
    }
    case "WebSearch":
      return { kind: "web", title: cut(stringField(input, "query") ?? name) };
    case "WebFetch":
      return { kind: "web", title: cut(stringField(input, "url") ?? name) };
    case "TodoWrite":
      return { kind: "note", title: "update todos" };
    case "Task":
    case "Agent":
      return { kind: "subagent", title: cut(stringField(input, "description", "subagent_type") ?? name) };
    default:
      return { kind: "tool", title: name };
  }
}
