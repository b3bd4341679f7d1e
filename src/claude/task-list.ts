// Claude Code's plan for the session as its tool calls build it: TaskCreate adds a task (its
// result gives the id), TaskUpdate changes or deletes one, TaskList's result is the whole list,
// and TodoWrite (the older todo list, still offered to some models) sends the whole list as its
// input. The translator turns each change into a `checklist` event, and names a task by its
// subject in the steps that act on it. One per session process.
import { checklistStatus as status, type ChecklistItem } from "../domain/index.js";

type Input = Readonly<Record<string, unknown>>;
type Status = ChecklistItem["status"];

/** The tools whose results change the list. */
const LIST_TOOLS: ReadonlySet<string> = new Set(["TaskCreate", "TaskUpdate", "TaskList", "TodoWrite"]);
/** Calls remembered for their results; a result never comes for some (an interrupted turn). */
const MAX_PENDING_CALLS = 100;

const record = (value: unknown): Input | undefined =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Input) : undefined;
const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

/**
 * An item with only the fields that have a value. Written as literals, not as spreads of
 * optional parts: on Node 20 a literal that starts with a spread costs ~1 µs where this costs
 * ~30 ns, and task-list lines are among the stream's costliest to translate.
 */
function item(
  id: string | undefined,
  itemText: string,
  activeText: string | undefined,
  itemStatus: Status,
): ChecklistItem {
  if (id === undefined)
    return activeText === undefined
      ? { text: itemText, status: itemStatus }
      : { text: itemText, activeText, status: itemStatus };
  return activeText === undefined
    ? { id, text: itemText, status: itemStatus }
    : { id, text: itemText, activeText, status: itemStatus };
}

const sameItem = (a: ChecklistItem, b: ChecklistItem): boolean =>
  a.id === b.id && a.text === b.text && a.activeText === b.activeText && a.status === b.status;

/** What a list tool's result meant: the list, when it changed; a failure its output reports. */
export type TaskListOutcome = { items?: readonly ChecklistItem[]; failure?: string };

export class TaskList {
  #items: readonly ChecklistItem[] = [];
  readonly #calls = new Map<string, { name: string; input: Input }>();
  /** Whether the list is known (recalled or seen) in this process: it is recalled at most once. */
  #known = false;
  #changed = false;

  /**
   * The list as the session left it in an earlier process (the CLI keeps it across a resume),
   * asked for once, and only while this process has seen none.
   */
  recall(recalled: () => readonly ChecklistItem[] | undefined): void {
    if (this.#known) return;
    this.#known = true;
    this.#items = recalled() ?? [];
  }

  /** The list, when it changed since the last call. */
  takeChanged(): readonly ChecklistItem[] | undefined {
    if (!this.#changed) return undefined;
    this.#changed = false;
    return this.#items;
  }

  /** The subject of task `id`, when the list knows it. */
  readonly subjectOf = (id: string): string | undefined => this.#items.find((i) => i.id === id)?.text;

  /** The list while any of it is still to do (for a turn that starts), else undefined. */
  get open(): readonly ChecklistItem[] | undefined {
    return this.#items.some((i) => i.status !== "completed") ? this.#items : undefined;
  }

  /** A tool call: a list tool's input is kept for its result. */
  called(toolUseId: string, name: string, input: Input): void {
    if (!LIST_TOOLS.has(name)) return;
    if (this.#calls.size >= MAX_PENDING_CALLS) {
      const oldest = this.#calls.keys().next();
      if (oldest.done !== true) this.#calls.delete(oldest.value);
    }
    this.#calls.set(toolUseId, { name, input });
  }

  /**
   * A tool's result: `output` is the CLI's structured result (the line's tool_use_result),
   * `resultText` the text Claude read. A refused or failed call changes nothing.
   */
  resulted(toolUseId: string, isError: boolean, output: unknown, resultText: string): TaskListOutcome | undefined {
    const call = this.#calls.get(toolUseId);
    if (call === undefined) return undefined;
    this.#calls.delete(toolUseId);
    if (isError) return undefined;
    const out = record(output);
    switch (call.name) {
      case "TaskCreate":
        return this.#set(this.#created(call.input, out, resultText));
      case "TaskUpdate":
        // An unknown id is no error to the CLI: its output says so, beside a result that is not one.
        if (out?.["success"] === false) return { failure: text(out["error"]) ?? resultText };
        return this.#set(this.#updated(call.input));
      case "TaskList":
        return this.#set(this.#listed(out));
      default:
        return this.#set(todos(call.input));
    }
  }

  #created(input: Input, out: Input | undefined, resultText: string): readonly ChecklistItem[] | undefined {
    const task = record(out?.["task"]);
    const id = text(task?.["id"]) ?? /^Task #(\S+) created/.exec(resultText)?.[1];
    const subject = text(task?.["subject"]) ?? text(input["subject"]);
    if (id === undefined || subject === undefined) return undefined;
    return [...this.#items.filter((i) => i.id !== id), item(id, subject, text(input["activeForm"]), "pending")];
  }

  #updated(input: Input): readonly ChecklistItem[] | undefined {
    const id = text(input["taskId"]);
    if (id === undefined) return undefined;
    if (input["status"] === "deleted") return this.#items.filter((i) => i.id !== id);
    const known = this.#items.find((i) => i.id === id);
    const subject = text(input["subject"]) ?? known?.text;
    // A task made before this process (a resumed session) is added once its update names it.
    if (subject === undefined) return undefined;
    // What it reads while in progress goes with the subject it was given for.
    const renamed = subject !== known?.text;
    const next = item(
      id,
      subject,
      text(input["activeForm"]) ?? (renamed ? undefined : known?.activeText),
      status(input["status"]) ?? known?.status ?? "pending",
    );
    return known === undefined ? [...this.#items, next] : this.#items.map((i) => (i === known ? next : i));
  }

  #listed(out: Input | undefined): readonly ChecklistItem[] | undefined {
    const tasks = out?.["tasks"];
    if (!Array.isArray(tasks)) return undefined;
    const items: ChecklistItem[] = [];
    for (const entry of tasks) {
      const task = record(entry);
      const id = text(task?.["id"]);
      const subject = text(task?.["subject"]);
      if (id === undefined || subject === undefined) continue;
      const known = this.#items.find((i) => i.id === id);
      const activeText = known?.text === subject ? known.activeText : undefined;
      items.push(item(id, subject, activeText, status(task?.["status"]) ?? "pending"));
    }
    return items;
  }

  /** Takes `items` as the list; the outcome carries them only when they differ from it. */
  #set(items: readonly ChecklistItem[] | undefined): TaskListOutcome {
    if (items === undefined) return {};
    const same = items.length === this.#items.length && items.every((i, n) => sameItem(i, this.#items[n]!));
    if (same) return {};
    this.#items = items;
    this.#known = true;
    this.#changed = true;
    return { items };
  }
}

/** TodoWrite's input: the whole list, without ids. */
function todos(input: Input): readonly ChecklistItem[] | undefined {
  const list = input["todos"];
  if (!Array.isArray(list)) return undefined;
  const items: ChecklistItem[] = [];
  for (const entry of list) {
    const todo = record(entry);
    const content = text(todo?.["content"]);
    if (content !== undefined)
      items.push(item(undefined, content, text(todo?.["activeForm"]), status(todo?.["status"]) ?? "pending"));
  }
  return items;
}
