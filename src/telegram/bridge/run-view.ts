// One run as the person sees it in Telegram: the progress message (with Cancel while queued or
// live), then the answer as new messages, an error with its incident id, or an interrupted note
// with Continue. A RunObserver: never awaits Telegram, so the session's events never wait on it.
// A kept run taken in after a restart carries on in the progress message it had.
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import {
  definedFields,
  MCP_SIGN_IN_NOTE,
  reduceProgress,
  SESSION_GONE_NOTE,
  startProgress,
  tickProgress,
  type ClockFormatter,
  type FailureReason,
  type Lane,
  type NoteEmitted,
  type ProgressState,
  type RunCompleted,
  type StepUsage,
  type TelecodeEvent,
} from "../../domain/index.js";
import { escapeTelegramHtml as esc, renderProgressHtml, renderProgressSummaryHtml } from "../../render/index.js";
import type { RunObserver, SubmitOutcome } from "../../sessions/index.js";
import type { McpSignIns } from "./mcp-sign-in.js";
import { showSummary } from "./pending-summaries.js";
import { ProgressMessage, type ProgressMessageDeps } from "./progress-message.js";
import { deliverProjectOutbox, type ProjectOutboxDeps } from "./project-outbox.js";
import { endedSummaryHtml, resumeKeyboard, retryKeyboard, runAgain, type RunAgain } from "./resume-button.js";
import { sendAnswer, sendRunError, unstartedHtml, type ResultTarget } from "./run-results.js";
import type { RunIndex } from "./run-index.js";
import { runButtonData } from "./run-token.js";

export const CANCEL_CHOICE = "cancel";

export const QUEUED_HTML = "⏳ Queued — will run after the current task.";

export type RunViewDeps = ProgressMessageDeps & {
  runs: RunIndex<RunView>;
  /** The bridge is stopping: runs ended now were interrupted by the stop, not cancelled by a person. */
  isStopping: () => boolean;
  /** Shows when a rate-limit wait ends, in the machine's time zone. */
  clockFormatter?: ClockFormatter;
  /** Reads the project's outbox after a run. */
  media: ProjectOutboxDeps["media"];
  /** Whether the chat is a group's (a forum topic of a group too; not one of a private chat). */
  inGroup: (chatId: number) => boolean;
  /** Offers the sign-in to MCP servers that wait for one. */
  signIns: Pick<McpSignIns, "offer">;
  /** Told of each answer sent: Claude Code's guess at the next message goes under it (suggestions.ts). */
  suggestions: { answered(lane: Lane, answer: SentAnswer): void };
};

/** An answer on its way: its last message once delivered (undefined if it was not), and its session. */
export type SentAnswer = { chatId: number; sessionId: string; lastMessage: Promise<number | undefined> };

export type RunViewInit = {
  chatId: number;
  lane: Lane;
  /** The person's message that asked for this run. */
  promptMessageId: number | undefined;
  /** A message that already shows this run (sent before a restart): edited instead of sending a new one. */
  messageId?: number | undefined;
  /** What the footer shows until the CLI reports its own, and the project's directory (paths are shown relative to it). */
  start: { mode: string; model?: string; effort?: string; cwd: string };
  /** A line (HTML) above the progress and its summary: who started a run no person asked for. */
  titleHtml?: string;
  /**
   * Buttons under the Cancel button and on the summary, asked for at each edit: a schedule's
   * Pause or Resume and Stop as the schedule is now (none once it ended).
   */
  buttons?: () => InlineKeyboardButton[][];
  /** false: no Cancel button (a turn the CLI started itself is no run to cancel). Default true. */
  cancellable?: boolean;
  /** The answer or error quotes the progress message (it says which schedule it is for). */
  quoteProgress?: boolean;
  /** Told once, with the run's completion, after the answer was handed to the outbox. */
  onFinished?: (completed: RunCompleted) => void;
  /** Told each model call's tokens while the run goes on ([budget], a trigger's per-run cost cap). */
  onStep?: (step: StepUsage, runId: string) => void;
  /** Failures the caller handles itself and says so (a schedule's lost session): no error message. */
  quietFailures?: readonly FailureReason[];
  /** The project whose outbox is sent after the answer (what Claude put in .telecode/outbox/). */
  projectRoot?: string;
};

export class RunView implements RunObserver {
  readonly chatId: number;
  readonly lane: Lane;
  readonly promptMessageId: number | undefined;
  runId: string | undefined;
  /** Someone tapped Cancel: later taps read "Already cancelling". */
  cancelRequested = false;
  readonly #deps: RunViewDeps;
  readonly #init: RunViewInit;
  readonly #progress: ProgressMessage;
  #state: ProgressState;
  #queued = false;
  #submitted: SubmitOutcome["state"] | undefined;
  #finished = false;

