// A session's watchdogs: what is running (open tools, live background tasks) for the stall
// note, the silence watch (stall note, hard ceiling) and the idle timer, which does not wait
// once the process has lived through a sleep of the computer or a change of its network. It
// decides nothing about processes or runs: the session says when to watch and what to do when a
// timer fires.
import { excerpt, toolDisplayName } from "../domain/index.js";
import type { TaskChanged, TelecodeEvent, ToolStarted } from "../domain/index.js";
import type { Clock, TimerHandle, Wake, WakeWatch } from "../ports/index.js";
import { stallNoteText } from "./run-outcome.js";
import { SilenceWatch } from "./silence-watch.js";

/** The stall threshold is this many times longer while a tool (Bash, a subagent) runs. */
const TOOL_STALL_FACTOR = 3;

/** What the current process lived through that most likely took its connections to the API. */
export type Outlived = Readonly<{ sleptMs: number; networkChanged: boolean }>;

export type SessionWatchdogsOptions = {
  clock: Clock;
  /** Tells when the computer woke from a sleep or changed network: a process that lived through one idles out at once. */
  wakes?: WakeWatch | undefined;
  /** Whether the session has a process now (one started after a wake did not live through it). */
  hasProcess?: () => boolean;
  stallNoteMs: number;
  hardSilenceMs: number;
  /** The CLI waits for an answer of ours (an approval, a question, a hook): it is not stalled. */
  isAwaitingAnswer(): boolean;
  onStallNote(note: TelecodeEvent): void;
  onHardSilence(silentMs: number): void;
};

export class SessionWatchdogs {
  readonly #clock: Clock;
  readonly #watch: SilenceWatch;
  /** What is running, by id; worded only when a stall note names it (most never are). */
  readonly #openTools = new Map<string, ToolStarted>();
  readonly #liveTasks = new Map<string, TaskChanged>();
  /** Tasks running in the background (a Monitor, a background agent or shell command). */
  readonly #backgroundTasks = new Set<string>();
  #idleTimer: TimerHandle | undefined;
  /** What the idle timer armed calls; undefined while none is armed. */
  #onIdle: ((outlived?: Outlived) => void) | undefined;
  /** The sleeps and network changes the current process lived through; undefined when none. */
  #outlived: Outlived | undefined;
  readonly #stopHearingWakes: (() => void) | undefined;

  constructor(options: SessionWatchdogsOptions) {
    this.#clock = options.clock;
    this.#stopHearingWakes = options.wakes?.onWake((wake: Wake) => {
      if (options.hasProcess?.() === false) return;
      this.#outlived = {
        sleptMs: (this.#outlived?.sleptMs ?? 0) + wake.sleptMs,
        networkChanged: (this.#outlived?.networkChanged ?? false) || wake.networkChanged,
      };
      if (this.#onIdle !== undefined) this.#armIdle(0);
    });
    this.#watch = new SilenceWatch({
      clock: options.clock,
      stallNoteMs: options.stallNoteMs,
      hardSilenceMs: options.hardSilenceMs,
      toolFactor: TOOL_STALL_FACTOR,
      isToolRunning: () => this.#openTools.size > 0 || this.#liveTasks.size > 0,
      isAwaitingAnswer: () => options.isAwaitingAnswer(),
      onStall: (silentMs) => options.onStallNote(this.#stallNote(silentMs)),
      onHardSilence: (silentMs) => options.onHardSilence(silentMs),
    });
  }

  /** A background task (a Monitor, a background agent or shell command) is still running. */
  get hasLiveTasks(): boolean {
    return this.#backgroundTasks.size > 0;
  }

  /** Stdout arrived (per line; the watch reads the clock once for the lines of one read). */
  activity(): void {
    this.#watch.activity();
  }

  /** Starts the silence watch (a run or turn is in flight). Idempotent. */
  start(): void {
    this.#watch.start();
  }

  /** Between turns: a silence check still pending lapses (or serves the next turn). */
  stop(): void {
    this.#watch.stop();
  }

  /** The session ended: every timer is cancelled. */
  dispose(): void {
    this.#watch.dispose();
    this.cancelIdle();
    this.#stopHearingWakes?.();
  }

  setPaused(paused: boolean): void {
    this.#watch.setPaused(paused);
  }

  /** Keeps track of what is running from each emitted event. */
  observe(event: TelecodeEvent): void {
    switch (event.type) {
      case "turn_started":
        this.#watch.start();
        break;
      case "tool_started":
        this.#openTools.set(event.toolUseId, event);
        break;
      case "tool_finished":
        this.#openTools.delete(event.toolUseId);
        break;
      case "task_changed":
        // A live background task (a subagent, a long Bash) makes long silences normal.
        if (event.phase === "finished") {
          this.#liveTasks.delete(event.taskId);
          this.#backgroundTasks.delete(event.taskId);
        } else {
          if (event.backgrounded === true) this.#backgroundTasks.add(event.taskId);
          this.#liveTasks.set(event.taskId, event);
        }
        break;
      case "turn_finished":
        this.#openTools.clear();
        break;
      default:
        break;
    }
  }

  /** The process is gone: nothing it started is running any more. */
  processGone(): void {
    this.#outlived = undefined;
    this.#openTools.clear();
    this.#liveTasks.clear();
    this.#backgroundTasks.clear();
  }

  /**
   * (Re)arms the idle timer; `onIdle` decides whether the session is really idle. Once the
   * process has lived through a sleep of the computer or a change of its network (now, or during
   * its run), it is called at once, with what: the process's connections to the API most likely
   * went with it, and the next message is better sent to a new one.
   */
  scheduleIdle(idleMs: number, onIdle: (outlived?: Outlived) => void): void {
    this.#onIdle = onIdle;
    this.#armIdle(this.#outlived === undefined ? idleMs : 0);
  }

  cancelIdle(): void {
    this.#idleTimer?.cancel();
    this.#onIdle = undefined;
  }

  #armIdle(ms: number): void {
    this.#idleTimer?.cancel();
    this.#idleTimer = this.#clock.setTimer(ms, () => {
      const onIdle = this.#onIdle;
      this.#onIdle = undefined;
      onIdle?.(this.#outlived);
    });
  }

  #stallNote(silentMs: number): TelecodeEvent {
    return {
      type: "note",
      kind: "stall",
      key: "stall",
      text: stallNoteText(silentMs, [
        ...Array.from(this.#openTools.values(), toolLabel),
        ...Array.from(this.#liveTasks.values(), taskLabel),
      ]),
    };
  }
}

function toolLabel(tool: ToolStarted): string {
  const name = toolDisplayName(tool.name);
  if (tool.title === tool.name) return name;
  const title = excerpt(tool.title, 80);
  return tool.kind === "command" ? `${name} \`${title}\`` : `${name} ${title}`;
}

function taskLabel(task: TaskChanged): string {
  return `background task ${excerpt(task.description ?? task.taskType ?? task.taskId, 80)}`;
}
