// One session's live handle: one process at a time (respawned with --resume, through the
// process mode), one run at a time (session-runs.ts: each ends with exactly one run_completed),
// cancel, watchdogs and idle close. Approvals go to the controller; the per-process pipeline is
// connection.ts. A kept process may be adopted after a restart, or let go of (detach) for the next Telecode.
import {
  failureText,
  type McpSignInEnd,
  type McpSignInStart,
  type Prompt,
  type SideAnswer,
  type SideExchange,
  type TelecodeEvent,
  type TurnFinished,
} from "../domain/index.js";
import type { Clock, Logger, WakeWatch } from "../ports/index.js";
import type { CliConnection, ConnectionOwner } from "./connection.js";
import type { ControlChannel } from "./control-channel.js";
import { ClaudeError } from "./errors.js";
import { beginMcpSignIn, finishMcpSignIn } from "./mcp-sign-in.js";
import { askSideQuestion } from "./side-question.js";
import { HandleEvents } from "./handle-events.js";
import { denyForSessionEnd, handleControlRequest, type IncomingContext } from "./incoming-requests.js";
import { engineFailure, failureOf } from "./failures.js";
import { controlMode, printMode, type ModeHost, type ProcessMode } from "./process-mode.js";
import { settleClosedConnection } from "./process-closed.js";
import { SessionRuns } from "./session-runs.js";
import { SessionWatchdogs } from "./session-watchdogs.js";
import type {
  KeptProcess,
  KeptRunPlace,
  SessionController,
  SessionHandle,
  SessionSpec,
  StartRunOptions,
} from "./spec.js";
import type { LaunchDeps } from "./launch.js";
import { ProcessSlot } from "./process-slot.js";
import type { TransportClosed } from "./transport.js";
import type { SessionBook } from "./session-book.js";

export type HandleDeps = LaunchDeps & {
  clock: Clock;
  /** Tells when the computer woke from a sleep or changed network (an idle process is then ended: its connections went with it). */
  wakes: WakeWatch | undefined;
  logger: Logger;
  /** IANA zone for clock times in notes, asked when a note first shows one (see engine.ts). */
  timeZone: () => string;
  /** Each session's last known running cost, so a resumed session's turns cost what they cost. */
  book: SessionBook;
  /** A CLI of this handle answered initialize. */
  onInitialized: ((reply: Readonly<Record<string, unknown>>) => void) | undefined;
};

const DEFAULTS = { idleMs: 30 * 60_000, stallNoteMs: 10 * 60_000, hardSilenceMs: 2 * 3_600_000 };

export class ClaudeSessionHandle implements SessionHandle {
  #spec: SessionSpec;
  readonly #controller: SessionController;
  readonly #deps: HandleDeps;
  readonly #mode: ProcessMode;
  readonly #events: HandleEvents;
  readonly #watch: SessionWatchdogs;
  readonly #owner: ConnectionOwner;
  readonly #host: ModeHost;
  readonly #slot: ProcessSlot;
  readonly #runs: SessionRuns;
  #sessionId: string | undefined;
  #initReply: Record<string, unknown> | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  #queueFull = false;
  #handedOver = false;
  /** The process lines are acknowledged on once it ended (its run's end is recorded after). */
  #lastConnection: CliConnection | undefined;