  constructor(deps: RunViewDeps, init: RunViewInit) {
    this.#deps = deps;
    this.#init = init;
    this.chatId = init.chatId;
    this.lane = init.lane;
    this.promptMessageId = init.promptMessageId;
    this.#state = startProgress({ startedAtMs: deps.clock.now(), ...init.start });
    this.#progress = new ProgressMessage(deps, {
      chatId: init.chatId,
      runId: () => this.runId,
      render: (nowMs) => {
        this.#state = tickProgress(this.#state, nowMs);
        return {
          html: this.#titled(renderProgressHtml(this.#state, this.#renderOptions(nowMs))),
          keyboard: this.#cancelKeyboard(),
        };
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

  /** What submit said (started, queued behind the lane's runs, refused); undefined before `begin`. */
  get submitted(): SubmitOutcome["state"] | undefined {
    return this.#submitted;
  }

  /**
   * A run taken in after a restart (its kept process ran on): the progress message it had is
   * edited from now on (a new one is sent when it had none), and the time counts from its start.
   */
  resume(kept: { runId: string; progressMessageId: number | undefined; startedAtMs: number }): void {
    this.runId = kept.runId;
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
    this.#end();
  }

  /**
   * Ends a view with a title and nothing else to show (a turn in which Claude Code only reported
   * a task's end): the progress message becomes the title alone; no summary line, no answer.
   */
  settle(): void {
    if (this.#finished) return;
    this.#end();
    const html = this.#init.titleHtml ?? "";
    void this.#progress.sent.then((id) => {
      if (id === undefined || html === "") return;
      return showSummary(
        this.#deps,
        { chatId: this.chatId, messageId: this.#progress.id ?? id, runId: this.runId ?? "" },
        { html },
      );
    });
  }

  /** Called with what submit said: starts the progress message, or says it is queued / refused. */
  begin(outcome: SubmitOutcome): void {
    this.#submitted = outcome.state;
    if (outcome.state === "refused") {
      this.#finished = true;
      void this.#deps.outbox.send(
        this.chatId,
        { html: this.#titled(`⏸ ${esc(outcome.reason)}`) },
        this.#replyToPrompt(),
      );
      return;
    }
    this.runId = outcome.runId;
    this.#deps.runs.track(this);
    const shown = this.#init.messageId;
    if (shown !== undefined) this.#progress.adopt(shown);
    if (outcome.state === "queued") {
      this.#queued = true;
      // A run nobody asked for in the chat (a webhook's) says what it is while it waits, too.
      const html = this.#titled(QUEUED_HTML);
      const keyboard = this.#cancelKeyboard();
      if (shown === undefined) this.#progress.send({ html, keyboard }, this.#init.promptMessageId);
      else void this.#deps.outbox.edit(this.chatId, shown, keyboard ? { html, keyboard } : { html });
      return;
    }
    this.#goLive();
  }

  onEvent(event: TelecodeEvent): void {
    // A guess at the next message that reaches a run came before it: the conversation moved on.
    if (this.#finished || event.type === "prompt_suggested") return;
    if (event.type === "run_completed") {
      this.#finish(event);
      return;
    }
    if (event.type === "step_usage" && this.runId !== undefined) this.#init.onStep?.(event, this.runId);
    // That the conversation starts over is worth a message of its own (the answer knows nothing
    // before it), and only that one: the progress message does not repeat it. So are MCP servers
    // waiting for a sign-in, with buttons that begin it, when the chat is offered them.
    const ownMessage = event.type === "note" && this.#saidApart(event);
    if (!this.#progress.live) this.#goLive();
    this.#deps.runs.observe(this.lane, event);
    if (ownMessage) return;
    this.#state = reduceProgress(this.#state, event, this.#deps.clock.now());
    this.#progress.record();
    this.#progress.markDirty();
  }

  /** The buttons `init.buttons` gives changed (a schedule was paused): the message shows them next. */
  buttonsChanged(): void {
    if (!this.#finished) this.#progress.markDirty();
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
    if (this.#queued || this.#init.messageId !== undefined) this.#progress.markDirty();
    else
      this.#progress.send(
        {
          html: this.#titled(renderProgressHtml(this.#state, this.#renderOptions(now))),
          keyboard: this.#cancelKeyboard(),
        },
        this.#init.promptMessageId,
      );
    this.#progress.startHeartbeat();
  }

  #finish(completed: RunCompleted): void {
    const now = this.#deps.clock.now();
    // A run refused at its start shows why in its progress message, even when that was sent.
    const unstarted = !this.#progress.live || completed.unstarted === true;
    // A stop ends runs through the same cancel a person uses; during a stop it is an interruption.
    const interrupted = completed.interrupted && (!completed.cancelled || this.#deps.isStopping()) && !unstarted;
    const event: RunCompleted = interrupted ? { ...completed, cancelled: false } : completed;
    this.#end();
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
    const say = this.#saysHowItEnded(event, this.#state, unstarted);
    // The answer or error, and the files Claude left, quote the same message. One that quotes its
    // progress message waits until that message exists; onFinished waits with it, so what the
    // run's end makes a trigger say (a loop's stop) comes after it.
    const tell = (to: ResultTarget): void => {
      say?.(to);
      if (this.#init.projectRoot !== undefined && !unstarted)
        void deliverProjectOutbox(this.#deps, to, this.#init.projectRoot).catch((error: unknown) =>
          this.#deps.logger.event("telegram.outbox_failed", { err: error, chatId: this.chatId }, "error"),
        );
    };
    const progressId = this.#progress.id;
    const quotesProgress = say !== undefined && this.#init.quoteProgress === true;
    const saidLater = quotesProgress && progressId === undefined;
    if (saidLater)
      void this.#progress.sent.then((id) => {
        try {
          tell({ ...target, quoteReplyTo: this.#progress.id ?? id });
        } finally {
          this.#init.onFinished?.(event);
        }
      });
    else tell(quotesProgress ? { ...target, quoteReplyTo: progressId } : target);
    if (!saidLater) this.#init.onFinished?.(event);
    const summary = this.#titled(unstarted ? unstartedHtml(event) : renderProgressSummaryHtml(this.#state, now));
    // Continue re-runs a person's request; a turn nobody asked for (not cancellable) has none.
    const resume = interrupted && this.#init.cancellable !== false ? resumeKeyboard(event.runId) : undefined;
    // Retry runs a request kept when a cause a person can mend refused its start (a spending cap).
    const retry = unstarted && event.error?.retry === true ? retryKeyboard(event.runId) : undefined;
    const html = endedSummaryHtml(summary, { interrupted, continuable: resume !== undefined, error: event.error });
    void this.#progress.sent.then((id) => {
      if (id === undefined) return;
      // A schedule's buttons stay (the summary is where its answer is found again), as they are
      // once onFinished has told the schedule how the run ended (a loop stopped has none).
      const rows = this.#init.buttons?.() ?? [];
      const keyboard = resume ?? retry ?? (rows.length === 0 ? undefined : { inline_keyboard: rows });
      const target = { chatId: this.chatId, messageId: this.#progress.id ?? id, runId: event.runId };
      return showSummary(this.#deps, target, keyboard === undefined ? { html } : { html, keyboard });
    });
  }

  /** The view shows no more of its run: no edits, and the index lets it go. */
  #end(): void {
    this.#finished = true;
    this.#progress.stop();
    this.#deps.runs.finished(this);
  }

  /** Sends the answer, or what went wrong; nothing when the run was cancelled, interrupted or is quiet. */
  #saysHowItEnded(
    event: RunCompleted,
    state: ProgressState,
    unstarted: boolean,
  ): ((target: ResultTarget) => void) | undefined {
    if (event.ok)
      return (target) => {
        const lastMessage = sendAnswer(this.#deps, target, event, state);
        const sessionId = event.sessionId ?? state.sessionId;
        if (sessionId !== undefined)
          this.#deps.suggestions.answered(this.lane, { chatId: this.chatId, sessionId, lastMessage });
      };
    if (event.cancelled || event.interrupted || unstarted || this.#isQuiet(event)) return undefined;
    return (target) => sendRunError(this.#deps, target, event, this.#runAgain(event));
  }

  /** A person's request can run again at a tap after some failures (a run nobody asked for cannot). */
  #runAgain(event: RunCompleted): RunAgain | undefined {
    return this.#init.cancellable === false ? undefined : runAgain(event.runId, event.error);
  }

  #renderOptions(nowMs: number): { nowMs: number; clock?: ClockFormatter } {
    return this.#deps.clockFormatter === undefined ? { nowMs } : { nowMs, clock: this.#deps.clockFormatter };
  }

  #isQuiet(event: RunCompleted): boolean {
    return event.error !== undefined && (this.#init.quietFailures ?? []).includes(event.error.reason);
  }

  #titled(html: string): string {
    return this.#init.titleHtml === undefined ? html : `${this.#init.titleHtml}\n${html}`;
  }

  #cancelKeyboard(): InlineKeyboardMarkup | undefined {
    const data =
      this.#init.cancellable === false || this.runId === undefined
        ? undefined
        : runButtonData(this.runId, CANCEL_CHOICE);
    const cancel = data === undefined ? [] : [[{ text: "⏹ Cancel", callback_data: data }]];
    const rows = [...cancel, ...(this.#init.buttons?.() ?? [])];
    return rows.length === 0 ? undefined : { inline_keyboard: rows };
  }

  /** Whether the note was said in a message of its own (see onEvent). */
  #saidApart(note: NoteEmitted): boolean {
    if (note.key === MCP_SIGN_IN_NOTE && note.servers !== undefined)
      return this.#deps.signIns.offer(this.lane, note.servers, this.#init.promptMessageId);
    if (note.key !== SESSION_GONE_NOTE) return false;
    void this.#deps.outbox.send(this.chatId, { html: `⚠️ ${esc(note.text)}` }, this.#replyToPrompt());
    return true;
  }

  #replyToPrompt(): { replyTo?: number } {
    return definedFields({ replyTo: this.#init.promptMessageId });
  }

  /**
   * In a busy chat (a group, after a queue, once another task was asked for since or worked
   * beside it) the answer quotes the message it answers.
   */
  #quoteReplyTo(): number | undefined {
    return this.#queued || this.#deps.inGroup(this.chatId) || this.#deps.runs.sharedChat(this)
      ? this.#init.promptMessageId
      : undefined;
  }
}
