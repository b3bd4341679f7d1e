// The outbox's port and results: the minimal Bot API it writes through (grammY's `bot.api`
// satisfies it) and what a caller gets back. Types only.

import type { InputFile } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";

export type ReplyParameters = { message_id: number; allow_sending_without_reply?: boolean };

/** The Bot API calls the outbox makes; `bot.api` of grammY fits. */
export interface OutboxApi {
  sendMessage(
    chat_id: number,
    text: string,
    other?: {
      parse_mode?: "HTML";
      reply_markup?: InlineKeyboardMarkup;
      reply_parameters?: ReplyParameters;
      link_preview_options?: { is_disabled?: boolean };
      disable_notification?: boolean;
    },
  ): Promise<{ message_id: number }>;
  editMessageText(
    chat_id: number,
    message_id: number,
    text: string,
    other?: {
      parse_mode?: "HTML";
      reply_markup?: InlineKeyboardMarkup;
      link_preview_options?: { is_disabled?: boolean };
    },
  ): Promise<unknown>;
  editMessageReplyMarkup(
    chat_id: number,
    message_id: number,
    other?: { reply_markup?: InlineKeyboardMarkup },
  ): Promise<unknown>;
  deleteMessage(chat_id: number, message_id: number): Promise<unknown>;
  sendChatAction(chat_id: number, action: "typing"): Promise<unknown>;
  answerCallbackQuery(callback_query_id: string, other?: { text?: string; show_alert?: boolean }): Promise<unknown>;
  sendDocument(
    chat_id: number,
    document: InputFile,
    other?: {
      caption?: string;
      parse_mode?: "HTML";
      reply_parameters?: ReplyParameters;
      disable_notification?: boolean;
    },
  ): Promise<{ message_id: number }>;
  setMyCommands(commands: readonly { command: string; description: string }[]): Promise<unknown>;
}

/** A message's whole visible state: its HTML and (or no) inline keyboard. */
export type MessageContent = { html: string; keyboard?: InlineKeyboardMarkup };

export type SendOptions = {
  /** Sent as a reply to this message (the phone notifies; falls back to a plain send if it is gone). */
  replyTo?: number;
  silent?: boolean;
  /** Approvals, final answers, errors: retried until delivered or the outbox stops. */
  mustDeliver?: boolean;
};

export type OutboxFailureCode =
  /** Telegram refused it for good (blocked, chat not found, …). */
  | "rejected"
  /** Transient failures outlasted the attempts an ordinary item gets. */
  | "gave_up"
  /** The message to edit no longer exists and there was nothing to re-send. */
  | "gone"
  | "stopped";

export type Delivery =
  | {
      ok: true;
      messageId: number;
      /** The message to edit was gone, so the content went out as a new message with this id. */
      replaced?: boolean;
    }
  | { ok: false; code: OutboxFailureCode; description: string; errorCode?: number };

export type OutboxStats = {
  /** Bot API calls made, failed ones included. */
  calls: number;
  retries: number;
  rateLimited: number;
  /** Edits that never went out because a later edit of the same message replaced them. */
  coalesced: number;
  replaced: number;
};