  constructor(spec: SessionSpec, controller: SessionController, deps: HandleDeps) {
    this.#spec = { ...spec };
    this.#controller = controller;
    this.#deps = deps;
    this.#mode = spec.print === true ? printMode : controlMode;
    this.#sessionId = spec.resume;
    this.#events = new HandleEvents({
      controller,
      session: this,
      logger: deps.logger,
      onEmitted: (event) => this.#onEmitted(event),
      onPressure: (full) => {
        this.#queueFull = full;
        this.#updateReading();
      },
      onAbandon: () => void this.close(),
    });
    this.#runs = new SessionRuns({
      clock: deps.clock,
      emit: (event) => this.#emit(event),
      sessionId: () => this.#sessionId,
      completed: () => {
        if (!(this.#slot.current?.translator.isTurnOpen ?? false)) this.#watch.stop();
        this.#scheduleIdle();
      },
    });
    this.#watch = new SessionWatchdogs({
      clock: deps.clock,
      wakes: deps.wakes,
      hasProcess: () => this.#slot.live() !== undefined,
      stallNoteMs: spec.stallNoteMs ?? DEFAULTS.stallNoteMs,
      hardSilenceMs: spec.hardSilenceMs ?? DEFAULTS.hardSilenceMs,
      isAwaitingAnswer: () => (this.#slot.current?.channel.pendingCount ?? 0) > 0,
      onStallNote: (note) => this.#emit(note),
      onHardSilence: (silentMs) => {
        const connection = this.#slot.current;
        if (connection === undefined) return;
        connection.silentMs = silentMs;
        void connection.end("silence");
      },
    });
    this.#owner = {
      heard: () => this.#watch.activity(),
      sessionIdSeen: (sessionId) => void (this.#sessionId = sessionId),
      deliver: (events, seen) => this.#events.emitAll(events, seen),
      controlRequest: (connection, message, approval) =>
        void handleControlRequest(this.#incoming(connection), message, approval),
      pressureChanged: () => this.#updateReading(),
      closed: (connection, closed) => this.#onProcessClosed(connection, closed),
    };
    this.#host = {
      spec: () => this.#spec,
      clock: deps.clock,
      logger: deps.logger,
      connection: (prompt) => this.#slot.connection(prompt),
      initialized: (reply) => {
        this.#initReply = reply;
        deps.onInitialized?.(reply);
      },
      warn: (text, key) => this.#emit({ type: "note", kind: "warning", text, ...(key === undefined ? {} : { key }) }),
      inform: (text) => this.#emit({ type: "note", kind: "info", text }),
    };
    this.#slot = new ProcessSlot({
      ...deps,
      mode: this.#mode,
      owner: this.#owner,
      host: this.#host,
      spec: () => this.#spec,
      sessionId: () => this.#sessionId,
    });
  }

  // ------------------------------------------------------------------ public surface

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get runsEndHook(): boolean {
    return this.#slot.current?.transport.runsEndHook?.() ?? false;
  }

  endNow(): void {
    void this.#slot.current?.transport.endNow?.();
  }

  get pid(): number | undefined {
    const transport = this.#slot.current?.transport;
    return transport !== undefined && transport.exit === undefined ? transport.pid : undefined;
  }

  get isRunning(): boolean {
    return this.#runs.current !== undefined;
  }

  get initializeReply(): Readonly<Record<string, unknown>> | undefined {
    return this.#initReply;
  }

  get lastLineSeq(): number {
    return this.#slot.current?.lastSeq ?? 0;
  }

  get keptRun(): KeptRunPlace | undefined {
    return this.#runs.keptPlace;
  }

  get handedOver(): boolean {
    return this.#handedOver;
  }

  acknowledgeLines(seq: number): void {
    const connection = this.#slot.current ?? this.#lastConnection;
    if (connection === undefined) return;
    connection.transport.ack?.(this.#runs.ackLimit(seq, connection));
  }

  /** Takes over a kept process and its run in flight (engine.adoptSession); resolves as AdoptedSession.reconciled. */
  adopt(kept: KeptProcess): Promise<readonly string[] | undefined> {
    const run = this.#runs.adopt(kept.run);
    this.#watch.start();
    const { connection, initialized } = this.#slot.adopt(kept.transport, {
      backlogThroughSeq: kept.backlogThroughSeq,
      seenThroughSeq: kept.seenThroughSeq,
      ...(kept.recordedRequest === undefined ? {} : { recordedRequest: kept.recordedRequest }),
    });
    run.connection = connection;
    return initialized.then(async (reply) => {
      if (reply === undefined) return undefined;
      const waiting = connection.relistPending(reply);
      // Idle now, and its replay (all printed before the answer) did not end the run: its end was lost.
      if (reply["session_state"] === "idle" && waiting.length === 0) {
        await connection.drained();
        this.#runs.complete(run, { ok: false, interrupted: true, error: engineFailure("output_lost") });
      }
      return waiting;
    });
  }

  async detach(): Promise<boolean> {
    const connection = this.#slot.current;
    const transport = connection?.transport;
    if (this.#closed || connection === undefined || transport?.detach === undefined) return false;
    this.#closed = true;
    this.#watch.cancelIdle();
    await transport.detach();
    await connection.finished;
    return true;
  }

  events(): AsyncIterable<TelecodeEvent> {
    return this.#events.iterate();
  }

  async startRun(prompt: Prompt, options: StartRunOptions = {}): Promise<string> {
    if (this.#closed)
      throw new ClaudeError("claude.session_closed", "This session is closed; open a new one to continue.");
    const run = this.#runs.begin(options);
    this.#watch.cancelIdle();
    this.#watch.start();
    try {
      await options.beforePrompt?.();
      if (!run.done) await this.#mode.startRun(this.#host, run, prompt);
    } catch (error) {
      this.#runs.complete(run, { ok: false, error: failureOf(error) });
    }
    return run.id;
  }

  async cancelRun(runId: string): Promise<void> {
    const run = this.#runs.current;
    if (run === undefined || run.id !== runId || run.done) return;
    run.cancelled = true;
    const connection = run.connection;
    if (connection === undefined || connection.transport.exit !== undefined) {
      this.#runs.complete(run, { ok: false });
      return;
    }
    await this.#mode.cancel(this.#host, run, connection);
  }

  async setPermissionMode(mode: string): Promise<void> {
    this.#spec = { ...this.#spec, permissionMode: mode };
    const connection = this.#slot.live();
    if (connection !== undefined) await connection.channel.request({ subtype: "set_permission_mode", mode });
  }

  async setModel(model: string | null): Promise<void> {
    const { model: _old, ...rest } = this.#spec;
    this.#spec = model === null ? rest : { ...rest, model };
    // The CLI checks a new model with a request to the API before it acks.
    const connection = this.#slot.live();
    if (connection !== undefined) await connection.channel.request({ subtype: "set_model", model }, 60_000);
  }

  async interrupt(): Promise<void> {
    const connection = this.#slot.live();
    if (connection !== undefined) await connection.channel.request({ subtype: "interrupt" });
  }

  async mcpSignIn(server: string): Promise<McpSignInStart> {
    return beginMcpSignIn(this.#liveChannel(), server);
  }

  async mcpSignInCallback(server: string, callbackUrl: string): Promise<McpSignInEnd> {
    return finishMcpSignIn(this.#liveChannel(), server, callbackUrl);
  }

  async sideQuestion(question: string, history?: readonly SideExchange[]): Promise<SideAnswer> {
    return askSideQuestion(this.#liveChannel(), question, history);
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  // ------------------------------------------------------------------ processes

  /**
   * The live process's channel, for what only a running Claude Code can do: a sign-in (the flow
   * it begins waits in that process), a side question (answered from its conversation).
   */
  #liveChannel(): ControlChannel {
    const connection = this.#slot.live();
    if (connection === undefined)
      throw new ClaudeError("claude.no_process", "No Claude Code process is running in this session now.");
    return connection.channel;
  }

  async #onProcessClosed(connection: CliConnection, closed: TransportClosed): Promise<void> {
    this.#lastConnection = connection;
    if (closed.handedOver === true) return this.#handOver(connection);
    const { failure, lost, expected } = settleClosedConnection(connection, closed, this.#deps.logger);
    this.#slot.release(connection);
    this.#watch.processGone();
    this.#runs.tasksGone();
    const run = this.#runs.current;
    if (run !== undefined && run.connection === connection && !run.done) {
      // The caller acknowledges the lines once it recorded the run's end.
      this.#runs.complete(run, lost ? { ok: false, error: failure, interrupted: true } : { ok: false, error: failure });
    } else {
      // No run of anyone's was in it: nothing of its output is left to record.
      connection.transport.ack?.(connection.lastSeq);
      if (!expected && this.#mode.keepsProcess)
        this.#emit({ type: "note", kind: "warning", text: failureText(failure) });
    }
    if (this.#runs.current === undefined) this.#watch.stop();
    return Promise.resolve();
  }

  /** The process runs on without this Telecode: stop quietly, answering nothing and completing no run. */
  #handOver(connection: CliConnection): Promise<void> {
    this.#handedOver = true;
    this.#closed = true;
    // The decisions stay open for whoever has the process now.
    this.#controller.handedOver?.();
    connection.channel.close(
      new ClaudeError("claude.handed_over", "This Telecode let go of the process; another one carries on with it."),
    );
    this.#slot.release(connection);
    this.#watch.dispose();
    const run = this.#runs.release();
    this.#deps.logger.event("claude.handed_over", { pid: connection.transport.pid, runId: run?.id });
    this.#events.end();
    return Promise.resolve();
  }

  async #close(): Promise<void> {
    if (this.#handedOver) return;
    this.#closed = true;
    this.#watch.cancelIdle();
    const run = this.#runs.current;
    if (run !== undefined) run.cancelled = true;
    await this.#slot.close(async (connection) => {
      // Every request the CLI asked gets its answer before stdin closes.
      const incoming = this.#incoming(connection);
      await Promise.all(connection.channel.pendingIncoming().map((id) => denyForSessionEnd(incoming, id)));
      connection.channel.close(new ClaudeError("claude.session_closed", "The session was closed."));
    });
    if (run !== undefined) this.#runs.complete(run, { ok: false });
    this.#watch.dispose();
    this.#events.end();
  }

  #updateReading(): void {
    const paused = this.#queueFull || (this.#slot.current?.isBacklogged ?? false);
    const transport = this.#slot.current?.transport;
    if (transport !== undefined) {
      if (paused) transport.pause();
      else transport.resume();
    }
    this.#watch.setPaused(paused);
  }

  // ------------------------------------------------------------------ events and runs

  #emit(event: TelecodeEvent): void {
    this.#events.emit(event);
  }

  #onEmitted(event: TelecodeEvent): void {
    this.#watch.observe(event);
    if (event.type === "task_changed") this.#runs.taskChanged(event);
    if (event.type === "turn_finished") this.#onTurnFinished(event);
    // The last background task ended between runs: the process may idle out again.
    if (event.type === "task_changed" && event.phase === "finished" && this.#runs.current === undefined)
      this.#scheduleIdle();
  }

  #onTurnFinished(turn: TurnFinished): void {
    // Claude Code refused the run for good and exits of itself: the next run starts another
    // process, never one about to exit (and its exit is no crash to report).
    const reason = turn.error?.reason;
    if (reason === "start_refused" || reason === "session_not_found") void this.#slot.live()?.end("refused");
    if (this.#runs.turnFinished(turn)) return;
    // A turn nobody's run started (a loop's, a background task's): the session may idle again.
    this.#watch.stop();
    this.#scheduleIdle();
  }

  #scheduleIdle(): void {
    const idleMs = this.#spec.idleMs ?? DEFAULTS.idleMs;
    if (this.#closed || !this.#mode.keepsProcess || idleMs <= 0) return;
    this.#watch.scheduleIdle(idleMs, (outlived) => {
      const connection = this.#slot.live();
      if (
        connection === undefined ||
        this.#runs.current !== undefined ||
        connection.translator.isTurnOpen ||
        connection.channel.pendingCount > 0 ||
        // A Monitor or a background agent still running starts a turn of its own later.
        this.#watch.hasLiveTasks
      )
        return;
      // After a sleep or a change of network Claude Code would send the next message on a
      // connection that is gone, and wait minutes for its answer; a new process, resuming the
      // session, connects afresh.
      const pid = connection.transport.pid;
      if (outlived === undefined) this.#deps.logger.event("claude.idle_close", { pid, idleMs });
      else this.#deps.logger.event("claude.wake_close", { pid, ...outlived, sleptMs: Math.round(outlived.sleptMs) });
      void connection.end("idle");
    });
  }

  #incoming(connection: CliConnection): IncomingContext {
    return {
      channel: connection.channel,
      controller: this.#controller,
      session: this,
      logger: this.#deps.logger,
      run: (agentId) => this.#runs.info(this.#watch.hasLiveTasks, agentId),
      emit: (event) => this.#emit(event),
      settled: () => this.#scheduleIdle(),
    };
  }
}
