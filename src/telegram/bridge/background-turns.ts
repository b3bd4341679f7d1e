// Turns no run asked for (a job the CLI fired itself, a wake-up, a Monitor event, a background
// task that finished) shown in the chat as small runs of their own: a title saying who started
// the turn, its progress, and its answer. They have no Cancel button: they are nobody's run. What
// each cost is added to its day and chat, as a run's is.
import {
  definedFields,
  excerpt,
  laneId,
  localDay,
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
  /** The folder a lane works in (progress shows paths relative to it). */
  laneFolder: (lane: Lane) => string | undefined;
};

/** The latest task of a lane: what it does, and how it ended once it did. */
type TaskSeen = { description?: string; status?: string };

/** How a background task ended, as its turn's title says it ("completed" reads "finished"). */
function endedWord(status: string | undefined): string {
  if (status === undefined || status === "completed") return "finished";
  return status === "failed" ? "failed" : "stopped";
}

function titleHtml(origin: Exclude<TurnOrigin, "person">, task: TaskSeen | undefined): string {
  // A task's description can be long (a subagent's whole brief): the title stays a line.
  const about = task?.description === undefined ? "" : `: ${esc(excerpt(task.description, 200))}`;
  switch (origin) {
    case "schedule":
      return "⏰ <b>Scheduled</b>: a job Claude Code keeps itself fired";
    case "wakeup":
      return "⏰ <b>Wake-up</b>: Claude asked to be woken now";
    case "monitor":
      return `👁 <b>Monitor event</b>${about}`;
    case "subagent":
      return `🤖 <b>Background task ${endedWord(task?.status)}</b>${about}`;
  }
}

export class BackgroundTurns {
  readonly #deps: BackgroundDeps;
  readonly #open = new Map<string, Open>();
  /** The latest task seen per lane (what a Monitor watches, what a subagent did, how it ended). */
  readonly #lastTask = new Map<string, TaskSeen>();
  #count = 0;

  constructor(deps: BackgroundDeps) {
    this.#deps = deps;
  }

  /** Every event of a lane, a run's or not: what a Monitor watches is said while a run starts it. */
  learn(lane: Lane, event: TelecodeEvent): void {
    if (event.type === "task_changed") {
      const id = laneId(lane);
      // A task's end may not repeat what it was (a notification names only its id).
      const description = event.description ?? this.#lastTask.get(id)?.description;
      const status = event.phase === "finished" ? event.status : undefined;
      this.#lastTask.set(id, definedFields({ description, status }));
    }
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
    if (event.type === "turn_finished" && open.origin === "subagent" && isReportOnly(event)) {
      // Claude Code only reported a task's end (no model call): the title says it all.
      this.#open.delete(id);
      open.view.settle();
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
      start: { mode: this.#deps.runs.cliMode(lane) ?? "default", cwd: this.#deps.laneFolder(lane) ?? "" },
      titleHtml: titleHtml(origin, this.#lastTask.get(id)),
      // As a loop's: the answer quotes the title saying what started it, also when a person's
      // task answers beside it.
      quoteProgress: true,
      cancellable: false,
      onFinished: (completed) => this.#spent(lane, completed.costUsd),
    });
    this.#count += 1;
    const open: Open = { view, startedAtMs: this.#deps.clock.now(), sessionId, origin };
    this.#open.set(id, open);
    view.begin({ state: "started", runId: `turn-${this.#count}` });
  }

  /** What the turn cost counts in its day's and its chat's spending, as a run's does (/usage, [budget]). */
  #spent(lane: Lane, costUsd: number): void {
    if (costUsd <= 0) return;
    try {
      this.#deps.store.usage.add(localDay(new Date(this.#deps.clock.now())), costUsd, lane.chatId);
    } catch (error) {
      this.#deps.logger.event("telegram.turn_cost_failed", { err: error, chatId: lane.chatId }, "error");
    }
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

/**
 * A turn in which Claude Code called no model and said nothing: it only reported a background
 * task's end (a resumed session does so for a task its ended process left unfinished).
 */
function isReportOnly(turn: TurnFinished): boolean {
  return turn.ok && turn.numTurns === 0 && turn.answer === "";
}
