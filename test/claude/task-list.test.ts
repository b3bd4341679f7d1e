// Claude Code's task list as the translator keeps it, from the calls and results the CLI
// prints (the shapes recorded in test/golden/fixtures/*/v-task-list).
import { describe, expect, it } from "vitest";
import { createMemorySessionBook, createTranslator } from "../../src/claude/index.js";
import { TaskList } from "../../src/claude/task-list.js";
import type { TelecodeEvent } from "../../src/domain/index.js";
import { decodeLine } from "../../src/wire/index.js";
import { listFixtureVersions, stdoutLines } from "../wire/fixtures.js";

let calls = 0;
/** One call and its result; returns what the result meant. */
function call(
  list: TaskList,
  name: string,
  input: Record<string, unknown>,
  output?: unknown,
  text = "",
  isError = false,
) {
  const id = `toolu_${++calls}`;
  list.called(id, name, input);
  return list.resulted(id, isError, output, text);
}
const create = (list: TaskList, id: string, subject: string, activeForm?: string) =>
  call(
    list,
    "TaskCreate",
    { subject, description: subject, ...(activeForm === undefined ? {} : { activeForm }) },
    { task: { id, subject, description: subject } },
    `Task #${id} created successfully: ${subject}`,
  );
const update = (list: TaskList, input: Record<string, unknown>) =>
  call(list, "TaskUpdate", input, { success: true, taskId: input["taskId"], updatedFields: ["status"] });

describe("the task list", () => {
  it("adds created tasks, changes their status and subject, and deletes them", () => {
    const list = new TaskList();
    create(list, "1", "Read the code", "Reading the code");
    create(list, "2", "Run the tests", "Running the tests");
    expect(update(list, { taskId: "1", status: "in_progress" })?.items).toEqual([
      { id: "1", text: "Read the code", activeText: "Reading the code", status: "in_progress" },
      { id: "2", text: "Run the tests", activeText: "Running the tests", status: "pending" },
    ]);
    // What a task reads in progress goes with its subject: a new subject drops the old words.
    expect(update(list, { taskId: "2", subject: "Run the unit tests", status: "in_progress" })?.items?.[1]).toEqual({
      id: "2",
      text: "Run the unit tests",
      status: "in_progress",
    });
    expect(update(list, { taskId: "1", status: "deleted" })?.items).toEqual([
      { id: "2", text: "Run the unit tests", status: "in_progress" },
    ]);
    expect(list.subjectOf("2")).toBe("Run the unit tests");
    expect(list.subjectOf("1")).toBeUndefined();
  });

  it("says an update the CLI could not make failed, though the CLI does not flag it an error", () => {
    const list = new TaskList();
    create(list, "1", "Read the code");
    const outcome = call(
      list,
      "TaskUpdate",
      { taskId: "99", status: "completed" },
      { success: false, taskId: "99", updatedFields: [], error: "Task not found" },
      "Task not found",
    );
    expect(outcome).toEqual({ failure: "Task not found" });
    expect(list.open?.map((i) => i.id)).toEqual(["1"]);
  });

  it("changes nothing for a refused call, a result it never saw the call of, or an update to the same", () => {
    const list = new TaskList();
    expect(
      call(list, "TaskCreate", { subject: "A" }, undefined, "<tool_use_error>No such tool</tool_use_error>", true),
    ).toBeUndefined();
    expect(list.resulted("toolu_unknown", false, { task: { id: "1", subject: "A" } }, "")).toBeUndefined();
    create(list, "1", "A");
    expect(update(list, { taskId: "1", status: "pending" })).toEqual({});
    expect(call(list, "Bash", { command: "ls" }, { stdout: "" }, "")).toBeUndefined();
  });

  it("reads the id from the result's words when the CLI gives no structured result", () => {
    const list = new TaskList();
    expect(
      call(list, "TaskCreate", { subject: "Write the docs" }, undefined, "Task #7 created successfully: Write the docs")
        ?.items,
    ).toEqual([{ id: "7", text: "Write the docs", status: "pending" }]);
  });

  it("learns a task made before this process when an update names it, and skips one it cannot name", () => {
    const list = new TaskList();
    expect(update(list, { taskId: "4", status: "completed" })).toEqual({});
    expect(update(list, { taskId: "4", subject: "Ship it", status: "in_progress" })?.items).toEqual([
      { id: "4", text: "Ship it", status: "in_progress" },
    ]);
  });

  it("takes TaskList's result as the whole list, keeping what a task reads in progress", () => {
    const list = new TaskList();
    create(list, "1", "Read the code", "Reading the code");
    const listed = call(
      list,
      "TaskList",
      {},
      {
        tasks: [
          { id: "1", subject: "Read the code", status: "in_progress", blockedBy: [] },
          { id: "2", subject: "Made elsewhere", status: "pending", blockedBy: [] },
          { id: "3", status: "pending" },
        ],
      },
    );
    expect(listed?.items).toEqual([
      { id: "1", text: "Read the code", activeText: "Reading the code", status: "in_progress" },
      { id: "2", text: "Made elsewhere", status: "pending" },
    ]);
  });

  it("takes TodoWrite's input as the whole list, once the CLI took it", () => {
    const list = new TaskList();
    const todos = [
      { content: "Read the code", status: "completed", activeForm: "Reading the code" },
      { content: "Run the tests", status: "in_progress", activeForm: "Running the tests" },
      { content: "", status: "pending" },
      { content: "Fix the bug", status: "later" },
    ];
    expect(call(list, "TodoWrite", { todos }, {}, "Todos have been modified successfully.")?.items).toEqual([
      { text: "Read the code", activeText: "Reading the code", status: "completed" },
      { text: "Run the tests", activeText: "Running the tests", status: "in_progress" },
      { text: "Fix the bug", status: "pending" },
    ]);
  });

  it("is open while anything is left to do, so a new turn shows it", () => {
    const list = new TaskList();
    expect(list.open).toBeUndefined();
    create(list, "1", "A");
    expect(list.open).toHaveLength(1);
    update(list, { taskId: "1", status: "completed" });
    expect(list.open).toBeUndefined();
  });

  it("forgets the oldest calls that never got a result", () => {
    const list = new TaskList();
    list.called("first", "TaskCreate", { subject: "Lost" });
    for (let i = 0; i < 100; i++) list.called(`later_${i}`, "TaskCreate", { subject: "x" });
    expect(list.resulted("first", false, { task: { id: "1", subject: "Lost" } }, "")).toBeUndefined();
    expect(list.resulted("later_99", false, { task: { id: "2", subject: "x" } }, "")?.items).toHaveLength(1);
  });
});

