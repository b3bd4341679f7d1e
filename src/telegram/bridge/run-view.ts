// One run as the person sees it in Telegram: the progress message (sent at once, edited at a
// steady pace with the latest state, a heartbeat and typing while quiet, Cancel while live),
// then the answer as new messages, an error with its incident id, or an interrupted note with
// Continue. A RunObserver: never awaits Telegram, so the session's events never wait on it.
import { randomBytes } from "node:crypto";
import type { InlineKeyboardMarkup } from "grammy/types";
import {
  excerpt,
  failureText,
  type RunFailure,
  reduceProgress,
  startProgress,
  tickProgress,
  type ClockFormatter,
  type ProgressState,
  type RunCompleted,
  type TelecodeEvent,
  laneId,
  type Lane,
} from "../../domain/index.js";
import type { Clock, Logger, TimerHandle } from "../../ports/index.js";
import {
  answerFooterOf,
  escapeTelegramHtml as esc,
  renderFinalAnswerParts,
  renderProgressHtml,
  renderProgressSummaryHtml,
  renderRunErrorHtml,
} from "../../render/index.js";
import type { RunObserver, SubmitOutcome } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import type { CallbackRegistry } from "../callback-data.js";
import type { Outbox } from "../outbox.js";
import type { BridgeAction } from "./bridge-types.js";
import { interruptedHtml, resumeKeyboard } from "./resume-button.js";
import type { RunBook } from "./run-book.js";

/** A failed run that did not say why. */
const UNEXPLAINED: RunFailure = {
  reason: "internal",
  what: "The run failed without saying why.",
  hint: "Send the message again, or /new to start a fresh session.",
};

/** Answers longer than this also arrive as a Markdown file (easier to read and keep). */
const DOCUMENT_ANSWER_CHARS = 12_000;
/** Typing shows after this much quiet (Telegram shows it for 5 s), at most 40% of the heartbeat. */
const TYPING_AFTER_MS = 4000;
const HEARTBEAT_CHECK_MS = 2000;

export type RunViewDeps = {
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  store: Store;
  callbacks: CallbackRegistry<BridgeAction>;
  book: RunBook<RunView>;
  /** The CLI's own mode per session key, as its events report it (for /status). */
  cliModes: Map<string, string>;
  /** The bridge is stopping: runs ended now were interrupted by the stop, not cancelled by a person. */
  isStopping: () => boolean;
  progressIntervalMs: number;
  heartbeatMs: number;
  /** Shows when a rate-limit wait ends, in the machine's time zone. */
  clockFormatter?: ClockFormatter;
};

export type RunViewInit = {
  chatId: number;
  key: Lane;
  /** The person's message that asked for this run. */
  promptMessageId: number | undefined;
  /** What the footer shows until the CLI reports its own. */
  start: { mode: string; model?: string; effort?: string };
};

export class RunView implements RunObserver {
  readonly chatId: number;
  readonly key: Lane;
  runId: string | undefined;
  readonly #d: RunViewDeps;
  readonly #init: RunViewInit;
  #state: ProgressState;
  #progress: Promise<number | undefined> = Promise.resolve(undefined);
  #progressId: number | undefined;
  #progressRecorded = false;
  #cancelToken: string | undefined;
  #queued = false;
  #live = false;
  #finished = false;
  #dirty = false;
  #lastRenderAtMs = Number.NEGATIVE_INFINITY;
  #lastEditAtMs = 0;
  #lastTypingAtMs = 0;
  #lastHtml = "";
  #flushTimer: TimerHandle | undefined;
  #heartbeat: TimerHandle | undefined;

  constructor(deps: RunViewDeps, init: RunViewInit) {
    this.#d = deps;
    this.#init = init;
    this.chatId = init.chatId;
    this.key = init.key;
    this.#state = startProgress({ startedAtMs: deps.clock.now(), ...init.start });
  }

  /** When the run started working (or was queued), for /status. */
  get startedAtMs(): number {
    return this.#state.startedAtMs;
  }

  progressMessage(): Promise<number | undefined> {
    return this.#progress;
  }

