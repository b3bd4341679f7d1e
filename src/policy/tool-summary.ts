// What a tool call will do, as prompt sections: Bash shows the command, Edit a compact diff,
// Write whether it replaces a file and the first lines, a Monitor what it runs in the background,
// a worktree what entering or leaving it does; anything else its key input fields. Reads input
// defensively.
import {
  describeTool,
  excerpt,
  formatDurationMs,
  relativeToCwd,
  toolDisplayName,
  type EditSite,
  type FileNow,
} from "../domain/index.js";
import { firstChangedLine } from "./edit-site.js";
import { compactLineDiff } from "./line-diff.js";
import type { PromptSection } from "./prompt-types.js";
import { headLines, oneLine } from "./text.js";

const writeHeadLines = 12;
const maxCommandChars = 3000;
const maxFields = 6;

function str(input: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = input[key];
  return typeof v === "string" ? v : undefined;
}

const diffOptions = { contextLines: 2, maxLines: 40 };

/** An Edit as a diff; with its site in the file, whole lines and the line number of the change. */
function editSections(path: string, oldText: string, newText: string, site?: EditSite): PromptSection[] {
  const own = compactLineDiff(oldText, newText, diffOptions);
  const unseen = unseenChange(oldText, newText, own.length === 0);
  const notes = unseen ? [{ kind: "text" as const, text: unseen }] : [];
  if (site === undefined || own.length === 0) return [{ kind: "diff", path, lines: own }, ...notes];
  const [a, b] = [site.before + oldText + site.after, site.before + newText + site.after];
  return [
    { kind: "diff", path, lines: compactLineDiff(a, b, diffOptions), line: firstChangedLine(site, a, b) },
    ...notes,
  ];
}

/** What a line diff cannot show: a change only to the final line break, or only to whitespace. */
function unseenChange(oldText: string, newText: string, noLines: boolean): string | undefined {
  if (oldText === newText) return "Changes nothing: the old and the new text are the same.";
  if (noLines) {
    return `Only ${newText.endsWith("\n") ? "adds" : "removes"} a line break at the end of the text it replaces.`;
  }
  const visible = (text: string): string => text.replace(/\s+/g, "");
  return visible(oldText) === visible(newText) ? "Only whitespace changes: spaces, tabs or line breaks." : undefined;
}

/** What a Write does to the file there now: "Creates a new file.", or replaces its lines. */
function writtenOver(fileNow: FileNow | undefined): PromptSection[] {
  if (fileNow === undefined) return [];
  if (!fileNow.exists) return [{ kind: "text", text: "Creates a new file." }];
  const now = fileNow.lines === 0 ? "empty now" : `${fileNow.lines} line${fileNow.lines === 1 ? "" : "s"} now`;
  return [{ kind: "text", text: `Replaces the whole file (${now}).` }];
}

function fileHead(label: string, content: string): PromptSection {
  const head = headLines(content, writeHeadLines);
  const more = head.omitted > 0 ? `\n… ${head.omitted} more line${head.omitted === 1 ? "" : "s"}` : "";
  return { kind: "code", label, text: excerpt(head.text, 2000) + more };
}

/** Key fields of an unfamiliar tool: scalar values first, each on one shortened line. */
function keyFields(input: Readonly<Record<string, unknown>>): PromptSection[] {
  const entries = Object.entries(input).filter(([, v]) => v !== undefined && v !== null && v !== "");
  const scalars = entries.filter(([, v]) => typeof v !== "object");
  const others = entries.filter(([, v]) => typeof v === "object");
  const fields = [...scalars, ...others].slice(0, maxFields).map(([name, value]) => ({ name, value: oneLine(value) }));
  return fields.length === 0 ? [] : [{ kind: "fields", fields }];
}

/** The URL a Monitor's `ws` opens, if it names one. */
function socketUrl(input: Readonly<Record<string, unknown>>): string | undefined {
  const ws = input["ws"];
  return typeof ws === "object" && ws !== null ? str(ws as Record<string, unknown>, "url") : undefined;
}

/** A Monitor runs its command (or opens its socket) in the background; each line reaches Claude. */
function monitorSections(input: Readonly<Record<string, unknown>>): PromptSection[] {
  const description = str(input, "description");
  const command = str(input, "command");
  const url = socketUrl(input);
  const timeout = input["timeout_ms"];
  const watched =
    command !== undefined
      ? [{ kind: "code" as const, label: "command", text: excerpt(command, maxCommandChars) }]
      : url !== undefined
        ? [{ kind: "fields" as const, fields: [{ name: "websocket", value: oneLine(url) }] }]
        : keyFields(input);
  const until = typeof timeout === "number" ? ` for up to ${formatDurationMs(Math.min(timeout, 1_800_000))}` : "";
  const what = command !== undefined ? "Runs in the background" : "Listens in the background";
  return [
    ...(description ? [{ kind: "text" as const, text: description }] : []),
    ...watched,
    {
      kind: "text",
      text: `${what}${until}; each line ${command !== undefined ? "it prints" : "that comes"} reaches Claude.`,
    },
  ];
}

