// The outbox's queues. Per chat: sends in order, then edits keyed by message (the latest state
// wins), then typing, and which deleted messages were re-sent as what. Calls that concern no
// chat (toasts, the menu) wait in one queue, each method paused on its own. No I/O.

import type { InlineKeyboardMarkup } from "grammy/types";
import type { Delivery, MessageContent } from "./outbox-types.js";

export type Waiter = (delivery: Delivery) => void;

type JobBase = {
  must: boolean;
  /** What the person waits for: may use the chat's headroom (see ChatQueue.readyAtMs). */
  urgent: boolean;
  attempts: number;
  notBeforeMs: number;
  waiters: Waiter[];
  /** Set once Telegram could not parse the HTML: the job goes out as plain text. */
  plain: boolean;
};

export type SendJob = JobBase & {
  kind: "send";
  content: MessageContent;
  replyTo: number | undefined;
  silent: boolean;
  /** The id of the (deleted) message this send replaces, if it re-sends an edit. */
  replaces: number | undefined;
};

export type DocumentJob = JobBase & {
  kind: "document";
  /** sendPhoto shows an image in the chat; sendDocument sends any file as it is. */
  sendAs: "document" | "photo";
  filename: string;
  data: Uint8Array;
  captionHtml: string | undefined;
  replyTo: number | undefined;
  silent: boolean;
};

export type EditJob = JobBase & {
  kind: "edit";
  messageId: number;
  /** A text edit sets the whole message; a keyboard edit only its buttons. */
  change: { kind: "text"; content: MessageContent } | { kind: "keyboard"; keyboard: InlineKeyboardMarkup | undefined };
};

export type DeleteJob = JobBase & { kind: "delete"; messageId: number };
export type TypingJob = JobBase & { kind: "typing"; queuedAtMs: number };
export type CallbackJob = JobBase & { kind: "callback"; queryId: string; text: string | undefined; alert: boolean };
export type CommandsJob = JobBase & { kind: "commands"; commands: readonly { command: string; description: string }[] };

export type OrderedJob = SendJob | DocumentJob | DeleteJob;
export type ChatJob = OrderedJob | EditJob | TypingJob;
export type GlobalJob = CallbackJob | CommandsJob;
export type Job = ChatJob | GlobalJob;

/**
 * An urgent write's headroom falls short of a whole interval by this much, so an ordinary
 * write and two urgent ones (an answer, a summary) never land in one interval, jitter included.
 */
const URGENT_MARGIN_MS = 20;

export function jobBase(must: boolean, waiter?: Waiter, urgent = false): JobBase {
  return { must, urgent, attempts: 0, notBeforeMs: 0, waiters: waiter === undefined ? [] : [waiter], plain: false };
}

/**
 * A Telegram chat's pacing as a virtual schedule (GCRA): every write moves it one interval on.
 * An ordinary write goes once the clock reaches it, so ordinary writes keep the interval; an
 * urgent one almost one interval earlier. The average stays one write per interval, and a final
 * answer does not wait for the slot a progress edit just took. Telegram's own 429 pauses it.
 */
export type Pace = { scheduleMs: number; pausedUntilMs: number };

export function newPace(): Pace {
  return { scheduleMs: Number.NEGATIVE_INFINITY, pausedUntilMs: 0 };
}

export class ChatQueue {
  readonly ordered: OrderedJob[] = [];
  readonly edits = new Map<number, EditJob>();
  typing: TypingJob | undefined;
  /** A call other than an upload is in flight: the queue waits for it. */
  inFlight = false;
  /**
   * A file is on its way up. It went once what was queued before it had gone; what comes after
   * it goes on meanwhile (an upload on a slow line takes minutes), but another file waits.
   */
  uploading = false;
  /** A deleted message's id -> its re-sent replacement's id, or the queued re-send itself. */
  readonly redirects = new Map<number, number | SendJob>();

  /** `pace`: shared with every other queue writing to the same Telegram chat (a forum's topics). */
  constructor(
    readonly chatId: number,
    readonly pace: Pace = newPace(),
  ) {}

  get scheduleMs(): number {
    return this.pace.scheduleMs;
  }

  get pausedUntilMs(): number {
    return this.pace.pausedUntilMs;
  }

  /** Telegram asked the chat to wait until `untilMs`. */
  pauseUntil(untilMs: number): void {
    this.pace.pausedUntilMs = Math.max(this.pace.pausedUntilMs, untilMs);
  }

