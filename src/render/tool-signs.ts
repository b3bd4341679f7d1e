// How a tool call is named on screen, the same in Telegram and the terminal: a sign, the
// tool's name, and what it acts on ("✎ Write src/app.ts", "$ Bash npm test", "🔎 Grep useState"),
// and why one failed.
import { excerpt, excerptPath, relativeToCwd, type ToolKind } from "../domain/index.js";
import { refusalInWords } from "../policy/index.js";

const TOOL_SIGNS: Readonly<Record<string, string>> = {
  Bash: "$",
  BashOutput: "$",
  KillShell: "$",
  Edit: "✎",
  MultiEdit: "✎",
  Write: "✎",
  NotebookEdit: "✎",
  Read: "📖",
  Grep: "🔎",
  Glob: "🔎",
  WebSearch: "🌐",
  WebFetch: "🌐",
  TodoWrite: "☑",
  Task: "🤖",
  Agent: "🤖",
  ExitPlanMode: "📋",
  AskUserQuestion: "❓",
  Skill: "✨",
};

const KIND_SIGNS: Readonly<Record<ToolKind, string>> = {
  command: "$",
  file_change: "✎",
  tool: "🔧",
  web: "🌐",
  note: "☑",
  subagent: "🤖",
};

export function toolSign(name: string, kind: ToolKind): string {
  return TOOL_SIGNS[name] ?? KIND_SIGNS[kind];
}

/**
 * "✎ Write src/app.ts": the sign, the name, and the title with paths under `cwd` made relative.
 * Within `maxChars`, a title that is one path keeps its file name, cut in its middle.
 */
export function toolLabel(name: string, kind: ToolKind, title: string, cwd?: string, maxChars?: number): string {
  const shown = relativeToCwd(title, cwd);
  const named = `${toolSign(name, kind)} ${name}`;
  if (shown === name || shown === "") return named;
  if (maxChars === undefined) return `${named} ${shown}`;
  const room = Math.max(1, maxChars - named.length - 1);
  return `${named} ${/^[^\s]*\/[^\s]*$/.test(shown) ? excerptPath(shown, room) : excerpt(shown, room)}`;
}

/**
 * Why a call failed, for the person: a refusal in a few words ("denied", "not allowed: nobody
 * was watching this run") rather than what the model was told; any other failure as it came,
 * paths under `cwd` made relative.
 */
export function whyItFailed(detail: string, cwd?: string): string {
  return refusalInWords(detail) ?? relativeToCwd(detail, cwd);
}
