// The one Bot API call each outbox job makes, with Telegram's options (HTML, no link
// previews, replies that survive a deleted target, plain text after a parse failure).

import { InputFile } from "grammy";
import { definedFields } from "../domain/index.js";
import { TELEGRAM_CAPTION_LIMIT } from "../render/index.js";
import { htmlToPlainFallback, MessageLeftBehind } from "./outbox-errors.js";
import type { ChatMoves } from "./chat-moves.js";
import type { ChatQueue, Job } from "./outbox-queue.js";
import type { OutboxApi } from "./outbox-types.js";

/**
 * Makes the Bot API call for `job`; resolves with the message id it concerns. A chat that moved
 * (chat-moves.ts) is written to at its new id, where its messages from before are not: an edit
 * of one fails as Telegram's would, and a reply to one goes without the quote.
 */
export async function callBotApi(
  api: OutboxApi,
  chat: ChatQueue | undefined,
  job: Job,
  moves?: ChatMoves,
): Promise<number | undefined> {
  const chatId = chat === undefined ? undefined : (moves?.currentId(chat.chatId) ?? chat.chatId);
  /** Telegram's id of a message as kept; undefined for one left in a group that moved. */
  const wire = (messageId: number): number | undefined =>
    chat === undefined || moves === undefined ? messageId : moves.wireMessageId(chat.chatId, messageId);
  const kept = (messageId: number): number =>
    chat === undefined || moves === undefined ? messageId : moves.keptMessageId(chat.chatId, messageId);
  const current = (messageId: number): number => {
    const target = chat?.target(messageId) ?? messageId;
    return typeof target === "number" ? target : messageId;
  };
  const onWire = (messageId: number): number => {
    const id = wire(current(messageId));
    if (id === undefined) throw new MessageLeftBehind(job.kind === "delete" ? "delete" : "edit");
    return id;
  };
  const format = (html: string): { text: string; parse_mode?: "HTML" } =>
    job.plain ? { text: htmlToPlainFallback(html) } : { text: html, parse_mode: "HTML" };
  const reply = (replyTo: number | undefined) => {
    const id = replyTo === undefined ? undefined : wire(replyTo);
    return id === undefined ? {} : { reply_parameters: { message_id: id, allow_sending_without_reply: true } };
  };
  switch (job.kind) {
    case "send": {
      const { text, ...mode } = format(job.content.html);
      const sent = await api.sendMessage(chatId!, text, {
        ...mode,
        ...reply(job.replyTo),
        link_preview_options: { is_disabled: true },
        ...definedFields({ reply_markup: job.content.keyboard }),
        ...(job.silent ? { disable_notification: true } : {}),
      });
      return kept(sent.message_id);
    }
    case "document": {
      const caption =
        job.captionHtml === undefined
          ? {}
          : job.plain
            ? { caption: htmlToPlainFallback(job.captionHtml, TELEGRAM_CAPTION_LIMIT) }
            : { caption: job.captionHtml, parse_mode: "HTML" as const };
      const file = new InputFile(job.data, job.filename);
      const other = { ...caption, ...reply(job.replyTo), ...(job.silent ? { disable_notification: true } : {}) };
      const sent =
        job.sendAs === "photo"
          ? await api.sendPhoto(chatId!, file, other)
          : await api.sendDocument(chatId!, file, other);
      return kept(sent.message_id);
    }
    case "edit":
      if (job.change.kind === "keyboard") {
        await api.editMessageReplyMarkup(
          chatId!,
          onWire(job.messageId),
          definedFields({ reply_markup: job.change.keyboard }),
        );
      } else {
        const { text, ...mode } = format(job.change.content.html);
        const keyboard = job.change.content.keyboard;
        await api.editMessageText(chatId!, onWire(job.messageId), text, {
          ...mode,
          link_preview_options: { is_disabled: true },
          ...definedFields({ reply_markup: keyboard }),
        });
      }
      return current(job.messageId);
    case "delete":
      await api.deleteMessage(chatId!, onWire(job.messageId));
      return current(job.messageId);
    case "typing":
      await api.sendChatAction(chatId!, "typing");
      return undefined;
    case "callback":
      await api.answerCallbackQuery(job.queryId, {
        ...definedFields({ text: job.text }),
        ...(job.alert ? { show_alert: true } : {}),
      });
      return undefined;
    case "commands":
      await api.setMyCommands(job.commands);
      return undefined;
    default:
      return undefined;
  }
}