  /** The job to send next: sends first, then edits (oldest first), then typing. */
  head(): ChatJob | undefined {
    return this.ordered[0] ?? this.edits.values().next().value ?? this.typing;
  }

  /** Whether `job`, at the head, must wait for a call in flight (else it may go once paced). */
  waits(job: ChatJob): boolean {
    return this.inFlight || (job.kind === "document" && this.uploading);
  }

  /** A call of `job` went out (true) or came back (false). */
  calling(job: Pick<Job, "kind">, inFlight: boolean): void {
    if (job.kind === "document") this.uploading = inFlight;
    else this.inFlight = inFlight;
  }

  /** When `job` may go by this chat's pacing. */
  readyAtMs(job: ChatJob, intervalMs: number): number {
    return job.urgent ? this.scheduleMs - intervalMs + URGENT_MARGIN_MS : this.scheduleMs;
  }

  /** A write went out at `nowMs`. */
  wrote(nowMs: number, intervalMs: number): void {
    this.pace.scheduleMs = Math.max(this.pace.scheduleMs, nowMs) + intervalMs;
  }

  take(job: ChatJob): void {
    if (job.kind === "edit") this.edits.delete(job.messageId);
    else if (job.kind === "typing") this.typing = undefined;
    else this.ordered.splice(this.ordered.indexOf(job), 1);
  }

  isEmpty(): boolean {
    return this.ordered.length === 0 && this.edits.size === 0 && this.typing === undefined;
  }

  jobs(): ChatJob[] {
    return [...this.ordered, ...this.edits.values(), ...(this.typing === undefined ? [] : [this.typing])];
  }

  /** Follows re-sends: the id an edit of `messageId` must target now, or the pending re-send. */
  target(messageId: number): number | SendJob {
    let id = messageId;
    for (let hops = 0; hops < 100; hops++) {
      const next = this.redirects.get(id);
      if (next === undefined) return id;
      if (typeof next !== "number") return next;
      id = next;
    }
    return id;
  }

  /**
   * Queues an edit, merging it into a pending edit of the same message. Returns true when
   * it was merged (the earlier edit will never go out on its own).
   */
  queueEdit(job: EditJob): boolean {
    const pending = this.edits.get(job.messageId);
    if (pending === undefined) {
      this.edits.set(job.messageId, job);
      return false;
    }
    pending.must ||= job.must;
    pending.urgent ||= job.urgent;
    pending.waiters.push(...job.waiters);
    if (job.change.kind === "text" || pending.change.kind === "keyboard") pending.change = job.change;
    else pending.change = { kind: "text", content: withKeyboard(pending.change.content, job.change.keyboard) };
    pending.plain = false;
    return true;
  }

  /** Queues the edit of `messageId` (see `queueEdit`); true when it merged into a pending one. */
  queueEditOf(messageId: number, change: EditJob["change"], must: boolean, waiter: Waiter, urgent = false): boolean {
    const target = this.target(messageId);
    if (typeof target !== "number" && this.ordered.includes(target)) {
      // The message waits to be re-sent: the re-send carries this latest state instead.
      target.content = change.kind === "text" ? change.content : withKeyboard(target.content, change.keyboard);
      target.must ||= must;
      target.urgent ||= urgent;
      target.waiters.push(waiter);
      return true;
    }
    const id = typeof target === "number" ? target : messageId; // a re-send in flight: resolved at call time
    return this.queueEdit({ ...jobBase(must, waiter, urgent), kind: "edit", messageId: id, change });
  }

  /** Queues the deletion of `messageId`; pending edits of it (and a re-send not gone out yet) are dropped. */
  queueDelete(messageId: number, waiter: Waiter): void {
    const target = this.target(messageId);
    const queued = typeof target === "number" ? -1 : this.ordered.indexOf(target);
    if (typeof target !== "number" && queued >= 0) {
      this.ordered.splice(queued, 1);
      settle(target, gone("deleted before it was re-sent"));
      waiter({ ok: true, messageId });
      return;
    }
    for (const id of [messageId, target]) {
      const pending = typeof id === "number" ? this.edits.get(id) : undefined;
      if (pending !== undefined) {
        this.edits.delete(pending.messageId);
        settle(pending, gone("deleted"));
      }
    }
    // The id is resolved when the call is made: a re-send in flight has its new id by then.
    this.ordered.push({ ...jobBase(false, waiter), kind: "delete", messageId });
  }

