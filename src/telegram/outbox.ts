// Every Bot API write goes through here: per-chat pacing and a global cap, sends before
// edits, edits of one message coalesced, 429 honoured, transient failures retried with
// backoff (must-deliver items until they succeed), deleted messages re-sent.

import type { InlineKeyboardMarkup } from "grammy/types";
import type { Clock, Logger, TimerHandle } from "../ports/index.js";
import { TELEGRAM_CAPTION_LIMIT, validateTelegramHtml } from "../render/index.js";
import { callBotApi } from "./outbox-calls.js";
import { classifyFailure, OutboxError, type CallFailure } from "./outbox-errors.js";
import {
  ChatQueue,
  jobBase,
  settle,
  withKeyboard,
  type EditJob,
  type GlobalJob,
  type Job,
  type SendJob,
  type Waiter,
} from "./outbox-queue.js";
import type { Delivery, MessageContent, OutboxApi, OutboxStats, SendOptions } from "./outbox-types.js";

export type OutboxOptions = {
  api: OutboxApi;
  clock: Clock;
  logger: Logger;
  /** Least time between two writes to one private chat (default 1000 ms: Telegram's ~1 message/s). */
  privateIntervalMs?: number;
  /** Least time between two writes to one group (default 3000 ms: Telegram's 20 messages/min). */
  groupIntervalMs?: number;
  /** Writes per second over all chats (default 25, under Telegram's 30). */
  globalPerSecond?: number;
  /** First retry delay after a 5xx or network failure, doubled each time up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Attempts an ordinary item gets against transient failures (must-deliver items: unlimited). */
  maxAttempts?: number;
  /** 0..1, for jitter; tests pass a constant. */
  random?: () => number;
  /** A deleted message was re-sent: edits of `oldId` now go to `newId`. */
  onMessageReplaced?: (chatId: number, oldId: number, newId: number) => void;
};

/** A typing indicator older than this is not worth sending any more. */
const TYPING_STALE_MS = 4000;

export class Outbox {
  readonly #o: Required<Omit<OutboxOptions, "onMessageReplaced">> & Pick<OutboxOptions, "onMessageReplaced">;
  readonly #chats = new Map<number, ChatQueue>();
  readonly #global: GlobalJob[] = [];
  readonly #recent: number[] = [];
  readonly #idleWaiters: (() => void)[] = [];
  readonly #stats: OutboxStats = { calls: 0, retries: 0, rateLimited: 0, coalesced: 0, replaced: 0 };
  #globalPausedUntilMs = 0;
  #inFlight = 0;
  #timer: { atMs: number; handle: TimerHandle } | undefined;
  #stopped = false;

