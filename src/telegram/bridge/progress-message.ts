// A run's progress message in Telegram: sent once, then edited at a steady pace with the latest
// state (coalesced: a burst of events is one edit), refreshed by a heartbeat while quiet,
// "typing…" shown while the run works, and its id recorded so a restart can find it again.
import type { InlineKeyboardMarkup } from "grammy/types";
import { definedFields } from "../../domain/index.js";
import type { Clock, Logger, TimerHandle } from "../../ports/index.js";
import type { Store } from "../../store/index.js";
import type { Outbox } from "../outbox.js";

/** Typing shows after this much quiet (Telegram shows it for 5 s), at most 40% of the heartbeat. */
const TYPING_AFTER_MS = 4000;
const HEARTBEAT_CHECK_MS = 2000;

export type ProgressMessageDeps = {
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  store: Store;
  /** Least time between two renders (ms). */
  progressIntervalMs: number;
  /** While nothing happens the message is refreshed this often (ms); typing shows after 40% of it. */
  heartbeatMs: number;
};

export type ProgressMessageInit = {
  chatId: number;
  /** The run's id once the session layer gave one. */
  runId: () => string | undefined;
  /** The message as it should read now, or undefined when there is nothing to show yet. */
  render: (nowMs: number) => { html: string; keyboard: InlineKeyboardMarkup | undefined };
  /** Whether the run is working (typing is shown only then). */
  isWorking: () => boolean;
  /** The message was sent or re-sent under a new id. */
  onMessage: (messageId: number) => void;
};

export class ProgressMessage {
  readonly #deps: ProgressMessageDeps;
  readonly #init: ProgressMessageInit;
  /** The run is working (not queued): a sent message is brought up to date at once. */
  live = false;
  #sent: Promise<number | undefined> = Promise.resolve(undefined);
  #id: number | undefined;
  #recorded = false;
  #stopped = false;
  #dirty = false;
  #lastRenderAtMs = Number.NEGATIVE_INFINITY;
  #lastEditAtMs = 0;
  #lastTypingAtMs = 0;
  /** What the message shows now (its text and buttons), so an unchanged render edits nothing. */
  #lastShown = "";
  #flushTimer: TimerHandle | undefined;
  #heartbeat: TimerHandle | undefined;

  constructor(deps: ProgressMessageDeps, init: ProgressMessageInit) {
    this.#deps = deps;
    this.#init = init;
  }

  /** Resolves with the message id once Telegram has it (undefined when it could not be sent). */
  get sent(): Promise<number | undefined> {
    return this.#sent;
  }

  /** The message id now (a re-send changes it). */
  get id(): number | undefined {
    return this.#id;
  }

  /** Sends the message (silently, as a reply to `replyTo`); later changes are edits. */
  send(content: { html: string; keyboard?: InlineKeyboardMarkup | undefined }, replyTo: number | undefined): void {
    if (this.live) {
      this.#lastShown = shownAs(content.html, content.keyboard);
      this.#lastEditAtMs = this.#deps.clock.now();
    }
    const message =
      content.keyboard === undefined ? { html: content.html } : { html: content.html, keyboard: content.keyboard };
    this.#sent = this.#deps.outbox
      .send(this.#init.chatId, message, { ...definedFields({ replyTo }), silent: true })
      .then((delivery) => {
        if (!delivery.ok) {
          this.#deps.logger.event(
            "telegram.progress_unsent",
            { chatId: this.#init.chatId, runId: this.#init.runId(), code: delivery.code },
            "warn",
          );
          return undefined;
        }
        this.#took(delivery.messageId);
        if (this.live && !this.#stopped) this.markDirty();
        return delivery.messageId;
      });
  }

  /** Uses a message that already shows the run (sent before a restart, or by the Telecode a kept run outlived) instead of sending one. */
  adopt(messageId: number): void {
    this.#sent = Promise.resolve(messageId);
    this.#took(messageId);
  }

  /** The message, once sent, was re-sent under a new id (the person deleted it). */
  replaced(newMessageId: number): void {
    this.#recorded = false;
    this.#took(newMessageId);
  }

  /** The state changed: render again when the pacing allows. */
  markDirty(): void {
    this.#dirty = true;
    if (this.#flushTimer !== undefined || this.#stopped) return;
    const waitMs = Math.max(0, this.#lastRenderAtMs + this.#deps.progressIntervalMs - this.#deps.clock.now());
    this.#flushTimer = this.#deps.clock.setTimer(waitMs, () => {
      this.#flushTimer = undefined;
      this.#render();
    });
  }

  /** Starts the heartbeat (the elapsed time moves, typing shows while quiet). */
  startHeartbeat(): void {
    const typingAfterMs = Math.min(TYPING_AFTER_MS, Math.round(this.#deps.heartbeatMs * 0.4));
    this.#heartbeat = this.#deps.clock.setTimer(Math.min(HEARTBEAT_CHECK_MS, this.#deps.heartbeatMs / 2), () => {
      if (this.#stopped) return;
      const now = this.#deps.clock.now();
      const quietMs = now - this.#lastEditAtMs;
      if (quietMs >= this.#deps.heartbeatMs) this.markDirty();
      else if (quietMs >= typingAfterMs && now - this.#lastTypingAtMs >= typingAfterMs && this.#init.isWorking()) {
        this.#lastTypingAtMs = now;
        this.#deps.outbox.typing(this.#init.chatId);
      }
      this.startHeartbeat();
    });
  }

  /** No more renders or heartbeats: the run is over (its last edit is the caller's). */
  stop(): void {
    this.#stopped = true;
    this.#flushTimer?.cancel();
    this.#heartbeat?.cancel();
  }

  /**
   * Records the message with the run (or with its request while it waits to start, which the
   * run's row takes over when it starts); retried at the next event until one of them is there.
   */
  record(): void {
    const runId = this.#init.runId();
    if (this.#recorded || this.#id === undefined || runId === undefined) return;
    const { store } = this.#deps;
    try {
      this.#recorded = store.runs.setProgressMessage(runId, this.#id) || store.queuedRuns.setMessage(runId, this.#id);
    } catch (error) {
      this.#deps.logger.event("telegram.progress_record_failed", { err: error, runId }, "error");
      this.#recorded = true;
    }
  }

  #took(messageId: number): void {
    this.#id = messageId;
    this.#init.onMessage(messageId);
    this.record();
  }

  #render(): void {
    if (!this.#dirty || this.#stopped) return;
    if (this.#id === undefined) return; // rendered again once the message exists
    this.#dirty = false;
    const now = this.#deps.clock.now();
    this.#lastRenderAtMs = now;
    const { html, keyboard } = this.#init.render(now);
    const shown = shownAs(html, keyboard);
    if (shown === this.#lastShown) return;
    this.#lastShown = shown;
    this.#lastEditAtMs = now;
    void this.#deps.outbox.edit(this.#init.chatId, this.#id, keyboard === undefined ? { html } : { html, keyboard });
  }
}

/** A message's text and buttons as one comparable string. */
function shownAs(html: string, keyboard: InlineKeyboardMarkup | undefined): string {
  return keyboard === undefined ? html : `${html}\n${JSON.stringify(keyboard.inline_keyboard)}`;
}