  /**
   * The message `job` edits is gone: `latest` (or a newer pending text) goes out as a new message
   * replacing it, in reply to `replyTo` (what the deleted one answered, when known).
   */
  resend(job: EditJob, latest: MessageContent, replyTo: number | undefined): void {
    const pending = this.edits.get(job.messageId);
    if (pending !== undefined) this.edits.delete(job.messageId);
    const resend: SendJob = {
      ...jobBase(job.must || (pending?.must ?? false), undefined, job.urgent || (pending?.urgent ?? false)),
      kind: "send",
      content: pending !== undefined && pending.change.kind === "text" ? pending.change.content : latest,
      replyTo,
      silent: true,
      replaces: job.messageId,
    };
    resend.waiters.push(...job.waiters.splice(0), ...(pending?.waiters.splice(0) ?? []));
    this.redirects.set(job.messageId, resend);
    this.ordered.push(resend);
  }

  /** Puts a job that must be tried again back where it belongs. */
  requeue(job: ChatJob): void {
    if (job.kind === "typing") return;
    if (job.kind !== "edit") {
      this.ordered.unshift(job);
      return;
    }
    const newer = this.edits.get(job.messageId);
    if (newer === undefined) this.edits.set(job.messageId, job);
    else {
      // A newer state arrived meanwhile: it wins, and answers the older callers too. A newer
      // change of the buttons alone keeps the older text (a settled prompt losing its buttons).
      newer.must ||= job.must;
      newer.urgent ||= job.urgent;
      newer.waiters.unshift(...job.waiters);
      if (newer.change.kind === "keyboard" && job.change.kind === "text") {
        newer.change = { kind: "text", content: withKeyboard(job.change.content, newer.change.keyboard) };
        newer.plain = false;
      }
    }
  }
}

/**
 * Calls that concern no chat, toasts first. A 429 on one method holds back that method
 * only (Telegram limits per method and chat); its calls keep their order.
 */
export class GlobalQueue {
  readonly jobs: GlobalJob[] = [];
  readonly #pausedUntilMs = new Map<GlobalJob["kind"], number>();

  /** A toast goes before every other waiting call; anything else at the end. */
  add(job: GlobalJob): void {
    const firstOther = job.kind === "callback" ? this.jobs.findIndex((j) => j.kind !== "callback") : -1;
    this.jobs.splice(firstOther < 0 ? this.jobs.length : firstOther, 0, job);
  }

  /** Puts a job that must be tried again first in line. */
  requeue(job: GlobalJob): void {
    this.jobs.unshift(job);
  }

  /** Telegram asked calls of `kind` to wait until `untilMs`. */
  pause(kind: GlobalJob["kind"], untilMs: number): void {
    this.#pausedUntilMs.set(kind, Math.max(this.#pausedUntilMs.get(kind) ?? 0, untilMs));
  }

  /**
   * Takes out the first job that may go now (`slotAt`: when the global cap has room), or says
   * when the earliest waiting one becomes ready (Infinity when none waits).
   */
  takeNext(now: number, slotAt: number): { job: GlobalJob } | { wakeAt: number } {
    const blocked = new Set<GlobalJob["kind"]>();
    let wakeAt = Number.POSITIVE_INFINITY;
    for (const [index, job] of this.jobs.entries()) {
      if (blocked.has(job.kind)) continue;
      const readyAt = Math.max(job.notBeforeMs, this.#pausedUntilMs.get(job.kind) ?? 0, slotAt);
      if (readyAt <= now) {
        this.jobs.splice(index, 1);
        return { job };
      }
      // Later calls of this method wait behind it, so they keep their order.
      blocked.add(job.kind);
      wakeAt = Math.min(wakeAt, readyAt);
    }
    return { wakeAt };
  }
}

export function withKeyboard(content: MessageContent, keyboard: InlineKeyboardMarkup | undefined): MessageContent {
  return keyboard === undefined ? { html: content.html } : { html: content.html, keyboard };
}

export function gone(description: string): Delivery {
  return { ok: false, code: "gone", description };
}

export function settle(job: Job, delivery: Delivery): void {
  for (const waiter of job.waiters.splice(0)) waiter(delivery);
}