describe("the plan of a resumed session", () => {
  const translate = (book: ReturnType<typeof createMemorySessionBook>, lines: string[]): TelecodeEvent[] => {
    const translator = createTranslator({ book });
    return lines.flatMap((line) => translator.push(decodeLine(line)));
  };

  it.each(listFixtureVersions())("is shown from the first turn of the new process (recorded, %s)", (version) => {
    const book = createMemorySessionBook();
    // run0 makes the plan; the process ends; main resumes the session in a new one.
    translate(book, stdoutLines("v2-task-list-resume.run0", version));
    const events = translate(book, stdoutLines("v2-task-list-resume", version));
    const types = events.map((e) => e.type);
    expect(types.slice(types.indexOf("turn_started"), types.indexOf("turn_started") + 2)).toEqual([
      "turn_started",
      "checklist",
    ]);
    const plans = events.flatMap((e) => (e.type === "checklist" ? [e.items.map((i) => `${i.status} ${i.text}`)] : []));
    expect(plans).toEqual([
      ["completed Read the code", "pending Run the tests"],
      ["completed Read the code", "in_progress Run the tests"],
      ["completed Read the code", "completed Run the tests"],
    ]);
    // TaskList found the list as recalled: no event of its own; the update names its task.
    const titles = events.flatMap((e) => (e.type === "tool_started" ? [e.title] : []));
    expect(titles).toEqual(["TaskList", "Run the tests · in progress", "Run the tests · completed"]);
  });

  it("is the main thread's: a subagent's task calls stay steps of their own", () => {
    const translator = createTranslator();
    const lines = [
      JSON.stringify({ type: "system", subtype: "init", session_id: "s", tools: [] }),
      JSON.stringify({
        type: "assistant",
        message: { content: [{ type: "tool_use", id: "sub_1", name: "TaskCreate", input: { subject: "Inner" } }] },
        parent_tool_use_id: "agent_1",
      }),
      JSON.stringify({
        type: "user",
        message: {
          role: "user",
          content: [{ type: "tool_result", tool_use_id: "sub_1", content: "Task #1 created successfully: Inner" }],
        },
        tool_use_result: { task: { id: "1", subject: "Inner" } },
        parent_tool_use_id: "agent_1",
      }),
    ];
    const events = lines.flatMap((line) => translator.push(decodeLine(line)));
    expect(events.filter((e) => e.type === "checklist")).toEqual([]);
    expect(events.filter((e) => e.type === "tool_finished").map((e) => e.ok)).toEqual([true]);
  });

  it("is asked of the book once per process, at its first turn", () => {
    const book = createMemorySessionBook();
    let asked = 0;
    const translator = createTranslator({ book: { ...book, planOf: (id) => (asked++, book.planOf(id)) } });
    const init = JSON.stringify({ type: "system", subtype: "init", session_id: "s", tools: [] });
    const result = JSON.stringify({ type: "result", subtype: "success", is_error: false, session_id: "s" });
    for (const line of [init, result, init, result]) translator.push(decodeLine(line));
    expect(asked).toBe(1);
  });
});
