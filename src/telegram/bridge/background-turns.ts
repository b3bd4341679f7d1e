// Turns no run asked for (a job the CLI fired itself, a wake-up, a Monitor event, a background
// task that finished) shown in the chat as small runs of their own: a title saying who started
// the turn, its progress, and its answer. They have no Cancel button: they are nobody's run.
import {
  excerpt,
  laneId,
  TURN_CUT_OFF_NOTE,
  type Lane,
  type TelecodeEvent,
  type TurnFinished,
  type TurnOrigin,
} from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { RunIndex } from "./run-index.js";
import { RunView, type RunViewDeps } from "./run-view.js";

type Open = { view: RunView; startedAtMs: number; sessionId: string; origin: Exclude<TurnOrigin, "person"> };

/** Said under a Monitor's turn cut off by its Claude Code ending: the watch ended with the process. */
const MONITOR_ENDED_HINT = "Its Monitor ended with it: ask Claude to watch again if you still need it.";

type BackgroundDeps = RunViewDeps & {
  runs: RunIndex<RunView>;
  /** A project's directory by name (progress shows paths relative to it). */
  projectPath: (project: string) => string | undefined;
};

function titleHtml(origin: Exclude<TurnOrigin, "person">, task: string | undefined): string {
  // A task's description can be long (a subagent's whole brief): the title stays a line.
  const about = task === undefined ? "" : `: ${esc(excerpt(task, 200))}`;
  switch (origin) {
    case "schedule":
      return "⏰ <b>Scheduled</b>: a job Claude Code keeps itself fired";
    case "wakeup":
      return "⏰ <b>Wake-up</b>: Claude asked to be woken now";
    case "monitor":
      return `👁 <b>Monitor event</b>${about}`;
    case "subagent":
      return `🤖 <b>Background task finished</b>${about}`;
  }
}

export class BackgroundTurns {
  readonly #deps: BackgroundDeps;
  readonly #open = new Map<string, Open>();
  /** The latest task description seen per lane (what a Monitor watches, what a subagent did). */
  readonly #lastTask = new Map<string, string>();
  #count = 0;

  constructor(deps: BackgroundDeps) {
    this.#deps = deps;
  }

  /** Every event of a lane, a run's or not: what a Monitor watches is said while a run starts it. */
  learn(lane: Lane, event: TelecodeEvent): void {
    if (event.type === "task_changed" && event.description !== undefined)
      this.#lastTask.set(laneId(lane), event.description);
    // Claude Code runs one turn at a time: a person's turn beginning means a turn left open is over.
    if (event.type === "turn_started" && (event.origin === "person" || event.runId !== undefined))
      this.#cutOff(laneId(lane));
  }

  /** Every event no run owns, in order. */
  observe(lane: Lane, event: TelecodeEvent): void {
    const id = laneId(lane);
    if (event.type === "turn_started" && event.origin !== "person" && event.runId === undefined) {
      this.#cutOff(id);
      this.#start(lane, event.origin, event.sessionId);
    }
    const open = this.#open.get(id);
    if (open === undefined) {
      this.#deps.runs.observe(lane, event);
      return;
    }
    open.view.onEvent(event);
    if (event.type === "turn_finished") {
      this.#open.delete(id);
      open.view.onEvent(this.#completion(open, event));
    } else if (event.type === "note" && event.key === TURN_CUT_OFF_NOTE)
      // Claude Code ended: a Monitor it ran ended with it.
      this.#cutOff(id, open.origin === "monitor" ? `${event.text} ${MONITOR_ENDED_HINT}` : event.text);
  }

  /**
   * A turn that will never finish (its process ended, or another turn began): shown as
   * interrupted, with `why` under it when known (the summary keeps no notes).
   */
  #cutOff(id: string, why?: string): void {
    const open = this.#open.get(id);
    if (open === undefined) return;
    this.#open.delete(id);
    open.view.onEvent({
      type: "run_completed",
      runId: open.view.runId ?? "",
      ok: false,
      answer: "",
      interrupted: true,
      cancelled: false,
      costUsd: 0,
      durationMs: this.#deps.clock.now() - open.startedAtMs,
      ...(why === undefined ? {} : { error: { reason: "exited", what: why, hint: "" } }),
      ...(open.sessionId === "" ? {} : { sessionId: open.sessionId }),
    });
  }

  #start(lane: Lane, origin: Exclude<TurnOrigin, "person">, sessionId: string): void {
    const id = laneId(lane);
    const view = new RunView(this.#deps, {
      chatId: lane.chatId,
      lane,
      promptMessageId: undefined,
      start: { mode: this.#deps.runs.cliMode(lane) ?? "default", cwd: this.#deps.projectPath(lane.project) ?? "" },
      titleHtml: titleHtml(origin, this.#lastTask.get(id)),
      cancellable: false,
    });
    this.#count += 1;
    const open: Open = { view, startedAtMs: this.#deps.clock.now(), sessionId, origin };
    this.#open.set(id, open);
    view.begin({ state: "started", runId: `turn-${this.#count}` });
  }

  #completion(open: Open, turn: TurnFinished): TelecodeEvent {
    return {
      type: "run_completed",
      runId: open.view.runId ?? "",
      ok: turn.ok,
      answer: turn.answer,
      interrupted: turn.interrupted,
      cancelled: false,
      costUsd: turn.costUsd,
      durationMs: this.#deps.clock.now() - open.startedAtMs,
      ...(turn.error === undefined ? {} : { error: turn.error }),
      ...(open.sessionId === "" ? {} : { sessionId: open.sessionId }),
    };
  }
}
