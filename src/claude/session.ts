// One Telecode session: a long-lived `claude` process (respawned with --resume when it is
// gone), its stdout pipeline (frame → decode → translate → events), runs that each end with
// exactly one run_completed, cancel, watchdogs and idle close. Approvals go to the controller.
import { randomUUID } from "node:crypto";
import type { TelecodeEvent, TurnFinished } from "../domain/index.js";
import { LineFramer, decodeLine, encodeUserMessage, isDecodeProblem, oversizedLineProblem } from "../wire/index.js";
import type { WireDecodeProblem, WireMessage } from "../wire/index.js";
import { buildArgs } from "./args.js";
import type { CliProbe } from "./cli-probe.js";
import { ClaudeProcess, type ExitInfo } from "./claude-process.js";
import type { Clock, TimerHandle } from "../ports/index.js";
import { ControlChannel } from "./control-channel.js";
import { buildChildEnv } from "./env.js";
import { ClaudeError } from "./errors.js";
import { processEndError, runCompletedEvent, type CompletionFields } from "./run-outcome.js";
import { EventQueue } from "./event-queue.js";
import { denyForSessionEnd, handleControlRequest, type IncomingContext } from "./incoming-requests.js";
import type { Logger } from "../ports/index.js";
import { LineGate } from "./line-gate.js";
import { SessionWatchdogs } from "./session-watchdogs.js";
import type { ClaudeSession, RunInfo, SessionController, SessionSpec, StartRunOptions } from "./spec.js";
import { createTranslator, type Translator } from "./translator.js";

export type SessionDeps = {
  command: string;
  baseEnv: NodeJS.ProcessEnv;
  probe: CliProbe;
  clock: Clock;
  logger: Logger;
};

/** Why we ended a process ourselves (undefined: it ended on its own). */
type EndReason = "idle" | "cancel" | "silence" | "close";

type Link = {
  proc: ClaudeProcess;
  channel: ControlChannel;
  framer: LineFramer;
  translator: Translator;
  /** Resolves once the process is gone and everything it printed was handled. */
  finished: Promise<void>;
  endReason: EndReason | undefined;
  silentMs: number;
};

type Run = RunInfo & {
  startedAt: number;
  link: Link | undefined;
  cancelled: boolean;
  done: boolean;
  cancelTimer: TimerHandle | undefined;
};

const DEFAULTS = { idleMs: 30 * 60_000, stallNoteMs: 10 * 60_000, hardSilenceMs: 2 * 3_600_000, cancelGraceMs: 5_000 };

export class Session implements ClaudeSession {
  #spec: SessionSpec;
  readonly #controller: SessionController;
  readonly #deps: SessionDeps;
  readonly #queue: EventQueue<TelecodeEvent>;
  readonly #watch: SessionWatchdogs;
  #link: Link | undefined;
  #spawning: Promise<Link> | undefined;
  #firstSpawn = true;
  #sessionId: string | undefined;
  #run: Run | undefined;
  #initReply: Record<string, unknown> | undefined;
  #closed = false;
  #closing: Promise<void> | undefined;
  // Line processing is synchronous except while a beforeTurnFinished hook runs: lines then wait in the gate.
  readonly #gate: LineGate<{ link: Link; message: WireMessage | WireDecodeProblem }>;
  #queueFull = false;

