// Maps a tool call (its name and input) to Telecode's tool kind and a short title, as in
// DESIGN.md §3: the thing acted on, so a step reads "☑ TaskCreate Run the tests", not just the
// tool's name. Pure and engine-neutral: knows Claude Code's tool names and input fields (its
// sdk-tools.d.ts), nothing of the wire. Reads input defensively: a field missing or of another
// type falls back to the tool's name.
import type { ToolKind } from "./events.js";
import { excerpt, formatDurationMs } from "./text-format.js";

export type ToolDescription = { kind: ToolKind; title: string };

/** Titles longer than this are cut (a Bash heredoc can be kilobytes). */
export const TOOL_TITLE_MAX_CHARS = 300;

type Input = Readonly<Record<string, unknown>>;

/** The first of `keys` whose value is a string with text. */
function firstString(input: Input, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = input[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

function stringField(input: Input, ...keys: readonly string[]): string | undefined {
  return firstString(input, keys);
}

/** The subject of a task on the session's task list, by its id, when known. */
export type TaskSubjects = (taskId: string) => string | undefined;

/** What each known tool acts on, or undefined when its input does not say. */
type Titler = (input: Input, subjects: TaskSubjects) => string | undefined;

const field =
  (...keys: string[]): Titler =>
  (input) =>
    firstString(input, keys);

/** "Running the tests (2/5 done)": the item in progress, and how far the list is. */
function todosTitle(input: Input): string | undefined {
  const todos = input["todos"];
  if (!Array.isArray(todos)) return undefined;
  const items = todos.filter((t): t is Input => typeof t === "object" && t !== null);
  if (items.length === 0) return "clear todos";
  const done = items.filter((t) => t["status"] === "completed").length;
  const current = items.find((t) => t["status"] === "in_progress");
  const doing = current === undefined ? undefined : stringField(current, "activeForm", "content");
  const progress = `${done}/${items.length} done`;
  return doing === undefined ? progress : `${doing} (${progress})`;
}

/**
 * "Run the tests · in progress": a task by its subject (a new one, or the one the list knows),
 * with its new status; "#3 completed" when neither is known.
 */
function taskUpdateTitle(input: Input, subjects: TaskSubjects): string | undefined {
  const id = stringField(input, "taskId");
  if (id === undefined) return undefined;
  const subject = stringField(input, "subject") ?? subjects(id);
  const change = stringField(input, "status")?.replace("_", " ");
  if (subject === undefined) return change === undefined ? `#${id}` : `#${id} ${change}`;
  return change === undefined ? subject : `${subject} · ${change}`;
}

/** A task looked up: its subject when the list knows it, else "#3". */
function taskGetTitle(input: Input, subjects: TaskSubjects): string | undefined {
  const id = stringField(input, "taskId");
  return id === undefined ? undefined : (subjects(id) ?? `#${id}`);
}

/** "check the build · 0 9 * * 1-5", with "(once)" when it fires one time. */
function cronTitle(input: Input): string | undefined {
  const cron = stringField(input, "cron");
  const prompt = stringField(input, "prompt");
  if (cron === undefined || prompt === undefined) return cron ?? prompt;
  return `${prompt} · ${cron}${input["recurring"] === false ? " (once)" : ""}`;
}

/** "poll · in 1 min", or "stop" for the call that ends the wake-ups. */
function wakeUpTitle(input: Input): string | undefined {
  if (input["stop"] === true) return "stop";
  const why = stringField(input, "reason", "prompt");
  const delay = input["delaySeconds"];
  const when = typeof delay === "number" ? `in ${formatDurationMs(delay * 1000)}` : undefined;
  return why === undefined || when === undefined ? (why ?? when) : `${why} · ${when}`;
}

/** "select:CronCreate,CronList" (loading tools by name) reads "CronCreate, CronList". */
function toolSearchTitle(input: Input): string | undefined {
  const query = stringField(input, "query");
  return query?.startsWith("select:") ? query.slice("select:".length).split(",").join(", ") : query;
}

/** "useState in src", or the pattern alone. */
function patternTitle(input: Input): string | undefined {
  const pattern = stringField(input, "pattern");
  const path = stringField(input, "path");
  return pattern === undefined || path === undefined ? pattern : `${pattern} in ${path}`;
}

/** The question asked, or how many when there are several. */
function questionsTitle(input: Input): string | undefined {
  const questions = input["questions"];
  if (!Array.isArray(questions) || questions.length === 0) return undefined;
  const first: unknown = questions[0];
  if (questions.length > 1) return `${questions.length} questions`;
  return typeof first === "object" && first !== null ? stringField(first as Input, "question", "header") : undefined;
}

function findingsTitle(input: Input): string | undefined {
  const findings = input["findings"];
  if (!Array.isArray(findings)) return undefined;
  return `${findings.length} finding${findings.length === 1 ? "" : "s"}`;
}

const DESCRIBED: ReadonlyMap<string, { kind: ToolKind; title: Titler }> = new Map(
  Object.entries({
    Bash: { kind: "command", title: field("command") },
    Edit: { kind: "file_change", title: field("file_path", "path") },
    Write: { kind: "file_change", title: field("file_path", "path") },
    MultiEdit: { kind: "file_change", title: field("file_path", "path") },
    NotebookEdit: { kind: "file_change", title: field("notebook_path", "file_path", "path") },
    Read: { kind: "tool", title: field("file_path", "path") },
    Glob: { kind: "tool", title: patternTitle },
    Grep: { kind: "tool", title: patternTitle },
    WebSearch: { kind: "web", title: field("query") },
    WebFetch: { kind: "web", title: field("url") },
    TodoWrite: { kind: "note", title: todosTitle },
    TaskCreate: { kind: "note", title: field("subject", "description") },
    TaskUpdate: { kind: "note", title: taskUpdateTitle },
    TaskGet: { kind: "note", title: taskGetTitle },
    // The whole list: nothing to name, but a note like the calls that keep it.
    TaskList: { kind: "note", title: () => undefined },
    Task: { kind: "subagent", title: field("description", "subagent_type") },
    Agent: { kind: "subagent", title: field("description", "subagent_type") },
    TaskStop: { kind: "tool", title: field("task_id", "shell_id") },
    Monitor: { kind: "tool", title: field("description", "command") },
    CronCreate: { kind: "tool", title: cronTitle },
    CronDelete: { kind: "tool", title: field("id") },
    ScheduleWakeup: { kind: "tool", title: wakeUpTitle },
    ToolSearch: { kind: "tool", title: toolSearchTitle },
    Skill: { kind: "tool", title: field("skill", "command") },
    Workflow: { kind: "tool", title: field("title", "name", "description", "scriptPath") },
    EnterWorktree: { kind: "tool", title: field("name", "path") },
    ExitWorktree: { kind: "tool", title: field("action") },
    SendMessage: { kind: "tool", title: field("to", "recipient") },
    PushNotification: { kind: "tool", title: field("message") },
    RemoteTrigger: { kind: "tool", title: field("action") },
    ReportFindings: { kind: "tool", title: findingsTitle },
    ReadMcpResource: { kind: "tool", title: field("uri") },
    AskUserQuestion: { kind: "tool", title: questionsTitle },
  }),
);

/** Tools whose calls act on nothing to name: their steps read as the tool's name alone. */
const NOTHING_TO_NAME: ReadonlySet<string> = new Set(["CronList", "ListAgents", "EnterPlanMode", "ExitPlanMode"]);

/** Tools that keep the agent's plan: where the plan is shown, their calls need no line of their own. */
const CHECKLIST_TOOLS: ReadonlySet<string> = new Set(["TaskCreate", "TaskUpdate", "TaskList", "TaskGet", "TodoWrite"]);

export function keepsChecklist(name: string): boolean {
  return CHECKLIST_TOOLS.has(name);
}

/**
 * The name an MCP server's question (an elicitation: a form, or a link to open) is asked under
 * as a decision. It is no tool: no setting allows it unseen.
 */
export const ELICITATION_TOOL = "Elicitation";

/** An MCP server's tool: `mcp__<server>__<tool>`. */
const MCP_TOOL = /^mcp__(.+?)__(.+)$/;

export function isMcpTool(name: string): boolean {
  return MCP_TOOL.test(name);
}

/**
 * A tool's name as a person reads it: an MCP server's tool (`mcp__github__create_issue`) as
 * "github · create_issue"; Claude Code's own tools as they are.
 */
export function toolDisplayName(name: string): string {
  const mcp = MCP_TOOL.exec(name);
  return mcp === null ? name : `${mcp[1]} · ${mcp[2]}`;
}

/**
 * Whether Telecode knows this tool: what its calls act on, or that they act on nothing. Any
 * other tool (one a newer CLI added, an MCP server's) is titled by its name; the drift check
 * names the ones the CLI lists.
 */
export function knowsTool(name: string): boolean {
  return DESCRIBED.has(name) || NOTHING_TO_NAME.has(name);
}

const NO_SUBJECTS: TaskSubjects = () => undefined;

/**
 * The kind and title of a tool call. The title is the thing acted on (the command, the file
 * path, the pattern, the URL, the task, the schedule), falling back to the tool's name; at most
 * 300 characters. `subjects` names the tasks of the session's task list by their ids.
 */
export function describeTool(name: string, input: Input, subjects = NO_SUBJECTS): ToolDescription {
  const described = DESCRIBED.get(name);
  if (described === undefined) return { kind: "tool", title: name };
  return { kind: described.kind, title: excerpt(described.title(input, subjects) ?? name, TOOL_TITLE_MAX_CHARS) };
}
