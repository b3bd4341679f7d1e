// Turns the CLI's background-task lines (system/task_started, task_progress, task_updated,
// task_notification) into task_changed events: one "finished" per task, whichever line says
// so first, with what task_started told filled in. Bounded memory; no I/O.
import type { TaskChanged } from "../domain/index.js";
import type { WireSystemMessage } from "../wire/index.js";

const TASK_END_STATUSES: ReadonlySet<string> = new Set(["completed", "failed", "killed", "stopped", "cancelled"]);
/** Tasks remembered at most; a session never has nearly this many at once. */
const MAX_TRACKED_TASKS = 10_000;

type TaskInfo = { toolUseId?: string; taskType?: string; backgrounded?: boolean };

export class TaskTracker {
  readonly #live = new Map<string, TaskInfo>();
  readonly #finished = new Set<string>();

  /** The event for one task_* system line, or undefined (no task id, or already finished). */
  onTaskMessage(m: WireSystemMessage): TaskChanged | undefined {
    const taskId = m["task_id"];
    if (typeof taskId !== "string") return undefined;
    let phase: TaskChanged["phase"];
    let status = typeof m["status"] === "string" ? m["status"] : undefined;
    let backgrounded = typeof m["is_backgrounded"] === "boolean" ? m["is_backgrounded"] : undefined;
    if (m.subtype === "task_started") phase = "started";
    else if (m.subtype === "task_progress") phase = "updated";
    else if (m.subtype === "task_notification") phase = "finished";
    else {
      const patch = m["patch"];
      const patchStatus =
        typeof patch === "object" && patch !== null ? (patch as Record<string, unknown>)["status"] : undefined;
      if (typeof patchStatus === "string") status = patchStatus;
      // A task moved to the background later says so in the patch.
      const patchBackgrounded =
        typeof patch === "object" && patch !== null ? (patch as Record<string, unknown>)["is_backgrounded"] : undefined;
      if (typeof patchBackgrounded === "boolean") backgrounded = patchBackgrounded;
      phase = status !== undefined && TASK_END_STATUSES.has(status) ? "finished" : "updated";
    }
    if (phase === "finished") {
      if (this.#finished.has(taskId)) return undefined;
      if (this.#finished.size >= MAX_TRACKED_TASKS) this.#finished.clear();
      this.#finished.add(taskId);
    }
    // task_updated carries only a patch: fill in what task_started said about the task.
    const known = this.#live.get(taskId);
    const event: TaskChanged = { type: "task_changed", taskId, phase };
    const toolUseId = typeof m["tool_use_id"] === "string" ? m["tool_use_id"] : known?.toolUseId;
    if (toolUseId !== undefined) event.toolUseId = toolUseId;
    const taskType = typeof m["task_type"] === "string" ? m["task_type"] : known?.taskType;
    if (taskType !== undefined) event.taskType = taskType;
    const description = m["description"];
    if (typeof description === "string" && description !== "") event.description = description;
    if (status !== undefined) event.status = status;
    backgrounded ??= known?.backgrounded;
    if (backgrounded !== undefined) event.backgrounded = backgrounded;
    if (phase === "finished") this.#live.delete(taskId);
    else if (known !== undefined) {
      if (backgrounded !== undefined) known.backgrounded = backgrounded;
    } else if (this.#live.size < MAX_TRACKED_TASKS) {
      const info: TaskInfo = {};
      if (toolUseId !== undefined) info.toolUseId = toolUseId;
      if (taskType !== undefined) info.taskType = taskType;
      if (backgrounded !== undefined) info.backgrounded = backgrounded;
      this.#live.set(taskId, info);
    }
    return event;
  }
}
