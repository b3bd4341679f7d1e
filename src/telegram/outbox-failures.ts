// What the outbox does with a failed call, by what Telegram said (outbox-errors.ts): wait as
// asked (429), count it done (not modified, already deleted), re-send a message that is gone,
// retry without the reply, as plain text or without its link buttons, follow a group that became
// a supergroup, back off after a 5xx, or give up and say so.
import type { InlineKeyboardMarkup } from "grammy/types";
import { definedFields } from "../domain/index.js";
import type { Logger } from "../ports/index.js";
import type { CallFailure } from "./outbox-errors.js";
import type { ChatQueue, Job } from "./outbox-queue.js";
import { settle, withKeyboard } from "./outbox-queue.js";
import type { Delivery, OutboxStats } from "./outbox-types.js";

/** The parts of the outbox a failure may act on. */
export type FailureHost = {
  readonly now: number;
  readonly logger: Logger;
  readonly stats: OutboxStats;
  readonly retrying: { maxAttempts: number; backoffMs: number; maxBackoffMs: number; random: () => number };
  /** Telegram asked this chat (or, for a call that concerns no chat, this method) to wait. */
  pause(chat: ChatQueue | undefined, job: Job, untilMs: number): void;
  /** Queues the job again where it belongs. */
  retry(chat: ChatQueue | undefined, job: Job): void;
  /** The message to edit is gone: its latest text goes out as a new message. */
  resend(chat: ChatQueue | undefined, job: Job): void;
  /** The chat has a new id (a group became a supergroup); false when that cannot be followed. */
  moved(chat: ChatQueue | undefined, toChatId: number): boolean;
  /** The forum topic refused a write: false when its writes cannot go to its chat's main view instead. */
  topicRefused(chat: ChatQueue | undefined, closed: boolean): boolean;
  /** Telegram will not take writes to the chat (outbox-errors.ts, `chat_closed`). */
  closed(chat: ChatQueue | undefined, description: string, muted: boolean): void;
  fail(job: Job, delivery: Extract<Delivery, { ok: false }>): void;
};

export function handleFailure(host: FailureHost, chat: ChatQueue | undefined, job: Job, failure: CallFailure): void {
  const { now, logger } = host;
  const fields = { chatId: chat?.chatId, kind: job.kind, attempt: job.attempts, must: job.must };
  switch (failure.kind) {
    case "retry_after":
      host.stats.rateLimited++;
      job.attempts--; // Telegram asked us to wait; that is not a failed attempt
      host.pause(chat, job, now + failure.waitMs);
      logger.event("outbox.rate_limited", { ...fields, waitMs: failure.waitMs }, "warn");
      return host.retry(chat, job);
    case "not_modified":
    case "delete_target_gone":
      return settle(job, { ok: true, messageId: job.kind === "edit" || job.kind === "delete" ? job.messageId : 0 });
    case "edit_target_gone":
      return host.resend(chat, job);
    case "chat_moved":
      if (!host.moved(chat, failure.toChatId)) break;
      logger.event("outbox.chat_moved", { ...fields, toChatId: failure.toChatId }, "warn");
      job.attempts--; // the chat moved; the call was not at fault
      return host.retry(chat, job);
    case "topic_refused":
      if (!host.topicRefused(chat, failure.closed)) break;
      logger.event("outbox.topic_refused", { ...fields, description: failure.description }, "warn");
      job.attempts--; // the topic closed; the call was not at fault
      return host.retry(chat, job);
    case "reply_target_gone":
      if (job.kind === "send" || job.kind === "document") job.replyTo = undefined;
      return host.retry(chat, job);
    case "parse_error":
      logger.event("outbox.parse_error", { ...fields, description: failure.description }, "error");
      if (job.plain || !(job.kind === "send" || job.kind === "edit" || job.kind === "document")) break;
      job.plain = true;
      return host.retry(chat, job);
    case "link_refused":
      // The words and the other buttons still go: the message shows the link as text too.
      logger.event("outbox.link_refused", { ...fields, description: failure.description }, "warn");
      if (!dropLinkButtons(job)) break;
      return host.retry(chat, job);
    case "transient": {
      const { maxAttempts, backoffMs, maxBackoffMs, random } = host.retrying;
      const limit = job.kind === "callback" ? 3 : maxAttempts;
      if (!job.must && job.attempts >= limit) {
        logger.event("outbox.gave_up", { ...fields, description: failure.description }, "warn");
        return host.fail(job, {
          ok: false,
          code: "gave_up",
          description: failure.description,
          ...definedFields({ errorCode: failure.errorCode }),
        });
      }
      const delay = Math.min(maxBackoffMs, backoffMs * 2 ** Math.min(job.attempts - 1, 20)) * (0.75 + random() * 0.5);
      job.notBeforeMs = now + delay;
      logger.event(
        "outbox.retry",
        { ...fields, delayMs: Math.round(delay), description: failure.description },
        job.must ? "warn" : "debug",
      );
      return host.retry(chat, job);
    }
    case "chat_closed":
      host.closed(chat, failure.description, failure.muted);
      break;
    case "rejected":
      break;
  }
  const description =
    failure.kind === "parse_error" ||
    failure.kind === "link_refused" ||
    failure.kind === "rejected" ||
    failure.kind === "chat_closed" ||
    failure.kind === "topic_refused"
      ? failure.description
      : failure.kind === "chat_moved"
        ? `the group became a supergroup (${failure.toChatId})`
        : "refused";
  const errorCode = failure.kind === "rejected" || failure.kind === "chat_closed" ? failure.errorCode : 400;
  logger.event("outbox.rejected", { ...fields, description }, job.must ? "error" : "warn");
  host.fail(job, { ok: false, code: "rejected", description, errorCode });
}

/** Takes the buttons that open a link off a send's or an edit's keyboard: false when it had none. */
function dropLinkButtons(job: Job): boolean {
  if (job.kind === "send") {
    const kept = withoutLinks(job.content.keyboard);
    if (kept !== false) job.content = withKeyboard(job.content, kept);
    return kept !== false;
  }
  if (job.kind !== "edit") return false;
  const change = job.change;
  const kept = withoutLinks(change.kind === "text" ? change.content.keyboard : change.keyboard);
  if (kept === false) return false;
  job.change =
    change.kind === "text"
      ? { kind: "text", content: withKeyboard(change.content, kept) }
      : { kind: "keyboard", keyboard: kept };
  return true;
}

/** The keyboard without its link buttons (undefined when none are left); false when it had none. */
function withoutLinks(keyboard: InlineKeyboardMarkup | undefined): InlineKeyboardMarkup | undefined | false {
  const rows = keyboard?.inline_keyboard ?? [];
  if (!rows.some((row) => row.some((button) => "url" in button))) return false;
  const kept = rows.map((row) => row.filter((button) => !("url" in button))).filter((row) => row.length > 0);
  return kept.length === 0 ? undefined : { inline_keyboard: kept };
}