  constructor(spec: SessionSpec, controller: SessionController, deps: SessionDeps) {
    this.#spec = { ...spec };
    this.#controller = controller;
    this.#deps = deps;
    this.#sessionId = spec.resume;
    this.#queue = new EventQueue<TelecodeEvent>({
      onPressure: (full) => {
        this.#queueFull = full;
        this.#updateReading();
      },
      onAbandon: () => void this.close(),
    });
    this.#gate = new LineGate({
      process: ({ link, message }) => this.#processLine(link, message),
      // Answers to our own requests cannot wait: the hook we are waiting for may need one.
      bypass: ({ link, message }) => {
        if (isDecodeProblem(message) || message.type !== "control_response") return false;
        link.channel.handleResponse(message);
        return true;
      },
      onPressure: () => this.#updateReading(),
    });
    this.#watch = new SessionWatchdogs({
      clock: deps.clock,
      stallNoteMs: spec.stallNoteMs ?? DEFAULTS.stallNoteMs,
      hardSilenceMs: spec.hardSilenceMs ?? DEFAULTS.hardSilenceMs,
      onStallNote: (note) => this.#emit(note),
      onHardSilence: (silentMs) => {
        const link = this.#link;
        if (link === undefined) return;
        link.silentMs = silentMs;
        void this.#endLink(link, "silence");
      },
    });
  }

  // ------------------------------------------------------------------ public surface

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get pid(): number | undefined {
    const link = this.#link;
    return link !== undefined && link.proc.exitInfo === undefined ? link.proc.pid : undefined;
  }

  get isRunning(): boolean {
    return this.#run !== undefined;
  }

  get initializeReply(): Readonly<Record<string, unknown>> | undefined {
    return this.#initReply;
  }

  events(): AsyncIterable<TelecodeEvent> {
    return this.#queue.iterate();
  }

  async startRun(prompt: string, options: StartRunOptions = {}): Promise<string> {
    if (this.#closed)
      throw new ClaudeError("claude.session_closed", "This session is closed; open a new one to continue.");
    if (this.#run !== undefined)
      throw new ClaudeError(
        "claude.run_in_flight",
        "A run is already in progress in this session; wait for it or cancel it first.",
        { details: { runId: this.#run.id } },
      );
    const run: Run = {
      id: options.runId ?? randomUUID(),
      unattended: options.unattended === true,
      startedAt: this.#deps.clock.now(),
      link: undefined,
      cancelled: false,
      done: false,
      cancelTimer: undefined,
    };
    this.#run = run;
    this.#watch.cancelIdle();
    this.#watch.start();
    try {
      if (this.#spec.print === true) {
        if (this.#link !== undefined) await this.#link.finished;
        run.link = await this.#spawn(prompt);
      } else {
        const link = await this.#ensureLink();
        run.link = link;
        if (!run.done) await link.proc.write(encodeUserMessage(prompt));
      }
    } catch (error) {
      this.#completeRun(run, { ok: false, error: messageOf(error) });
    }
    return run.id;
  }

  async cancelRun(runId: string): Promise<void> {
    const run = this.#run;
    if (run === undefined || run.id !== runId || run.done) return;
    run.cancelled = true;
    const link = run.link;
    if (link === undefined || link.proc.exitInfo !== undefined) {
      this.#completeRun(run, { ok: false });
      return;
    }
    const graceMs = this.#spec.cancelGraceMs ?? DEFAULTS.cancelGraceMs;
    if (this.#spec.print === true) {
      await this.#endLink(link, "cancel");
      return;
    }
    // Interrupt first (the CLI ends the turn as error_during_execution); end the process if it does not.
    run.cancelTimer = this.#deps.clock.setTimer(graceMs, () => {
      if (!run.done) void this.#endLink(link, "cancel");
    });
    try {
      await link.channel.request({ subtype: "interrupt" }, graceMs);
    } catch (error) {
      this.#deps.logger.event("claude.interrupt_failed", { err: error, runId }, "warn");
      if (!run.done) await this.#endLink(link, "cancel");
    }
  }

  async setPermissionMode(mode: string): Promise<void> {
    this.#spec = { ...this.#spec, permissionMode: mode };
    const link = this.#liveLink();
    if (link !== undefined) await link.channel.request({ subtype: "set_permission_mode", mode });
  }

  async setModel(model: string | null): Promise<void> {
    const { model: _old, ...rest } = this.#spec;
    this.#spec = model === null ? rest : { ...rest, model };
    // The CLI checks a new model with a request to the API before it acks.
    const link = this.#liveLink();
    if (link !== undefined) await link.channel.request({ subtype: "set_model", model }, 60_000);
  }

  async interrupt(): Promise<void> {
    const link = this.#liveLink();
    if (link !== undefined) await link.channel.request({ subtype: "interrupt" });
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  // ------------------------------------------------------------------ process lifecycle

  #liveLink(): Link | undefined {
    const link = this.#link;
    return link !== undefined &&
      link.proc.exitInfo === undefined &&
      link.endReason === undefined &&
      this.#spec.print !== true
      ? link
      : undefined;
  }

  async #ensureLink(): Promise<Link> {
    const live = this.#liveLink();
    if (live !== undefined) return live;
    if (this.#link !== undefined) await this.#link.finished;
    this.#spawning ??= this.#spawn(undefined).finally(() => {
      this.#spawning = undefined;
    });
    return this.#spawning;
  }

  async #spawn(prompt: string | undefined): Promise<Link> {
    const spec = this.#spec;
    const env = buildChildEnv(this.#deps.baseEnv, {
      envAllow: spec.envAllow,
      useApiBilling: spec.useApiBilling,
      disableCron: spec.disableCron,
    });
    const info = await this.#deps.probe.probe(this.#deps.command, env);
    const resume = this.#sessionId;
    const args = buildArgs(spec, {
      supportsHookEvents: info.supportsHookEvents,
      resume,
      continueLast: this.#firstSpawn && spec.continue === true && resume === undefined,
      ...(prompt === undefined ? {} : { prompt }),
    });
    this.#firstSpawn = false;
    const link = {} as Link;
    link.framer = new LineFramer({
      onLine: (line) => this.#gate.push({ link, message: decodeLine(line) }),
      onOversizedLine: (report) => this.#gate.push({ link, message: oversizedLineProblem(report) }),
    });
    link.translator = createTranslator();
    link.endReason = undefined;
    link.silentMs = 0;
    const onStdout = (chunk: Buffer): void => {
      // Per chunk, not per line: silence is measured in minutes.
      this.#watch.activity();
      link.framer.push(chunk);
    };
    link.proc = await ClaudeProcess.start({
      file: info.path,
      args,
      cwd: spec.cwd,
      env,
      clock: this.#deps.clock,
      onStdout,
    });
    link.channel = new ControlChannel({
      write: (line) => link.proc.write(line),
      clock: this.#deps.clock,
      logger: this.#deps.logger,
    });
    link.finished = link.proc.closed.then((exit) => this.#onProcessClosed(link, exit));
    this.#link = link;
    this.#updateReading();
    this.#deps.logger.event("claude.spawned", { pid: link.proc.pid, args, cwd: spec.cwd, version: info.version });
    if (spec.dangerouslySkipPermissions === true) {
      this.#deps.logger.event("claude.approvals_bypassed", { pid: link.proc.pid }, "warn");
      this.#emit({
        type: "note",
        kind: "warning",
        text: "Approvals are bypassed: claude.dangerously_skip_permissions is on, so every tool runs without asking. Turn it off in the config to be asked again.",
      });
    }
    if (spec.print === true) {
      link.proc.endInput();
    } else {
      link.channel
        .request({ subtype: "initialize", hooks: spec.hooks ?? null }, 60_000)
        .then((reply) => {
          this.#initReply = reply;
        })
        .catch((error: unknown) => {
          if (link.proc.exitInfo !== undefined || link.endReason !== undefined) return;
          this.#deps.logger.event("claude.initialize_failed", { err: error }, "warn");
          this.#emit({
            type: "note",
            kind: "warning",
            text: `Claude Code did not complete the initialize handshake: ${messageOf(error)}`,
          });
        });
    }
    return link;
  }

  /** The one way we end a process (idle, cancel, silence, close): see ClaudeProcess.shutdown. */
  async #endLink(link: Link, reason: EndReason): Promise<void> {
    link.endReason ??= reason;
    await link.proc.shutdown();
    await link.finished;
  }

  async #onProcessClosed(link: Link, exit: ExitInfo): Promise<void> {
    link.framer.end();
    await this.#gate.settled;
    const tail = this.#emitAll(link, link.translator.end());
    if (tail !== undefined) await tail;
    const error = processEndError({
      exit,
      endReason: link.endReason,
      silentMs: link.silentMs,
      hadOutput: link.proc.hasOutput,
      stderrTail: link.proc.stderrTail(),
    });
    link.channel.close(error);
    if (this.#link === link) this.#link = undefined;
    this.#watch.processGone();
    const run = this.#run;
    const expected = link.endReason !== undefined || (exit.code === 0 && exit.signal === null);
    this.#deps.logger.event(
      "claude.exited",
      { pid: link.proc.pid, exit, reason: link.endReason, stderrTail: expected ? undefined : link.proc.stderrTail() },
      expected ? "info" : "warn",
    );
    if (run !== undefined && run.link === link && !run.done) {
      this.#completeRun(run, { ok: false, error: error.message });
    } else if (!expected && this.#spec.print !== true) {
      this.#emit({ type: "note", kind: "warning", text: error.message });
    }
    if (this.#run === undefined) this.#watch.stop();
  }

  async #close(): Promise<void> {
    this.#closed = true;
    this.#watch.cancelIdle();
    const run = this.#run;
    if (run !== undefined) run.cancelled = true;
    await this.#spawning?.catch(() => undefined);
    const link = this.#link;
    if (link !== undefined) {
      link.endReason ??= "close";
      // Every request the CLI asked gets its answer before stdin closes.
      await Promise.all(link.channel.pendingIncoming().map((id) => denyForSessionEnd(this.#incoming(link), id)));
      link.channel.close(new ClaudeError("claude.session_closed", "The session was closed."));
      await this.#endLink(link, "close");
    }
    if (run !== undefined && !run.done) this.#completeRun(run, { ok: false });
    this.#watch.stop();
    await this.#gate.settled;
    this.#queue.end();
  }

  // ------------------------------------------------------------------ stdout pipeline

  #updateReading(): void {
    const paused = this.#queueFull || this.#gate.full;
    const proc = this.#link?.proc;
    if (proc !== undefined) {
      if (paused) proc.pauseOutput();
      else proc.resumeOutput();
    }
    this.#watch.setPaused(paused);
  }

  /** Handles one decoded line; returns a promise only when a beforeTurnFinished hook must be awaited. */
  #processLine(link: Link, message: WireMessage | WireDecodeProblem): Promise<void> | undefined {
    if (!isDecodeProblem(message)) {
      switch (message.type) {
        case "control_response":
          link.channel.handleResponse(message);
          return undefined;
        case "control_cancel_request":
          if (!link.channel.withdraw(message.request_id)) return undefined;
          break;
        case "system":
          if (message.subtype === "init" && typeof message["session_id"] === "string")
            this.#sessionId = message["session_id"];
          break;
        case "result":
          if (message.session_id !== "") this.#sessionId = message.session_id;
          break;
        default:
          break;
      }
    }
    const events = link.translator.push(message);
    const pending = this.#emitAll(link, events);
    if (!isDecodeProblem(message) && message.type === "control_request") {
      const approval = events.find((e) => e.type === "approval_requested");
      void handleControlRequest(
        this.#incoming(link),
        message,
        approval?.type === "approval_requested" ? approval.request : undefined,
      );
    }
    return pending;
  }

  #emitAll(link: Link, events: readonly TelecodeEvent[]): Promise<void> | undefined {
    for (let i = 0; i < events.length; i++) {
      const event = events[i] as TelecodeEvent;
      if (event.type === "turn_finished" && this.#controller.beforeTurnFinished !== undefined) {
        return this.#finishTurn(link, event, events.slice(i + 1));
      }
      this.#emit(event);
    }
    return undefined;
  }

  async #finishTurn(link: Link, turn: TurnFinished, rest: readonly TelecodeEvent[]): Promise<void> {
    try {
      await this.#controller.beforeTurnFinished?.({ session: this, turn });
    } catch (error) {
      this.#deps.logger.event("claude.before_turn_finished_failed", { err: error }, "warn");
    }
    this.#emit(turn);
    const more = this.#emitAll(link, rest);
    if (more !== undefined) await more;
  }

  #emit(event: TelecodeEvent): void {
    try {
      this.#controller.observe?.(event);
    } catch (error) {
      this.#deps.logger.event("claude.observe_failed", { err: error, event: event.type }, "warn");
    }
    this.#queue.push(event);
    this.#watch.observe(event);
    if (event.type === "turn_finished") this.#onTurnFinished(event);
  }

  #onTurnFinished(turn: TurnFinished): void {
    const run = this.#run;
    // Turns the CLI starts by itself (a background agent finished) never complete someone's run.
    if (run !== undefined && !run.done && turn.origin.kind === "user") {
      const fields: CompletionFields = {
        ok: turn.ok,
        answer: turn.answer,
        interrupted: turn.interrupted,
        costUsd: turn.costUsd,
      };
      if (turn.error !== undefined) fields.error = turn.error;
      this.#completeRun(run, fields);
    } else if (run === undefined) {
      this.#watch.stop();
      this.#scheduleIdle();
    }
  }

  #completeRun(run: Run, fields: CompletionFields): void {
    if (run.done) return;
    run.done = true;
    run.cancelTimer?.cancel();
    if (this.#run === run) this.#run = undefined;
    const event = runCompletedEvent(run, fields, this.#deps.clock.now(), this.#sessionId);
    this.#emit(event);
    if (!(this.#link?.translator.isTurnOpen ?? false)) this.#watch.stop();
    this.#scheduleIdle();
  }

  #scheduleIdle(): void {
    const idleMs = this.#spec.idleMs ?? DEFAULTS.idleMs;
    if (this.#closed || this.#spec.print === true || idleMs <= 0) return;
    this.#watch.scheduleIdle(idleMs, () => {
      const link = this.#liveLink();
      if (link === undefined || this.#run !== undefined || link.translator.isTurnOpen || link.channel.pendingCount > 0)
        return;
      this.#deps.logger.event("claude.idle_close", { pid: link.proc.pid, idleMs });
      void this.#endLink(link, "idle");
    });
  }

  #incoming(link: Link): IncomingContext {
    return {
      channel: link.channel,
      controller: this.#controller,
      session: this,
      logger: this.#deps.logger,
      run: () => (this.#run === undefined ? undefined : { id: this.#run.id, unattended: this.#run.unattended }),
      emit: (event) => this.#emit(event),
      settled: () => this.#scheduleIdle(),
    };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
