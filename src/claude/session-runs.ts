// The runs of one session handle: at most one in flight, each completed exactly once (one
// run_completed), by the turn that answers it, its process's end, a cancel or the session's
// close; and what a kept run needs kept: where its lines begin, until its end is recorded.
import { randomUUID } from "node:crypto";
import type { TaskChanged, TelecodeEvent, TurnFinished } from "../domain/index.js";
import type { Clock } from "../ports/index.js";
import type { CliConnection } from "./connection.js";
import { ClaudeError } from "./errors.js";
import type { ModeRun } from "./process-mode.js";
import { runCompletedEvent, type CompletionFields } from "./run-outcome.js";
import type { KeptProcess, KeptRunPlace, StartRunOptions } from "./spec.js";

export type Run = ModeRun & { unattended: boolean; startedAt: number; cancelled: boolean; done: boolean };

export type SessionRunsDeps = {
  clock: Clock;
  emit(event: TelecodeEvent): void;
  sessionId(): string | undefined;
  /** A run was completed (its run_completed is out): the session may watch less and idle. */
  completed(): void;
};

export class SessionRuns {
  readonly #deps: SessionRunsDeps;
  #run: Run | undefined;
  /** The run that ran last: what it left running in the background (an agent, a Monitor) is its. */
  #last: Run | undefined;
  /** Each live task (a subagent, a background agent) and the run in flight when it started. */
  readonly #taskRuns = new Map<string, Run>();

  constructor(deps: SessionRunsDeps) {
    this.#deps = deps;
  }

  /** The run in flight, if any. */
  get current(): Run | undefined {
    return this.#run;
  }

  /** Where the run in flight began in its kept process (undefined when it runs in none). */
  get keptPlace(): KeptRunPlace | undefined {
    const run = this.#run;
    const keptId = run?.connection?.transport.keptId;
    return run === undefined || keptId === undefined ? undefined : { keptId, startSeq: run.startSeq };
  }

  /**
   * The run a request belongs to, as decisions see it: for one from inside a subagent
   * (`agentId`), the run in flight when that agent started, so a background agent of an
   * unattended run asks nobody and one of a person's run asks the person, whatever runs now.
   * Otherwise the run in flight; with none and `backgroundWork` (an agent or a Monitor still
   * running), the run that ran last.
   */
  info(backgroundWork = false, agentId?: string): { id: string; unattended: boolean } | undefined {
    const run =
      (agentId === undefined ? undefined : this.#taskRuns.get(agentId)) ??
      this.#run ??
      (backgroundWork ? this.#last : undefined);
    return run === undefined ? undefined : { id: run.id, unattended: run.unattended };
  }

  /** A task started or ended: which run started it is kept while it lives. */
  taskChanged(event: TaskChanged): void {
    if (event.phase === "finished") this.#taskRuns.delete(event.taskId);
    else if (!this.#taskRuns.has(event.taskId)) {
      const run = this.#run ?? this.#last;
      if (run !== undefined) this.#taskRuns.set(event.taskId, run);
    }
  }

  /** The process is gone, and every task it ran with it. */
  tasksGone(): void {
    this.#taskRuns.clear();
  }

  /** Starts a run; throws `claude.run_in_flight` while another is in flight. */
  begin(options: StartRunOptions): Run {
    if (this.#run !== undefined)
      throw new ClaudeError(
        "claude.run_in_flight",
        "A run is already in progress in this session; wait for it or cancel it first.",
        { details: { runId: this.#run.id } },
      );
    return this.#start({
      id: options.runId ?? randomUUID(),
      origin: options.origin ?? "person",
      unattended: options.unattended === true,
      startedAt: this.#deps.clock.now(),
      startSeq: 0,
    });
  }

  /** Takes over the run a kept process was running when Telecode stopped. */
  adopt(kept: KeptProcess["run"]): Run {
    return this.#start({
      id: kept.id,
      // Not recorded: its replayed turn is known as Telecode's by its uuid's mark, which answers the run either way.
      origin: "person",
      unattended: kept.unattended === true,
      startedAt: kept.startedAtMs,
      startSeq: kept.startSeq,
    });
  }

  /** Ends `run`, once: its run_completed goes out and it is no longer in flight. */
  complete(run: Run, fields: CompletionFields): void {
    if (run.done) return;
    run.done = true;
    run.cancelTimer?.cancel();
    if (this.#run === run) this.#run = undefined;
    this.#last = run;
    this.#deps.emit(runCompletedEvent(run, fields, this.#deps.clock.now(), this.#deps.sessionId()));
    this.#deps.completed();
  }

  /**
   * A turn ended: it completes the run its message started (the CLI names it by the uuid
   * Telecode wrote; a CLI without command_lifecycle lines names none, so a person's turn does).
   * Returns false when no run was in flight.
   */
  turnFinished(turn: TurnFinished): boolean {
    const run = this.#run;
    if (run === undefined) return false;
    const answersRun = turn.runId === undefined ? turn.origin === "person" : turn.runId === run.id;
    if (!run.done && answersRun) {
      const fields: CompletionFields = {
        ok: turn.ok,
        answer: turn.answer,
        interrupted: turn.interrupted,
        costUsd: turn.costUsd,
      };
      if (turn.error !== undefined) fields.error = turn.error;
      this.complete(run, fields);
    }
    return true;
  }

  /** Lets go of the run in flight without completing it (another Telecode carries on with it). */
  release(): Run | undefined {
    const run = this.#run;
    run?.cancelTimer?.cancel();
    this.#run = undefined;
    return run;
  }

  /** How far `connection`'s lines may be acknowledged when `seq` is asked: a run in flight there is replayed from its start after a restart. */
  ackLimit(seq: number, connection: CliConnection): number {
    const run = this.#run;
    const runStart = run !== undefined && run.connection === connection ? run.startSeq : connection.lastSeq;
    return Math.min(seq, connection.lastSeq, runStart);
  }

  #start(fields: Pick<Run, "id" | "origin" | "unattended" | "startedAt" | "startSeq">): Run {
    const run: Run = { ...fields, connection: undefined, cancelled: false, done: false, cancelTimer: undefined };
    this.#run = run;
    return run;
  }
}