  constructor(options: OutboxOptions) {
    this.#o = {
      privateIntervalMs: 1000,
      groupIntervalMs: 3000,
      globalPerSecond: 25,
      backoffMs: 500,
      maxBackoffMs: 30_000,
      maxAttempts: 5,
      random: Math.random,
      ...options,
    };
  }

  /** Sends a new message; resolves with its id once Telegram has it. Throws OutboxError for HTML Telegram would refuse. */
  send(chatId: number, content: MessageContent, options: SendOptions = {}): Promise<Delivery> {
    assertSendable(content.html);
    return this.#enqueue((resolve) => {
      const job: SendJob = {
        ...jobBase(options.mustDeliver ?? false, resolve),
        kind: "send",
        content,
        replyTo: options.replyTo,
        silent: options.silent ?? false,
        replaces: undefined,
      };
      this.#chat(chatId).ordered.push(job);
    });
  }

  /** Replaces a message's text and keyboard (no keyboard: buttons removed); only the latest pending edit goes out. */
  edit(
    chatId: number,
    messageId: number,
    content: MessageContent,
    options: { mustDeliver?: boolean } = {},
  ): Promise<Delivery> {
    assertSendable(content.html);
    return this.#queueEdit(chatId, messageId, { kind: "text", content }, options.mustDeliver ?? false);
  }

  /** Replaces only a message's buttons (undefined: removes them). */
  editKeyboard(
    chatId: number,
    messageId: number,
    keyboard: InlineKeyboardMarkup | undefined,
    options: { mustDeliver?: boolean } = {},
  ): Promise<Delivery> {
    return this.#queueEdit(chatId, messageId, { kind: "keyboard", keyboard }, options.mustDeliver ?? false);
  }

  delete(chatId: number, messageId: number): Promise<Delivery> {
    return this.#enqueue((resolve) => {
      const chat = this.#chat(chatId);
      const target = chat.target(messageId);
      const queued = typeof target === "number" ? -1 : chat.ordered.indexOf(target);
      if (typeof target !== "number" && queued >= 0) {
        chat.ordered.splice(queued, 1);
        settle(target, gone("deleted before it was re-sent"));
        resolve({ ok: true, messageId });
        return;
      }
      for (const id of [messageId, target]) {
        const pending = typeof id === "number" ? chat.edits.get(id) : undefined;
        if (pending !== undefined) {
          chat.edits.delete(pending.messageId);
          settle(pending, gone("deleted"));
        }
      }
      // The id is resolved when the call is made: a re-send in flight has its new id by then.
      chat.ordered.push({ ...jobBase(false, resolve), kind: "delete", messageId });
    });
  }

  /** Shows "typing…" if the chat has nothing else waiting; best effort, never retried. */
  typing(chatId: number): void {
    const chat = this.#chat(chatId);
    if (this.#stopped || !chat.isEmpty() || chat.inFlight) return;
    chat.typing = { ...jobBase(false), kind: "typing", queuedAtMs: this.#o.clock.now() };
    this.#pump();
  }

  /** Answers a button tap (the toast); goes before every chat's queue. Resolves false if Telegram refused it. */
  async answerCallback(queryId: string, answer: { text?: string; alert?: boolean } = {}): Promise<boolean> {
    const delivery = await this.#enqueue((resolve) => {
      const firstOther = this.#global.findIndex((job) => job.kind !== "callback");
      const job: GlobalJob = {
        ...jobBase(false, resolve),
        kind: "callback",
        queryId,
        text: answer.text,
        alert: answer.alert ?? false,
      };
      this.#global.splice(firstOther < 0 ? this.#global.length : firstOther, 0, job);
    });
    return delivery.ok;
  }

  sendDocument(
    chatId: number,
    document: { filename: string; data: Uint8Array; captionHtml?: string },
    options: SendOptions = {},
  ): Promise<Delivery> {
    if (document.captionHtml !== undefined) assertSendable(document.captionHtml, TELEGRAM_CAPTION_LIMIT);
    return this.#enqueue((resolve) => {
      this.#chat(chatId).ordered.push({
        ...jobBase(options.mustDeliver ?? false, resolve),
        kind: "document",
        filename: document.filename,
        data: document.data,
        captionHtml: document.captionHtml,
        replyTo: options.replyTo,
        silent: options.silent ?? false,
      });
    });
  }

  setCommands(commands: readonly { command: string; description: string }[]): Promise<Delivery> {
    return this.#enqueue((resolve) => this.#global.push({ ...jobBase(false, resolve), kind: "commands", commands }));
  }

  /** Resolves when no call is in flight and nothing can go out before some timer fires. */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Items queued or in flight. */
  pending(): number {
    let count = this.#global.length + this.#inFlight;
    for (const chat of this.#chats.values()) count += chat.jobs().length;
    return count;
  }

  stats(): Readonly<OutboxStats> {
    return { ...this.#stats };
  }

  /** Stops sending: everything still queued resolves "stopped" (must-deliver items are logged as undelivered). */
  stop(): void {
    this.#stopped = true;
    this.#timer?.handle.cancel();
    this.#timer = undefined;
    const jobs: Job[] = [...this.#global.splice(0)];
    for (const chat of this.#chats.values()) {
      jobs.push(...chat.jobs());
      chat.ordered.splice(0);
      chat.edits.clear();
      chat.typing = undefined;
    }
    for (const job of jobs) this.#fail(job, { ok: false, code: "stopped", description: "the outbox stopped" });
  }

  #enqueue(add: (resolve: Waiter) => void): Promise<Delivery> {
    if (this.#stopped) return Promise.resolve({ ok: false, code: "stopped", description: "the outbox stopped" });
    return new Promise<Delivery>((resolve) => {
      add(resolve);
      this.#pump();
    });
  }

  #queueEdit(chatId: number, messageId: number, change: EditJob["change"], must: boolean): Promise<Delivery> {
    return this.#enqueue((resolve) => {
      const chat = this.#chat(chatId);
      const target = chat.target(messageId);
      if (typeof target !== "number" && chat.ordered.includes(target)) {
        // The message waits to be re-sent: the re-send carries this latest state instead.
        target.content = change.kind === "text" ? change.content : withKeyboard(target.content, change.keyboard);
        target.must ||= must;
        target.waiters.push(resolve);
        this.#stats.coalesced++;
        return;
      }
      const id = typeof target === "number" ? target : messageId; // a re-send in flight: resolved at call time
      if (chat.queueEdit({ ...jobBase(must, resolve), kind: "edit", messageId: id, change })) this.#stats.coalesced++;
    });
  }

  #chat(chatId: number): ChatQueue {
    let chat = this.#chats.get(chatId);
    if (chat === undefined) {
      chat = new ChatQueue(chatId);
      this.#chats.set(chatId, chat);
    }
    return chat;
  }

  /** Starts every call that may go out now, and sets one timer for the earliest that may not. */
  #pump(): void {
    if (this.#stopped) return;
    const now = this.#o.clock.now();
    let wakeAt = Number.POSITIVE_INFINITY;
    while (this.#global.length > 0) {
      const job = this.#global[0]!;
      const readyAt = Math.max(job.notBeforeMs, this.#globalPausedUntilMs, this.#globalSlotAt(now));
      if (readyAt > now) {
        wakeAt = Math.min(wakeAt, readyAt);
        break;
      }
      this.#global.shift();
      this.#dispatch(undefined, job, now);
    }
    for (const chat of this.#chats.values()) {
      const job = chat.head();
      if (job === undefined || chat.inFlight) continue;
      if (job.kind === "typing" && now - job.queuedAtMs > TYPING_STALE_MS) {
        chat.take(job);
        continue;
      }
      const interval = chat.chatId < 0 ? this.#o.groupIntervalMs : this.#o.privateIntervalMs;
      const readyAt = Math.max(
        chat.lastDispatchMs + interval,
        chat.pausedUntilMs,
        this.#globalPausedUntilMs,
        job.notBeforeMs,
        this.#globalSlotAt(now),
      );
      if (readyAt > now) {
        wakeAt = Math.min(wakeAt, readyAt);
        continue;
      }
      chat.take(job);
      this.#dispatch(chat, job, now);
    }
    for (const [chatId, chat] of this.#chats) if (this.#forgettable(chat, now)) this.#chats.delete(chatId);
    this.#schedule(wakeAt, now);
    if (this.#inFlight === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /** A chat with nothing queued, nothing to remember and no pacing left to honour. */
  #forgettable(chat: ChatQueue, now: number): boolean {
    const interval = chat.chatId < 0 ? this.#o.groupIntervalMs : this.#o.privateIntervalMs;
    return (
      chat.isEmpty() &&
      !chat.inFlight &&
      chat.redirects.size === 0 &&
      now >= Math.max(chat.lastDispatchMs + interval, chat.pausedUntilMs)
    );
  }

  /** When the global cap next has room. */
  #globalSlotAt(now: number): number {
    while (this.#recent.length > 0 && this.#recent[0]! <= now - 1000) this.#recent.shift();
    return this.#recent.length < this.#o.globalPerSecond
      ? now
      : this.#recent[this.#recent.length - this.#o.globalPerSecond]! + 1000;
  }

  #schedule(atMs: number, now: number): void {
    if (this.#timer !== undefined && this.#timer.atMs <= atMs && this.#timer.atMs > now) return;
    this.#timer?.handle.cancel();
    this.#timer = undefined;
    if (atMs === Number.POSITIVE_INFINITY) return;
    const handle = this.#o.clock.setTimer(Math.max(0, atMs - now), () => {
      this.#timer = undefined;
      this.#pump();
    });
    this.#timer = { atMs, handle };
  }

  #dispatch(chat: ChatQueue | undefined, job: Job, now: number): void {
    this.#inFlight++;
    this.#recent.push(now);
    this.#stats.calls++;
    job.attempts++;
    if (chat !== undefined) {
      chat.inFlight = true;
      chat.lastDispatchMs = now;
    }
    callBotApi(this.#o.api, chat, job)
      .then(
        (messageId) => this.#succeeded(chat, job, messageId),
        (error: unknown) => this.#failed(chat, job, classifyFailure(error)),
      )
      .finally(() => {
        this.#inFlight--;
        if (chat !== undefined) chat.inFlight = false;
        this.#pump();
      })
      .catch((error: unknown) => this.#o.logger.event("outbox.internal_error", { err: error }, "error"));
  }

  #succeeded(chat: ChatQueue | undefined, job: Job, messageId: number | undefined): void {
    if (job.kind === "send" && job.replaces !== undefined && chat !== undefined && messageId !== undefined) {
      chat.redirects.set(job.replaces, messageId);
      this.#stats.replaced++;
      this.#o.logger.event("outbox.replaced", { chatId: chat.chatId, oldMessageId: job.replaces, messageId });
      this.#o.onMessageReplaced?.(chat.chatId, job.replaces, messageId);
      settle(job, { ok: true, messageId, replaced: true });
      return;
    }
    settle(job, { ok: true, messageId: messageId ?? 0 });
  }

  #failed(chat: ChatQueue | undefined, job: Job, failure: CallFailure): void {
    const now = this.#o.clock.now();
    const fields = { chatId: chat?.chatId, kind: job.kind, attempt: job.attempts, must: job.must };
    if (this.#stopped) return this.#fail(job, { ok: false, code: "stopped", description: "the outbox stopped" });
    switch (failure.kind) {
      case "retry_after":
        this.#stats.rateLimited++;
        job.attempts--; // Telegram asked us to wait; that is not a failed attempt
        if (chat === undefined) this.#globalPausedUntilMs = Math.max(this.#globalPausedUntilMs, now + failure.waitMs);
        else chat.pausedUntilMs = Math.max(chat.pausedUntilMs, now + failure.waitMs);
        this.#o.logger.event("outbox.rate_limited", { ...fields, waitMs: failure.waitMs }, "warn");
        return this.#retry(chat, job, now);
      case "not_modified":
      case "delete_target_gone":
        return settle(job, { ok: true, messageId: job.kind === "edit" || job.kind === "delete" ? job.messageId : 0 });
      case "edit_target_gone":
        return this.#resend(chat, job);
      case "reply_target_gone":
        if (job.kind === "send" || job.kind === "document") job.replyTo = undefined;
        return this.#retry(chat, job, now);
      case "parse_error":
        this.#o.logger.event("outbox.parse_error", { ...fields, description: failure.description }, "error");
        if (job.plain || !(job.kind === "send" || job.kind === "edit" || job.kind === "document")) break;
        job.plain = true;
        return this.#retry(chat, job, now);
      case "transient": {
        const limit = job.kind === "callback" ? 3 : this.#o.maxAttempts;
        if (!job.must && job.attempts >= limit) {
          this.#o.logger.event("outbox.gave_up", { ...fields, description: failure.description }, "warn");
          return this.#fail(job, {
            ok: false,
            code: "gave_up",
            description: failure.description,
            ...(failure.errorCode === undefined ? {} : { errorCode: failure.errorCode }),
          });
        }
        const delay =
          Math.min(this.#o.maxBackoffMs, this.#o.backoffMs * 2 ** Math.min(job.attempts - 1, 20)) *
          (0.75 + this.#o.random() * 0.5);
        job.notBeforeMs = now + delay;
        this.#o.logger.event(
          "outbox.retry",
          { ...fields, delayMs: Math.round(delay), description: failure.description },
          job.must ? "warn" : "debug",
        );
        return this.#retry(chat, job, now);
      }
      case "rejected":
        break;
      default:
        break;
    }
    const description = failure.kind === "parse_error" || failure.kind === "rejected" ? failure.description : "refused";
    const errorCode = failure.kind === "rejected" ? failure.errorCode : 400;
    this.#o.logger.event("outbox.rejected", { ...fields, description }, job.must ? "error" : "warn");
    this.#fail(job, { ok: false, code: "rejected", description, ...(errorCode === undefined ? {} : { errorCode }) });
  }

  #retry(chat: ChatQueue | undefined, job: Job, _now: number): void {
    this.#stats.retries++;
    if (job.kind === "callback" || job.kind === "commands") this.#global.unshift(job);
    else chat?.requeue(job);
  }

  /** The message to edit is gone (the person deleted it): its latest text goes out as a new message. */
  #resend(chat: ChatQueue | undefined, job: Job): void {
    if (chat === undefined || job.kind !== "edit" || job.change.kind !== "text")
      return settle(job, gone("message to edit not found"));
    const pending = chat.edits.get(job.messageId);
    if (pending !== undefined) chat.edits.delete(job.messageId);
    const latest =
      pending !== undefined && pending.change.kind === "text" ? pending.change.content : job.change.content;
    const resend: SendJob = {
      ...jobBase(job.must || (pending?.must ?? false)),
      kind: "send",
      content: latest,
      replyTo: undefined,
      silent: true,
      replaces: job.messageId,
    };
    resend.waiters.push(...job.waiters.splice(0), ...(pending?.waiters.splice(0) ?? []));
    chat.redirects.set(job.messageId, resend);
    chat.ordered.push(resend);
    this.#o.logger.event("outbox.resending", { chatId: chat.chatId, oldMessageId: job.messageId });
  }

  #fail(job: Job, delivery: Extract<Delivery, { ok: false }>): void {
    if (job.must)
      this.#o.logger.event(
        "outbox.undelivered",
        { kind: job.kind, code: delivery.code, description: delivery.description },
        "error",
      );
    settle(job, delivery);
  }
}

function gone(description: string): Delivery {
  return { ok: false, code: "gone", description };
}

function assertSendable(html: string, limit?: number): void {
  const problem = validateTelegramHtml(html, limit);
  if (problem === undefined) return;
  const why =
    problem.kind === "parse"
      ? problem.error
      : problem.kind === "empty"
        ? "the text is empty"
        : `the text is ${problem.length} characters, over ${problem.limit}`;
  throw new OutboxError(
    "telegram.invalid_message",
    `Telegram would refuse this message (${why}); render it with src/render before sending.`,
  );
}
