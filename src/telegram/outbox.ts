// Every Bot API write goes through here: per-chat pacing and a global cap (outbox-pacing.ts),
// sends before edits, edits of one message coalesced, 429 honoured, transient failures retried
// with backoff (must-deliver items until they succeed), deleted messages re-sent.

import type { InlineKeyboardMarkup } from "grammy/types";
import { TELEGRAM_CAPTION_LIMIT } from "../render/index.js";
import { callBotApi } from "./outbox-calls.js";
import { assertSendable, classifyFailure, type CallFailure } from "./outbox-errors.js";
import { handleFailure, type FailureHost } from "./outbox-failures.js";
import { GlobalCap, WakeTimer } from "./outbox-pacing.js";
import { ReplyMemory } from "./outbox-replies.js";
import {
  ChatQueue,
  GlobalQueue,
  gone,
  jobBase,
  newPace,
  settle,
  type EditJob,
  type Job,
  type Pace,
  type SendJob,
  type Waiter,
} from "./outbox-queue.js";
import type {
  Delivery,
  EditOptions,
  MessageContent,
  OutboxOptions,
  OutboxStats,
  OutgoingFile,
  SendOptions,
} from "./outbox-types.js";

type OptionalHooks = "onMessageReplaced" | "chatMoves" | "chatTopics" | "onChatClosed";

/** A typing indicator older than this is not worth sending any more. */
const TYPING_STALE_MS = 4000;

export class Outbox {
  readonly #options: Required<Omit<OutboxOptions, OptionalHooks>> & Pick<OutboxOptions, OptionalHooks>;
  readonly #chats = new Map<number, ChatQueue>();
  /** Each Telegram chat's pacing, shared by the queues writing to it (a forum's topics share their group's). */
  readonly #paces = new Map<number, Pace>();
  /** What the chats' messages answered: it outlives a chat's queue, which is dropped when idle. */
  readonly #replies = new ReplyMemory();
  readonly #global = new GlobalQueue();
  readonly #cap: GlobalCap;
  readonly #wake: WakeTimer;
  readonly #idleWaiters: (() => void)[] = [];
  readonly #stats: OutboxStats = { calls: 0, retries: 0, rateLimited: 0, coalesced: 0, replaced: 0 };
  #inFlight = 0;
  #stopped = false;

