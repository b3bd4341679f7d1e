// The outbox's port and results: the minimal Bot API it writes through (grammY's `bot.api`
// satisfies it) and what a caller gets back. Types only.

import type { InputFile } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import type { Clock, Logger } from "../ports/index.js";
import type { ChatMoves } from "./chat-moves.js";
import type { ChatTopics } from "./chat-topics.js";

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
      message_thread_id?: number;
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
  sendChatAction(chat_id: number, action: "typing", other?: { message_thread_id?: number }): Promise<unknown>;
  answerCallbackQuery(callback_query_id: string, other?: { text?: string; show_alert?: boolean }): Promise<unknown>;
  sendDocument(chat_id: number, document: InputFile, other?: FileSendOptions): Promise<{ message_id: number }>;
  sendPhoto(chat_id: number, photo: InputFile, other?: FileSendOptions): Promise<{ message_id: number }>;
  setMyCommands(commands: readonly { command: string; description: string }[]): Promise<unknown>;
}

/** What sendDocument and sendPhoto take besides the file. */
export type FileSendOptions = {
  caption?: string;
  parse_mode?: "HTML";
  reply_parameters?: ReplyParameters;
  disable_notification?: boolean;
  message_thread_id?: number;
};

/** A file to send: its name, its bytes, and an HTML caption. */
export type OutgoingFile = { filename: string; data: Uint8Array; captionHtml?: string };

/** A message's whole visible state: its HTML and (or no) inline keyboard. */
export type MessageContent = { html: string; keyboard?: InlineKeyboardMarkup };

export type SendOptions = {
  /** Sent as a reply to this message (the phone notifies; falls back to a plain send if it is gone). */
  replyTo?: number;
  silent?: boolean;
  /** Approvals, final answers, errors: retried until delivered or the outbox stops. */
  mustDeliver?: boolean;
  /** What the person waits for (a final answer): may use the chat's one interval of headroom. */
  urgent?: boolean;
};

/** Options of an edit; `urgent` as for a send (a run's summary). */
export type EditOptions = Pick<SendOptions, "mustDeliver" | "urgent">;

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

/** How an outbox is built: the API it writes through, its clock and logger, Telegram's pacing. */
export type OutboxOptions = {
  api: OutboxApi;
  clock: Clock;
  logger: Logger;
  /**
   * One write per this long to one private chat, on average (default 1000 ms: Telegram's ~1
   * message/s). Ordinary writes keep this spacing; an urgent one may come one interval early.
   */
  privateIntervalMs?: number;
  /** The same for a group (default 3000 ms: Telegram's 20 messages/min). */
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
  /** Groups that became supergroups: written to at their new ids (chat-moves.ts). */
  chatMoves?: ChatMoves;
  /** Forum topics: written to in their chat and thread (chat-topics.ts). */
  chatTopics?: ChatTopics;
  /**
   * Telegram refused a write to `chatId` for good (blocked, removed, gone, or `muted`: a group
   * took the bot's right to send messages), saying `description`.
   */
  onChatClosed?: (chatId: number, description: string, muted: boolean) => void;
};
