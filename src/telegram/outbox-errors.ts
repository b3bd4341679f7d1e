// What a failed Bot API call means for the outbox: wait (429), succeed anyway (not
// modified), re-send (message gone), retry (5xx, network) or give up. Decided on the Bot
// API's error_code and description, which are its only stable signals.

import { TELEGRAM_TEXT_LIMIT, validateTelegramHtml } from "../render/index.js";

export type CallFailure =
  | { kind: "retry_after"; waitMs: number }
  | { kind: "not_modified" }
  | { kind: "edit_target_gone" }
  | { kind: "delete_target_gone" }
  | { kind: "reply_target_gone" }
  | { kind: "parse_error"; description: string }
  /** Telegram will not take a button's link (localhost, another protocol): the message goes without it. */
  | { kind: "link_refused"; description: string }
  /** The group became a supergroup, which has this id now. */
  | { kind: "chat_moved"; toChatId: number }
  /** The forum topic written to is closed (`closed`), or deleted. */
  | { kind: "topic_refused"; description: string; closed: boolean }
  /**
   * The bot may not write to the chat (blocked, removed, or `muted`: a group took its right to
   * send messages), or the chat is gone.
   */
  | { kind: "chat_closed"; description: string; errorCode: number; muted: boolean }
  | { kind: "transient"; description: string; errorCode?: number }
  | { kind: "rejected"; description: string; errorCode: number };

export class OutboxError extends Error {
  override readonly name = "OutboxError";
  constructor(
    readonly code: "telegram.invalid_message" | "telegram.stopped",
    message: string,
  ) {
    super(message);
  }
}

/**
 * A message a moved chat's new id does not have (chat-moves.ts), refused before any call as
 * Telegram would refuse it: an edit goes out as a new message, a delete is done.
 */
export class MessageLeftBehind extends Error {
  override readonly name = "MessageLeftBehind";
  readonly error_code = 400;
  readonly description: string;
  constructor(action: "edit" | "delete") {
    super(`message to ${action} not found`);
    this.description = `Bad Request: message to ${action} not found`;
  }
}

type ApiErrorShape = {
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
};

function isApiError(error: unknown): error is ApiErrorShape {
  if (typeof error !== "object" || error === null) return false;
  const e = error as Record<string, unknown>;
  return typeof e.error_code === "number" && typeof e.description === "string";
}

/**
 * Classifies what a call threw. grammY throws GrammyError (the API answered) or HttpError
 * (the network failed); anything without an API error code is treated as transient.
 */
export function classifyFailure(error: unknown): CallFailure {
  if (!isApiError(error))
    return { kind: "transient", description: error instanceof Error ? error.message : String(error) };
  const code = error.error_code;
  const text = error.description.toLowerCase();
  if (code === 429) return { kind: "retry_after", waitMs: Math.max(1, error.parameters?.retry_after ?? 1) * 1000 };
  if (code >= 500) return { kind: "transient", description: error.description, errorCode: code };
  const movedTo = error.parameters?.migrate_to_chat_id;
  if (typeof movedTo === "number") return { kind: "chat_moved", toChatId: movedTo };
  if (text.includes("message is not modified")) return { kind: "not_modified" };
  if (text.includes("message to edit not found") || text.includes("message can't be edited"))
    return { kind: "edit_target_gone" };
  if (text.includes("message to delete not found") || text.includes("message can't be deleted"))
    return { kind: "delete_target_gone" };
  if (text.includes("message to be replied not found") || text.includes("replied message not found"))
    return { kind: "reply_target_gone" };
  if (text.includes("can't parse entities")) return { kind: "parse_error", description: error.description };
  if (text.includes("button_url_invalid") || text.includes("inline keyboard button url"))
    return { kind: "link_refused", description: error.description };
  if (/topic_closed|topic_deleted|message thread not found|topic_id_invalid/.test(text))
    return { kind: "topic_refused", description: error.description, closed: text.includes("topic_closed") };
  // A group that took the bot's right to send messages (photos or files alone it may still take).
  const muted = text.includes("rights to send text messages") || text.includes("no rights to send a message");
  if (code === 403 || text.includes("chat not found") || muted)
    return { kind: "chat_closed", description: error.description, errorCode: code, muted };
  return { kind: "rejected", description: error.description, errorCode: code };
}

/** A naive HTML-to-text for the last-resort plain-text resend of a message Telegram could not parse. */
export function htmlToPlainFallback(html: string, limit: number = TELEGRAM_TEXT_LIMIT): string {
  const text = html
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .trim();
  return text === "" ? "…" : text.slice(0, limit);
}

/** Throws OutboxError for HTML Telegram would refuse (a bug: render with src/render first). */
export function assertSendable(html: string, limit?: number): void {
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
