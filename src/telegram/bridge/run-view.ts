// One run as the person sees it in Telegram: the progress message (with Cancel while live),
// then the answer as new messages, an error with its incident id, or an interrupted note with
// Continue. A RunObserver: never awaits Telegram, so the session's events never wait on it.
// A kept run taken in after a restart carries on in the progress message it had.
import type { InlineKeyboardMarkup } from "grammy/types";
import {
  definedFields,
  reduceProgress,
  startProgress,
  tickProgress,
  type ClockFormatter,
  type Lane,
  type ProgressState,
  type RunCompleted,
  type TelecodeEvent,
} from "../../domain/index.js";
import { escapeTelegramHtml as esc, renderProgressHtml, renderProgressSummaryHtml } from "../../render/index.js";
import type { RunObserver, SubmitOutcome } from "../../sessions/index.js";
import type { CallbackRegistry } from "../callback-data.js";
import type { BridgeAction } from "./bridge-types.js";
import { ProgressMessage, type ProgressMessageDeps } from "./progress-message.js";
import { interruptedHtml, keptRunNote, resumeKeyboard } from "./resume-button.js";
import { sendAnswer, sendRunError, unstartedHtml } from "./run-results.js";
import type { RunIndex } from "./run-index.js";

export type RunViewDeps = ProgressMessageDeps & {
  callbacks: CallbackRegistry<BridgeAction>;
  runs: RunIndex<RunView>;
  /** The bridge is stopping: runs ended now were interrupted by the stop, not cancelled by a person. */
  isStopping: () => boolean;
  /** Shows when a rate-limit wait ends, in the machine's time zone. */
  clockFormatter?: ClockFormatter;
};

export type RunViewInit = {
  chatId: number;
  lane: Lane;
  /** The person's message that asked for this run. */
  promptMessageId: number | undefined;
  /** What the footer shows until the CLI reports its own. */
  start: { mode: string; model?: string; effort?: string };
};

export class RunView implements RunObserver {
  readonly chatId: number;
  readonly lane: Lane;
  runId: string | undefined;
  /** Someone tapped Cancel: later taps read "Already cancelling". */
  cancelRequested = false;
  readonly #deps: RunViewDeps;
  readonly #init: RunViewInit;
  readonly #progress: ProgressMessage;
  #state: ProgressState;
  #cancelToken: string | undefined;
  #queued = false;
  #finished = false;

  constructor(deps: RunViewDeps, init: RunViewInit) {
    this.#deps = deps;
    this.#init = init;
    this.chatId = init.chatId;
    this.lane = init.lane;
    this.#state = startProgress({ startedAtMs: deps.clock.now(), ...init.start });
    this.#progress = new ProgressMessage(deps, {
      chatId: init.chatId,
      runId: () => this.runId,
      render: (nowMs) => {
        this.#state = tickProgress(this.#state, nowMs);
        return { html: renderProgressHtml(this.#state, this.#renderOptions(nowMs)), keyboard: this.#cancelKeyboard() };
      },
      isWorking: () => this.#state.phase === "working" || this.#state.phase === "starting",
      onMessage: (messageId) => deps.runs.attachMessage(this, messageId),
    });
  }

  /** When the run started working (or was queued), for /status. */
  get startedAtMs(): number {
    return this.#state.startedAtMs;
  }

  progressMessage(): Promise<number | undefined> {
    return this.#progress.sent;
  }

  /**
   * A run taken in after a restart (its kept process ran on): the progress message it had is
   * edited from now on (a new one is sent when it had none), and the time counts from its start.
   */
  resume(kept: { runId: string; progressMessageId: number | undefined; startedAtMs: number }): void {
    this.runId = kept.runId;
    this.#cancelToken = this.#deps.callbacks.register({ kind: "cancel", runId: kept.runId }, this.chatId);
    this.#deps.runs.track(this);
    if (kept.progressMessageId !== undefined) {
      this.#progress.adopt(kept.progressMessageId);
      this.#progress.live = true;
      this.#deps.runs.setLive(this);
      this.#progress.markDirty();
      this.#progress.startHeartbeat();
    } else this.#goLive();
    this.#state = { ...this.#state, startedAtMs: kept.startedAtMs };
  }

  /** The run goes on without this Telecode (its kept process was let go of): the next one shows it. */
  handedOver(): void {
    this.#finished = true;
    this.#progress.stop();
    this.#deps.runs.finished(this);
  }

