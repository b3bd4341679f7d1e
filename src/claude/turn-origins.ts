// Who started each turn: the message Telecode wrote (its uuid comes back as command_lifecycle's
// command_uuid), a cron or wake-up fire (a command Telecode did not write), a Monitor event or a
// finished background task (no command at all). PROTOCOL.md, "Scheduling and turns the CLI starts itself".
import type { TaskChanged, TelecodeEvent, TurnOrigin } from "../domain/index.js";
import type { WireCommandLifecycle, WireResultMessage } from "../wire/index.js";

/** What Telecode wrote a message for: whose turn it starts, the run it belongs to, and the uuid it carried. */
export type CommandInfo = Readonly<{ origin: TurnOrigin; runId?: string; uuid?: string }>;

/**
 * The commands Telecode wrote, by the uuid on their user line. Given in a live session; a replay
 * has none, and reads a command without a wake-up source as the recording's own message.
 */
export type CommandLookup = (commandUuid: string) => CommandInfo | undefined;

/** Tasks and tool calls remembered at most (a session never has nearly this many at once). */
const MAX_TRACKED = 1_000;

const PERSON: CommandInfo = Object.freeze({ origin: "person" });

export class TurnOrigins {
  readonly #lookup: CommandLookup | undefined;
  /** The command the CLI said it started, not yet claimed by a turn. */
  #started: { uuid: string; wakeupSource: string | undefined } | undefined;
  /** The CLI reported a command Telecode wrote: it reports every one, so a turn without one is its own. */
  #ownCommandsReported = false;
  readonly #monitorCalls = new Set<string>();
  readonly #liveMonitors = new Set<string>();
  /** A background task ended since the last result: the next turn reports it. */
  #finishedSinceResult: "monitor" | "subagent" | undefined;

  constructor(lookup: CommandLookup | undefined) {
    this.#lookup = lookup;
  }

  lifecycle(m: WireCommandLifecycle): void {
    if (this.#lookup?.(m.command_uuid) !== undefined) this.#ownCommandsReported = true;
    if (m.state === "started") this.#started = { uuid: m.command_uuid, wakeupSource: m.wakeup_source };
  }

  /** Keeps track of Monitor calls and the background tasks they start. */
  observe(event: TelecodeEvent, turnOpen: boolean): void {
    if (event.type === "tool_started" && event.name === "Monitor") remember(this.#monitorCalls, event.toolUseId);
    if (event.type === "task_changed") this.#task(event, turnOpen);
  }

  /** The origin (and run) of a turn starting now. */
  startTurn(): CommandInfo {
    const started = this.#started;
    this.#started = undefined;
    if (started !== undefined) {
      const own = this.#lookup?.(started.uuid);
      if (own !== undefined) return own;
      if (started.wakeupSource === "loop_wakeup") return { origin: "wakeup" };
      if (started.wakeupSource !== undefined || this.#lookup !== undefined) return { origin: "schedule" };
      return PERSON;
    }
    if (this.#finishedSinceResult !== undefined) return { origin: this.#finishedSinceResult };
    // Live, a turn without a command is never a message Telecode wrote; a replay can only guess.
    const selfStarted = this.#lookup === undefined ? this.#liveMonitors.size > 0 : this.#ownCommandsReported;
    if (!selfStarted) return PERSON;
    return { origin: this.#liveMonitors.size > 0 ? "monitor" : "subagent" };
  }

  /** The origin a turn finishes with: a result the CLI marks as a task notification is never a person's. */
  finishTurn(result: WireResultMessage, started: CommandInfo): TurnOrigin {
    const kind = result.origin?.kind;
    this.#finishedSinceResult = undefined;
    if (started.origin !== "person" || started.runId !== undefined) return started.origin;
    if (kind === "task-notification") return this.#liveMonitors.size > 0 ? "monitor" : "subagent";
    return typeof kind === "string" && kind !== "" ? "subagent" : "person";
  }

  #task(event: TaskChanged, turnOpen: boolean): void {
    const monitor = event.toolUseId !== undefined && this.#monitorCalls.has(event.toolUseId);
    if (event.phase !== "finished") {
      if (monitor) remember(this.#liveMonitors, event.taskId);
      return;
    }
    this.#liveMonitors.delete(event.taskId);
    // A task that ends between turns starts the next turn by itself (p2, u12).
    if (!turnOpen) this.#finishedSinceResult = monitor ? "monitor" : "subagent";
  }
}

function remember(set: Set<string>, id: string): void {
  if (set.size >= MAX_TRACKED) set.clear();
  set.add(id);
}