/** What entering or leaving a git worktree does, in words; leaving with `discard_changes` warns. */
function worktreeSections(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  root: string | undefined,
): PromptSection[] {
  const text = (words: string): PromptSection => ({ kind: "text", text: words });
  if (toolName === "EnterWorktree") {
    const path = pathOf(input, "path", root);
    const name = str(input, "name");
    if (path !== undefined) return [text(`Switches to the git worktree at ${path} and works there.`)];
    return [text(`Creates a git worktree${name ? ` named ${name}` : ""} on a new branch and works there.`)];
  }
  const action = str(input, "action");
  if (action === "keep") return [text("Leaves the worktree, keeping it and its branch on disk.")];
  if (action !== "remove") return keyFields(input);
  return [
    text("Leaves the worktree and deletes it, and its branch."),
    ...(input["discard_changes"] === true
      ? [text("⚠️ Throws away its uncommitted files and unmerged commits, even with a task still running there.")]
      : []),
  ];
}

/** A file path of the input, relative to the project when inside it. */
function pathOf(input: Readonly<Record<string, unknown>>, key: string, root: string | undefined): string | undefined {
  const path = str(input, key);
  return path === undefined ? undefined : relativeToCwd(path, root);
}

/**
 * The "what it will do" part of an approval prompt for `toolName` with `input` (file paths
 * relative to `root`, the project, when inside it; `fileNow`, the file an Edit or Write targets
 * as read when asked). Unknown shapes fall back to key fields; never throws.
 */
export function describeToolCall(
  toolName: string,
  input: Readonly<Record<string, unknown>>,
  root?: string,
  fileNow?: FileNow,
): PromptSection[] {
  switch (toolName) {
    case "Bash": {
      const command = str(input, "command") ?? "";
      const description = str(input, "description");
      return [
        ...(description ? [{ kind: "text" as const, text: description }] : []),
        { kind: "code", label: "command", text: excerpt(command, maxCommandChars) },
      ];
    }
    case "Edit": {
      const path = pathOf(input, "file_path", root) ?? "(no path)";
      const replaceAll = input["replace_all"] === true;
      const site = replaceAll || fileNow?.exists !== true ? undefined : fileNow.editSite;
      const sections = editSections(path, str(input, "old_string") ?? "", str(input, "new_string") ?? "", site);
      if (replaceAll) sections.push({ kind: "text", text: "Replaces every occurrence." });
      return sections;
    }
    case "MultiEdit": {
      const path = pathOf(input, "file_path", root) ?? "(no path)";
      const edits = Array.isArray(input["edits"]) ? (input["edits"] as unknown[]) : [];
      const sections = edits.slice(0, 5).flatMap((e) => {
        const edit = typeof e === "object" && e !== null ? (e as Record<string, unknown>) : {};
        return editSections(path, str(edit, "old_string") ?? "", str(edit, "new_string") ?? "");
      });
      if (edits.length > 5)
        sections.push({ kind: "text", text: `… and ${edits.length - 5} more edits to the same file.` });
      return sections;
    }
    case "Write": {
      const path = pathOf(input, "file_path", root) ?? "(no path)";
      const content = str(input, "content") ?? "";
      return [...writtenOver(fileNow), fileHead(path, content)];
    }
    case "NotebookEdit": {
      const path = pathOf(input, "notebook_path", root) ?? "(no path)";
      const mode = str(input, "edit_mode") ?? "replace";
      const cell = str(input, "cell_id");
      return [
        {
          kind: "fields",
          fields: [
            { name: "notebook", value: path },
            { name: "edit", value: cell ? `${mode} cell ${cell}` : mode },
          ],
        },
        fileHead("new source", str(input, "new_source") ?? ""),
      ];
    }
    case "Monitor":
      return monitorSections(input);
    case "EnterWorktree":
    case "ExitWorktree":
      return worktreeSections(toolName, input, root);
    case "WebFetch":
      return [
        {
          kind: "fields",
          fields: [
            { name: "url", value: oneLine(input["url"] ?? "") },
            { name: "prompt", value: oneLine(input["prompt"] ?? "") },
          ],
        },
      ];
    case "Task":
    case "Agent": {
      const prompt = str(input, "prompt") ?? "";
      return [
        {
          kind: "fields",
          fields: [
            { name: "agent", value: oneLine(input["subagent_type"] ?? "general-purpose") },
            { name: "task", value: oneLine(input["description"] ?? "") },
          ],
        },
        fileHead("prompt", prompt),
      ];
    }
    default:
      return keyFields(input);
  }
}

/**
 * A short title: "Run: npm test", "Edit src/app.ts" (relative to `root` when inside it),
 * "WebFetch https://…", and for other tools what their step names ("Skill pdf").
 */
export function toolCallTitle(toolName: string, input: Readonly<Record<string, unknown>>, root?: string): string {
  switch (toolName) {
    case "Bash":
      return `Run: ${oneLine(input["command"] ?? "", 80)}`;
    case "Edit":
    case "MultiEdit":
    case "Write":
      return `${toolName} ${oneLine(pathOf(input, "file_path", root) ?? input["file_path"] ?? "", 80)}`;
    case "NotebookEdit":
      return `NotebookEdit ${oneLine(pathOf(input, "notebook_path", root) ?? input["notebook_path"] ?? "", 80)}`;
    case "WebFetch":
      return `WebFetch ${oneLine(input["url"] ?? "", 80)}`;
    case "Monitor": {
      const watched = str(input, "command") ?? socketUrl(input);
      return watched === undefined ? "Monitor" : `Monitor: ${oneLine(watched, 80)}`;
    }
    default: {
      // What the step line names it by ("Skill pdf", "Agent List project files"), when it names more than the tool.
      const { title } = describeTool(toolName, input);
      const name = toolDisplayName(toolName);
      return title === toolName ? name : `${name} ${oneLine(relativeToCwd(title, root), 80)}`;
    }
  }
}
