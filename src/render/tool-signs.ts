// How a tool call is named on screen, the same in Telegram and the terminal: a sign, the
// tool's name, and what it acts on ("✎ Write src/app.ts", "$ Bash npm test", "🔎 Grep useState"),
// and why one failed.
import { excerpt, excerptPath, isMcpTool, relativeToCwd, toolDisplayName, type ToolKind } from "../domain/index.js";
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
  TaskCreate: "☑",
  TaskUpdate: "☑",
  TaskGet: "☑",
  TaskList: "☑",
  Task: "🤖",
  Agent: "🤖",
  ExitPlanMode: "📋",
  AskUserQuestion: "❓",
  Skill: "✨",
  CronCreate: "⏰",
  CronDelete: "⏰",
  CronList: "⏰",
  ScheduleWakeup: "⏰",
  Monitor: "👁",
  ToolSearch: "🧰",
  EnterWorktree: "🌿",
  ExitWorktree: "🌿",
  SendMessage: "📨",
  PushNotification: "🔔",
  ReportFindings: "📝",
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
  if (isMcpTool(name)) return "🔌";
  return TOOL_SIGNS[name] ?? KIND_SIGNS[kind];
}

/** A title that is one path (no spaces, not a URL): cut in its middle, it keeps its file name. */
const PATH = /^(?![a-z][a-z0-9+.-]*:\/\/)[^\s]*\/[^\s]*$/i;

/**
 * "✎ Write src/app.ts": the sign, the name, and the title with paths under `cwd` made relative;
 * within `maxChars` when given, a title that is one path keeping its file name.
 */
export function toolLabel(name: string, kind: ToolKind, title: string, cwd?: string, maxChars?: number): string {
  const shown = relativeToCwd(title, cwd);
  const named = `${toolSign(name, kind)} ${toolDisplayName(name)}`;
  if (shown === name || shown === "") return maxChars === undefined ? named : excerpt(named, maxChars);
  if (maxChars === undefined) return `${named} ${shown}`;
  const room = maxChars - named.length - 1;
  if (room < 2) return excerpt(`${named} ${shown}`, maxChars);
  return `${named} ${PATH.test(shown) ? excerptPath(shown, room) : excerpt(shown, room)}`;
}

/**
 * Why a call failed, for the person: a refusal in a few words ("denied", "not allowed: nobody
 * was watching this run") rather than what the model was told; any other failure as it came,
 * paths under `cwd` made relative.
 */
export function whyItFailed(detail: string, cwd?: string): string {
  return refusalInWords(detail) ?? relativeToCwd(detail, cwd);
}