  /** Called with what submit said: starts the progress message, or says it is queued / refused. */
  begin(outcome: SubmitOutcome): void {
    if (outcome.state === "refused") {
      this.#finished = true;
      void this.#deps.outbox.send(this.chatId, { html: `⏸ ${esc(outcome.reason)}` }, this.#replyToPrompt());
      return;
    }
    this.runId = outcome.runId;
    this.#cancelToken = this.#deps.callbacks.register({ kind: "cancel", runId: outcome.runId }, this.chatId);
    this.#deps.runs.track(this);
    if (outcome.state === "queued") {
      this.#queued = true;
      const html = "⏳ Queued — will run after the current task.";
      this.#progress.send({ html, keyboard: this.#cancelKeyboard() }, this.#init.promptMessageId);
      return;
    }
    this.#goLive();
  }

  onEvent(event: TelecodeEvent): void {
    if (this.#finished) return;
    if (event.type === "run_completed") {
      this.#finish(event);
      return;
    }
    if (!this.#progress.live) this.#goLive();
    this.#deps.runs.observe(this.lane, event);
    this.#state = reduceProgress(this.#state, event, this.#deps.clock.now());
    this.#progress.record();
    this.#progress.markDirty();
  }

  /** The progress message, once sent, was re-sent under a new id (the person deleted it). */
  replaced(newMessageId: number): void {
    this.#progress.replaced(newMessageId);
  }

  #goLive(): void {
    const now = this.#deps.clock.now();
    this.#progress.live = true;
    this.#state = { ...this.#state, startedAtMs: now, lastEventAtMs: now };
    this.#deps.runs.setLive(this);
    if (this.#queued) this.#progress.markDirty();
    else
      this.#progress.send(
        { html: renderProgressHtml(this.#state, this.#renderOptions(now)), keyboard: this.#cancelKeyboard() },
        this.#init.promptMessageId,
      );
    this.#progress.startHeartbeat();
  }

  #finish(completed: RunCompleted): void {
    const now = this.#deps.clock.now();
    const unstarted = !this.#progress.live;
    // A stop ends runs through the same cancel a person uses; during a stop it is an interruption.
    const interrupted = completed.interrupted && (!completed.cancelled || this.#deps.isStopping()) && !unstarted;
    const event: RunCompleted = interrupted ? { ...completed, cancelled: false } : completed;
    this.#finished = true;
    this.#progress.stop();
    this.#deps.runs.finished(this);
    this.#state = reduceProgress(this.#state, event, now);
    this.#deps.logger.event("telegram.run_finished", {
      chatId: this.chatId,
      runId: event.runId,
      sessionId: event.sessionId,
      ok: event.ok,
      cancelled: event.cancelled,
      interrupted: event.interrupted,
    });
    const target = { chatId: this.chatId, project: this.lane.project, quoteReplyTo: this.#quoteReplyTo() };
    if (event.ok) sendAnswer(this.#deps, target, event, this.#state);
    else if (!event.cancelled && !event.interrupted && !unstarted) sendRunError(this.#deps, this.chatId, event);
    const summary = unstarted ? unstartedHtml(event) : renderProgressSummaryHtml(this.#state, now);
    const resume = interrupted ? resumeKeyboard(event.runId) : undefined;
    const note = event.error === undefined ? undefined : keptRunNote(event.error);
    const html = resume !== undefined ? interruptedHtml(summary, note) : summary;
    void this.#progress.sent.then((id) => {
      if (id === undefined) return;
      return this.#deps.outbox.edit(
        this.chatId,
        this.#progress.id ?? id,
        resume === undefined ? { html } : { html, keyboard: resume },
        { mustDeliver: interrupted },
      );
    });
  }

  #renderOptions(nowMs: number): { nowMs: number; clock?: ClockFormatter } {
    return this.#deps.clockFormatter === undefined ? { nowMs } : { nowMs, clock: this.#deps.clockFormatter };
  }

  #cancelKeyboard(): InlineKeyboardMarkup | undefined {
    if (this.#cancelToken === undefined) return undefined;
    return {
      inline_keyboard: [[{ text: "⏹ Cancel", callback_data: this.#deps.callbacks.data(this.#cancelToken, "cancel") }]],
    };
  }

  #replyToPrompt(): { replyTo?: number } {
    return definedFields({ replyTo: this.#init.promptMessageId });
  }

  /** In a busy chat (a group, or after a queue) the answer quotes the message it answers. */
  #quoteReplyTo(): number | undefined {
    return this.#queued || this.chatId < 0 ? this.#init.promptMessageId : undefined;
  }
}
