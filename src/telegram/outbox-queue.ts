// The outbox's per-chat queue: sends (and deletes, documents) in order, then edits keyed by
// message (a newer edit replaces a pending one: the latest state wins), then a typing
// indicator. Also remembers which deleted messages were re-sent under which id. No I/O.

import type { InlineKeyboardMarkup } from "grammy/types";
import type { Delivery, MessageContent } from "./outbox-types.js";

export type Waiter = (delivery: Delivery) => void;

type JobBase = {
  must: boolean;
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

export function jobBase(must: boolean, waiter?: Waiter): JobBase {
  return { must, attempts: 0, notBeforeMs: 0, waiters: waiter === undefined ? [] : [waiter], plain: false };
}

export class ChatQueue {
  readonly ordered: OrderedJob[] = [];
  readonly edits = new Map<number, EditJob>();
  typing: TypingJob | undefined;
  inFlight = false;
  lastDispatchMs = Number.NEGATIVE_INFINITY;
  pausedUntilMs = 0;
  /** A deleted message's id -> its re-sent replacement's id, or the queued re-send itself. */
  readonly redirects = new Map<number, number | SendJob>();

  constructor(readonly chatId: number) {}

  /** The job to send next: sends first, then edits (oldest first), then typing. */
  head(): ChatJob | undefined {
    return this.ordered[0] ?? this.edits.values().next().value ?? this.typing;
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
    pending.waiters.push(...job.waiters);
    if (job.change.kind === "text" || pending.change.kind === "keyboard") pending.change = job.change;
    else pending.change = { kind: "text", content: withKeyboard(pending.change.content, job.change.keyboard) };
    pending.plain = false;
    return true;
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
      // A newer state arrived meanwhile: it wins, and answers the older callers too.
      newer.must ||= job.must;
      newer.waiters.unshift(...job.waiters);
    }
  }
}

export function withKeyboard(content: MessageContent, keyboard: InlineKeyboardMarkup | undefined): MessageContent {
  return keyboard === undefined ? { html: content.html } : { html: content.html, keyboard };
}

export function settle(job: Job, delivery: Delivery): void {
  for (const waiter of job.waiters.splice(0)) waiter(delivery);
}