  constructor(options: OutboxOptions) {
    this.#options = {
      privateIntervalMs: 1000,
      groupIntervalMs: 3000,
      globalPerSecond: 25,
      backoffMs: 500,
      maxBackoffMs: 30_000,
      maxAttempts: 5,
      random: Math.random,
      ...options,
    };
    this.#cap = new GlobalCap(this.#options.globalPerSecond);
    this.#wake = new WakeTimer(this.#options.clock, () => this.#pump());
  }

  /** Sends a new message; resolves with its id once Telegram has it. Throws OutboxError for HTML Telegram would refuse. */
  send(chatId: number, content: MessageContent, options: SendOptions = {}): Promise<Delivery> {
    assertSendable(content.html);
    return this.#enqueue((resolve) => {
      const job: SendJob = {
        ...jobBase(options.mustDeliver ?? false, resolve, options.urgent ?? false),
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
  edit(chatId: number, messageId: number, content: MessageContent, options: EditOptions = {}): Promise<Delivery> {
    assertSendable(content.html);
    return this.#queueEdit(
      chatId,
      messageId,
      { kind: "text", content },
      options.mustDeliver ?? false,
      options.urgent ?? false,
    );
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
    return this.#enqueue((resolve) => this.#chat(chatId).queueDelete(messageId, resolve));
  }

  /** Shows "typing…" if the chat has nothing else waiting; best effort, never retried. */
  typing(chatId: number): void {
    const chat = this.#chat(chatId);
    if (this.#stopped || !chat.isEmpty() || chat.inFlight) return;
    chat.typing = { ...jobBase(false), kind: "typing", queuedAtMs: this.#options.clock.now() };
    this.#pump();
  }

  /** Answers a button tap (the toast); goes before every chat's queue. Resolves false if Telegram refused it. */
  async answerCallback(queryId: string, answer: { text?: string; alert?: boolean } = {}): Promise<boolean> {
    const delivery = await this.#enqueue((resolve) => {
      this.#global.add({
        ...jobBase(false, resolve),
        kind: "callback",
        queryId,
        text: answer.text,
        alert: answer.alert ?? false,
      });
    });
    return delivery.ok;
  }

  sendDocument(chatId: number, document: OutgoingFile, options: SendOptions = {}): Promise<Delivery> {
    return this.#sendFile(chatId, "document", document, options);
  }

  /** An image shown in the chat (JPEG, PNG or WebP within Telegram's photo limits; else Telegram refuses it). */
  sendPhoto(chatId: number, photo: OutgoingFile, options: SendOptions = {}): Promise<Delivery> {
    return this.#sendFile(chatId, "photo", photo, options);
  }

  #sendFile(
    chatId: number,
    sendAs: "document" | "photo",
    document: OutgoingFile,
    options: SendOptions,
  ): Promise<Delivery> {
    if (document.captionHtml !== undefined) assertSendable(document.captionHtml, TELEGRAM_CAPTION_LIMIT);
    return this.#enqueue((resolve) => {
      this.#chat(chatId).ordered.push({
        ...jobBase(options.mustDeliver ?? false, resolve),
        kind: "document",
        sendAs,
        filename: document.filename,
        data: document.data,
        captionHtml: document.captionHtml,
        replyTo: options.replyTo,
        silent: options.silent ?? false,
      });
    });
  }

  setCommands(commands: readonly { command: string; description: string }[]): Promise<Delivery> {
    return this.#enqueue((resolve) => this.#global.add({ ...jobBase(false, resolve), kind: "commands", commands }));
  }

  /** Resolves when no call is in flight and nothing can go out before some timer fires. */
  idle(): Promise<void> {
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Items queued or in flight. */
  pending(): number {
    let count = this.#global.jobs.length + this.#inFlight;
    for (const chat of this.#chats.values()) count += chat.jobs().length;
    return count;
  }

  stats(): Readonly<OutboxStats> {
    return { ...this.#stats };
  }

  /** Stops sending: everything still queued resolves "stopped" (must-deliver items are logged as undelivered). */
  stop(): void {
    this.#stopped = true;
    this.#wake.cancel();
    const jobs: Job[] = [...this.#global.jobs.splice(0)];
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

  #queueEdit(
    chatId: number,
    messageId: number,
    change: EditJob["change"],
    must: boolean,
    urgent = false,
  ): Promise<Delivery> {
    return this.#enqueue((resolve) => {
      if (this.#chat(chatId).queueEditOf(messageId, change, must, resolve, urgent)) this.#stats.coalesced++;
    });
  }

  #chat(chatId: number): ChatQueue {
    let chat = this.#chats.get(chatId);
    if (chat === undefined) {
      const home = this.#homeOf(chatId);
      const pace = this.#paces.get(home) ?? newPace();
      this.#paces.set(home, pace);
      chat = new ChatQueue(chatId, pace);
      this.#chats.set(chatId, chat);
    }
    return chat;
  }

  /** Starts every call that may go out now, and sets one timer for the earliest that may not. */
  #pump(): void {
    if (this.#stopped) return;
    const now = this.#options.clock.now();
    let wakeAt: number;
    for (;;) {
      const next = this.#global.takeNext(now, this.#cap.slotAt(now));
      if ("wakeAt" in next) {
        wakeAt = next.wakeAt;
        break;
      }
      this.#dispatch(undefined, next.job, now);
    }
    for (const chat of this.#chats.values()) wakeAt = Math.min(wakeAt, this.#pumpChat(chat, now));
    for (const [chatId, chat] of this.#chats) if (this.#forgettable(chat, now)) this.#forget(chatId, chat);
    this.#wake.at(wakeAt, now);
    if (this.#inFlight === 0) for (const resolve of this.#idleWaiters.splice(0)) resolve();
  }

  /**
   * Starts the chat's next call if it may go now; returns when the next may go (Infinity: once a
   * call in flight comes back). What follows an upload is looked at too: it need not wait for it.
   */
  #pumpChat(chat: ChatQueue, now: number): number {
    for (;;) {
      const job = chat.head();
      if (job === undefined || chat.waits(job)) return Number.POSITIVE_INFINITY;
      if (job.kind === "typing" && now - job.queuedAtMs > TYPING_STALE_MS) {
        chat.take(job);
        continue;
      }
      const readyAt = Math.max(
        chat.readyAtMs(job, this.#intervalOf(chat)),
        chat.pausedUntilMs,
        job.notBeforeMs,
        this.#cap.slotAt(now),
      );
      if (readyAt > now) return readyAt;
      chat.take(job);
      this.#dispatch(chat, job, now);
    }
  }

  /** A chat with nothing queued, nothing to remember and no pacing left to honour. */
  #forgettable(chat: ChatQueue, now: number): boolean {
    return (
      chat.isEmpty() &&
      !chat.inFlight &&
      !chat.uploading &&
      chat.redirects.size === 0 &&
      now >= Math.max(chat.scheduleMs, chat.pausedUntilMs)
    );
  }

  #forget(chatId: number, chat: ChatQueue): void {
    this.#chats.delete(chatId);
    if (![...this.#chats.values()].some((other) => other.pace === chat.pace)) this.#paces.delete(this.#homeOf(chatId));
  }

  /** The Telegram chat (as kept) a chat's messages go to: a topic's forum, else itself. */
  #homeOf(chatId: number): number {
    return this.#options.chatTopics?.parentOf(chatId) ?? chatId;
  }

  #intervalOf(chat: ChatQueue): number {
    return this.#homeOf(chat.chatId) < 0 ? this.#options.groupIntervalMs : this.#options.privateIntervalMs;
  }

  #dispatch(chat: ChatQueue | undefined, job: Job, now: number): void {
    this.#inFlight++;
    this.#cap.record(now);
    this.#stats.calls++;
    job.attempts++;
    if (chat !== undefined) {
      chat.calling(job, true);
      chat.wrote(now, this.#intervalOf(chat));
    }
    callBotApi(this.#options.api, chat, job, this.#options)
      .then(
        (messageId) => this.#succeeded(chat, job, messageId),
        (error: unknown) => this.#failed(chat, job, classifyFailure(error)),
      )
      .finally(() => {
        this.#inFlight--;
        chat?.calling(job, false);
        this.#pump();
      })
      .catch((error: unknown) => this.#options.logger.event("outbox.internal_error", { err: error }, "error"));
  }

  #succeeded(chat: ChatQueue | undefined, job: Job, messageId: number | undefined): void {
    if (job.kind === "send" && job.replyTo !== undefined && messageId !== undefined && chat !== undefined)
      this.#replies.sent(chat.chatId, messageId, job.replyTo);
    if (job.kind === "send" && job.replaces !== undefined && chat !== undefined && messageId !== undefined) {
      chat.redirects.set(job.replaces, messageId);
      this.#stats.replaced++;
      this.#options.logger.event("outbox.replaced", { chatId: chat.chatId, oldMessageId: job.replaces, messageId });
      this.#options.onMessageReplaced?.(chat.chatId, job.replaces, messageId);
      settle(job, { ok: true, messageId, replaced: true });
      return;
    }
    settle(job, { ok: true, messageId: messageId ?? 0 });
  }

  #failed(chat: ChatQueue | undefined, job: Job, failure: CallFailure): void {
    if (this.#stopped) return this.#fail(job, { ok: false, code: "stopped", description: "the outbox stopped" });
    handleFailure(this.#failureHost(), chat, job, failure);
  }

  #failureHost(): FailureHost {
    const { maxAttempts, backoffMs, maxBackoffMs, random } = this.#options;
    return {
      now: this.#options.clock.now(),
      logger: this.#options.logger,
      stats: this.#stats,
      retrying: { maxAttempts, backoffMs, maxBackoffMs, random },
      pause: (chat, job, untilMs) => {
        if (chat !== undefined) chat.pauseUntil(untilMs);
        else if (job.kind === "callback" || job.kind === "commands") this.#global.pause(job.kind, untilMs);
      },
      retry: (chat, job) => {
        this.#stats.retries++;
        if (job.kind === "callback" || job.kind === "commands") this.#global.requeue(job);
        else chat?.requeue(job);
      },
      resend: (chat, job) => this.#resend(chat, job),
      moved: (chat, toChatId) => {
        const moves = this.#options.chatMoves;
        if (chat === undefined || moves === undefined) return false;
        moves.record(this.#homeOf(chat.chatId), toChatId);
        return true;
      },
      topicRefused: (chat, closed) =>
        chat !== undefined && this.#options.chatTopics?.refused(chat.chatId, closed) === true,
      closed: (chat, description, muted) => {
        if (chat !== undefined) this.#options.onChatClosed?.(chat.chatId, description, muted);
      },
      fail: (job, delivery) => this.#fail(job, delivery),
    };
  }

  /** The message to edit is gone (the person deleted it): its latest text goes out as a new message. */
  #resend(chat: ChatQueue | undefined, job: Job): void {
    if (chat === undefined || job.kind !== "edit" || job.change.kind !== "text")
      return settle(job, gone("message to edit not found"));
    chat.resend(job, job.change.content, this.#replies.answeredBy(chat.chatId, job.messageId));
    this.#options.logger.event("outbox.resending", { chatId: chat.chatId, oldMessageId: job.messageId });
  }

  #fail(job: Job, delivery: Extract<Delivery, { ok: false }>): void {
    if (job.must)
      this.#options.logger.event(
        "outbox.undelivered",
        { kind: job.kind, code: delivery.code, description: delivery.description },
        "error",
      );
    settle(job, delivery);
  }
}