  /** Called with what submit said: starts the progress message, or says it is queued / refused. */
  begin(outcome: SubmitOutcome): void {
    if (outcome.state === "refused") {
      this.#finished = true;
      void this.#d.outbox.send(this.chatId, { html: `⏸ ${esc(outcome.reason)}` }, this.#replyToPrompt());
      return;
    }
    this.runId = outcome.runId;
    this.#cancelToken = this.#d.callbacks.register({ kind: "cancel", runId: outcome.runId }, this.chatId);
    this.#d.book.track(this);
    if (outcome.state === "queued") {
      this.#queued = true;
      const html = "⏳ Queued — will run after the current task.";
      this.#progress = this.#sendTracked(
        { html, keyboard: this.#cancelKeyboard() },
        { ...this.#replyToPrompt(), silent: true },
      );
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
    if (!this.#live) this.#goLive();
    if (event.type === "mode_changed") this.#d.cliModes.set(laneId(this.key), event.mode);
    this.#state = reduceProgress(this.#state, event, this.#d.clock.now());
    this.#recordProgressMessage();
    this.#markDirty();
  }

  /** The progress message, once sent, was re-sent under a new id (the person deleted it). */
  replaced(newMessageId: number): void {
    this.#progressId = newMessageId;
    this.#d.book.attachMessage(this, newMessageId);
    this.#progressRecorded = false;
    this.#recordProgressMessage();
  }

  #goLive(): void {
    this.#live = true;
    this.#state = { ...this.#state, startedAtMs: this.#d.clock.now(), lastEventAtMs: this.#d.clock.now() };
    this.#d.book.setLive(this);
    if (this.#queued) this.#markDirty();
    else {
      const html = renderProgressHtml(this.#state, this.#renderOptions(this.#d.clock.now()));
      this.#lastHtml = html;
      this.#lastEditAtMs = this.#d.clock.now();
      this.#progress = this.#sendTracked(
        { html, keyboard: this.#cancelKeyboard() },
        { ...this.#replyToPrompt(), silent: true },
      );
    }
    this.#scheduleHeartbeat();
  }

  #sendTracked(
    content: { html: string; keyboard?: InlineKeyboardMarkup | undefined },
    options: { replyTo?: number; silent?: boolean },
  ): Promise<number | undefined> {
    return this.#d.outbox
      .send(
        this.chatId,
        content.keyboard === undefined ? { html: content.html } : { html: content.html, keyboard: content.keyboard },
        options,
      )
      .then((delivery) => {
        if (!delivery.ok) {
          this.#d.logger.event(
            "telegram.progress_unsent",
            { chatId: this.chatId, runId: this.runId, code: delivery.code },
            "warn",
          );
          return undefined;
        }
        this.#progressId = delivery.messageId;
        this.#d.book.attachMessage(this, delivery.messageId);
        this.#recordProgressMessage();
        if (this.#live && !this.#finished) this.#markDirty();
        return delivery.messageId;
      });
  }

  /** The run's row exists only once the session layer started it; retried until it is there. */
  #recordProgressMessage(): void {
    if (this.#progressRecorded || this.#progressId === undefined || this.runId === undefined) return;
    try {
      this.#progressRecorded = this.#d.store.runs.setProgressMessage(this.runId, this.#progressId);
    } catch (error) {
      this.#d.logger.event("telegram.progress_record_failed", { err: error, runId: this.runId }, "error");
      this.#progressRecorded = true;
    }
  }

  #markDirty(): void {
    this.#dirty = true;
    if (this.#flushTimer !== undefined || this.#finished) return;
    const waitMs = Math.max(0, this.#lastRenderAtMs + this.#d.progressIntervalMs - this.#d.clock.now());
    this.#flushTimer = this.#d.clock.setTimer(waitMs, () => {
      this.#flushTimer = undefined;
      this.#render();
    });
  }

  #render(): void {
    if (!this.#dirty || this.#finished) return;
    if (this.#progressId === undefined) return; // rendered again once the message exists
    this.#dirty = false;
    const now = this.#d.clock.now();
    this.#lastRenderAtMs = now;
    this.#state = tickProgress(this.#state, now);
    const html = renderProgressHtml(this.#state, this.#renderOptions(now));
    if (html === this.#lastHtml) return;
    this.#lastHtml = html;
    this.#lastEditAtMs = now;
    const keyboard = this.#cancelKeyboard();
    void this.#d.outbox.edit(this.chatId, this.#progressId, keyboard === undefined ? { html } : { html, keyboard });
  }

  #scheduleHeartbeat(): void {
    const typingAfterMs = Math.min(TYPING_AFTER_MS, Math.round(this.#d.heartbeatMs * 0.4));
    this.#heartbeat = this.#d.clock.setTimer(Math.min(HEARTBEAT_CHECK_MS, this.#d.heartbeatMs / 2), () => {
      if (this.#finished) return;
      const now = this.#d.clock.now();
      const quietMs = now - this.#lastEditAtMs;
      if (quietMs >= this.#d.heartbeatMs) this.#markDirty();
      else if (
        quietMs >= typingAfterMs &&
        now - this.#lastTypingAtMs >= typingAfterMs &&
        (this.#state.phase === "working" || this.#state.phase === "starting")
      ) {
        this.#lastTypingAtMs = now;
        this.#d.outbox.typing(this.chatId);
      }
      this.#scheduleHeartbeat();
    });
  }

  #finish(completed: RunCompleted): void {
    const now = this.#d.clock.now();
    const unstarted = !this.#live;
    // A stop ends runs through the same cancel a person uses; during a stop it is an interruption.
    const interrupted = completed.interrupted && (!completed.cancelled || this.#d.isStopping()) && !unstarted;
    const event: RunCompleted = interrupted ? { ...completed, cancelled: false } : completed;
    this.#finished = true;
    this.#flushTimer?.cancel();
    this.#heartbeat?.cancel();
    if (this.#cancelToken !== undefined) this.#d.callbacks.settle(this.#cancelToken, "ended");
    this.#d.book.finished(this);
    this.#state = reduceProgress(this.#state, event, now);
    const log = { chatId: this.chatId, runId: event.runId, sessionId: event.sessionId };
    this.#d.logger.event("telegram.run_finished", {
      ...log,
      ok: event.ok,
      cancelled: event.cancelled,
      interrupted: event.interrupted,
    });
    if (event.ok) this.#sendAnswer(event);
    else if (!event.cancelled && !event.interrupted && !unstarted) this.#sendError(event);
    const summary = unstarted ? unstartedHtml(event) : renderProgressSummaryHtml(this.#state, now);
    const resume = interrupted ? resumeKeyboard(event.runId) : undefined;
    const html = resume !== undefined ? interruptedHtml(summary) : summary;
    void this.#progress.then((id) => {
      if (id === undefined) return;
      return this.#d.outbox.edit(
        this.chatId,
        this.#progressId ?? id,
        resume === undefined ? { html } : { html, keyboard: resume },
        { mustDeliver: interrupted },
      );
    });
  }

  #sendAnswer(event: RunCompleted): void {
    const parts = renderFinalAnswerParts(event.answer, answerFooterOf(this.#state));
    const session = event.sessionId ?? this.#state.sessionId;
    parts.forEach((html, index) => {
      // In a busy chat (a group, or after a queue) the answer quotes the message it answers.
      const quote = index === 0 && (this.#queued || this.chatId < 0);
      const options = { mustDeliver: true, ...(quote ? this.#replyToPrompt() : {}) };
      void this.#d.outbox.send(this.chatId, { html }, options).then((delivery) => {
        if (delivery.ok && session !== undefined)
          this.#d.book.rememberAnswer(this.chatId, delivery.messageId, {
            sessionId: session,
            project: this.key.project,
          });
      });
    });
    if (event.answer.length > DOCUMENT_ANSWER_CHARS) {
      void this.#d.outbox.sendDocument(
        this.chatId,
        {
          filename: "answer.md",
          data: Buffer.from(event.answer, "utf8"),
          captionHtml: "The whole answer as Markdown.",
        },
        { mustDeliver: true, silent: true },
      );
    }
  }

  #sendError(event: RunCompleted): void {
    const incidentId = randomBytes(3).toString("hex");
    const failure = event.error ?? UNEXPLAINED;
    this.#d.logger.event(
      "telegram.run_failed",
      {
        chatId: this.chatId,
        runId: event.runId,
        sessionId: event.sessionId,
        incidentId,
        reason: failure.reason,
        error: failureText(failure),
      },
      "error",
    );
    const html = renderRunErrorHtml({ what: excerpt(failure.what, 300), hint: excerpt(failure.hint, 300), incidentId });
    void this.#d.outbox.send(this.chatId, { html }, { mustDeliver: true });
  }

  #renderOptions(nowMs: number): { nowMs: number; clock?: ClockFormatter } {
    return this.#d.clockFormatter === undefined ? { nowMs } : { nowMs, clock: this.#d.clockFormatter };
  }

  #cancelKeyboard(): InlineKeyboardMarkup | undefined {
    if (this.#cancelToken === undefined) return undefined;
    return {
      inline_keyboard: [[{ text: "⏹ Cancel", callback_data: this.#d.callbacks.data(this.#cancelToken, "cancel") }]],
    };
  }

  #replyToPrompt(): { replyTo?: number } {
    return this.#init.promptMessageId === undefined ? {} : { replyTo: this.#init.promptMessageId };
  }
}

/** A queued message that never ran. */
function unstartedHtml(event: RunCompleted): string {
  if (event.cancelled) return "⏹ Cancelled before it started.";
  return `⚠️ ${esc(event.error === undefined ? "This message did not run." : failureText(event.error))}`;
}
