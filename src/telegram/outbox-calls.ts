// The one Bot API call each outbox job makes, with Telegram's options (HTML, no link
// previews, replies that survive a deleted target, plain text after a parse failure).

import { definedFields } from "../domain/index.js";
import { uploadFile } from "./api-deadlines.js";
import { TELEGRAM_CAPTION_LIMIT } from "../render/index.js";
import { htmlToPlainFallback, MessageLeftBehind } from "./outbox-errors.js";
import type { ChatQueue, Job } from "./outbox-queue.js";
import type { OutboxApi, OutboxOptions } from "./outbox-types.js";

/**
 * Makes the Bot API call for `job`; resolves with the message id it concerns. A forum topic
 * (chat-topics.ts) is written to in its chat and thread, or in the chat's main view once the
 * topic refused a write (then quoting nothing in it). A chat that moved (chat-moves.ts) is
 * written to at its new id, where its messages from before are not: an edit of one fails as
 * Telegram's would, and a reply to one goes without the quote.
 */
export async function callBotApi(
  api: OutboxApi,
  chat: ChatQueue | undefined,
  job: Job,
  { chatMoves: moves, chatTopics: topics }: Pick<OutboxOptions, "chatMoves" | "chatTopics"> = {},
): Promise<number | undefined> {
  const place = chat === undefined ? undefined : (topics?.placeOf(chat.chatId) ?? { chatId: chat.chatId });
  const home = place?.chatId;
  const chatId = home === undefined ? undefined : (moves?.currentId(home) ?? home);
  const thread = place?.threadId === undefined ? {} : { message_thread_id: place.threadId };
  /** A topic set aside (chat-topics.ts), whose messages go to its chat's main view. */
  const asideTopic = place?.aside === true ? chat?.chatId : undefined;
  /** Telegram's id of a message as kept; undefined for one left in a group that moved. */
  const wire = (messageId: number): number | undefined =>
    home === undefined || moves === undefined ? messageId : moves.wireMessageId(home, messageId);
  const kept = (messageId: number): number =>
    home === undefined || moves === undefined ? messageId : moves.keptMessageId(home, messageId);
  /** A new message's id as kept, told to the topics (one written aside is remembered as its topic's). */
  const placed = (messageId: number): number => {
    const id = kept(messageId);
    if (chat !== undefined) topics?.wrote(chat.chatId, id);
    return id;
  };
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
    // A reply lands in its target's topic: one to a message in the topic refusing would be refused.
    const quotable =
      replyTo !== undefined && (asideTopic === undefined || topics?.inMainView(asideTopic, replyTo) === true);
    const id = quotable ? wire(replyTo) : undefined;
    return id === undefined ? {} : { reply_parameters: { message_id: id, allow_sending_without_reply: true } };
  };
  switch (job.kind) {
    case "send": {
      const { text, ...mode } = format(job.content.html);
      const sent = await api.sendMessage(chatId!, text, {
        ...mode,
        ...thread,
        ...reply(job.replyTo),
        link_preview_options: { is_disabled: true },
        ...definedFields({ reply_markup: job.content.keyboard }),
        ...(job.silent ? { disable_notification: true } : {}),
      });
      return placed(sent.message_id);
    }
    case "document": {
      const caption =
        job.captionHtml === undefined
          ? {}
          : job.plain
            ? { caption: htmlToPlainFallback(job.captionHtml, TELEGRAM_CAPTION_LIMIT) }
            : { caption: job.captionHtml, parse_mode: "HTML" as const };
      const file = uploadFile(job.data, job.filename);
      const other = {
        ...caption,
        ...thread,
        ...reply(job.replyTo),
        ...(job.silent ? { disable_notification: true } : {}),
      };
      const sent =
        job.sendAs === "photo"
          ? await api.sendPhoto(chatId!, file, other)
          : await api.sendDocument(chatId!, file, other);
      return placed(sent.message_id);
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
      await api.sendChatAction(chatId!, "typing", thread);
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
