// How a message looks to the person now (after edits): its text or caption, entities,
// buttons, media and replies. Built from the fake's stored messages; no state here.
import type { Entity, InlineKeyboard, MessageRevision, StoredMessage } from "./state.js";

/** A message as the person sees it now (after edits). */
export type MessageView = {
  chatId: number;
  messageId: number;
  fromBot: boolean;
  fromUserId: number | undefined;
  /** The text (or document caption) after entity parsing. */
  text: string;
  /** The HTML the bot sent, when it used parse_mode HTML. */
  html: string | undefined;
  parseMode: string | undefined;
  entities: readonly Entity[];
  keyboard: InlineKeyboard | undefined;
  buttons: readonly { text: string; data: string | undefined; url: string | undefined }[];
  replyToMessageId: number | undefined;
  edited: boolean;
  /** Every state the message had, first to current. */
  revisions: readonly MessageRevision[];
  document: { fileName: string; mimeType: string; content: Buffer; fileId: string } | undefined;
  /** A photo's sizes, smallest first. */
  photo: readonly { width: number; height: number; content: Buffer; fileId: string }[] | undefined;
  voice: { durationS: number; mimeType: string; content: Buffer; fileId: string } | undefined;
  audio:
    { durationS: number; mimeType: string; content: Buffer; fileId: string; fileName: string | undefined } | undefined;
  mediaGroupId: string | undefined;
  /** The forum topic it is in (its thread id); undefined in General or a chat without topics. */
  topic: number | undefined;
};

export type MessageMatch = string | RegExp | ((message: MessageView) => boolean);

export function view(message: StoredMessage): MessageView {
  return {
    chatId: message.chatId,
    messageId: message.messageId,
    fromBot: message.fromUserId === undefined,
    fromUserId: message.fromUserId,
    text: message.text ?? message.caption ?? "",
    html: message.html,
    parseMode: message.parseMode,
    entities: message.text !== undefined ? message.entities : message.captionEntities,
    keyboard: message.keyboard,
    buttons: (message.keyboard?.inline_keyboard ?? [])
      .flat()
      .map((b) => ({ text: b.text, data: b.callback_data, url: b.url })),
    replyToMessageId: message.replyToMessageId,
    edited: message.editDateS !== undefined,
    revisions: message.revisions,
    document:
      message.document === undefined
        ? undefined
        : {
            fileName: message.document.fileName,
            mimeType: message.document.mimeType,
            content: message.document.content,
            fileId: message.document.fileId,
          },
    photo: message.photo?.map(({ width, height, content, fileId }) => ({ width, height, content, fileId })),
    voice:
      message.voice === undefined
        ? undefined
        : {
            durationS: message.voice.durationS,
            mimeType: message.voice.mimeType,
            content: message.voice.content,
            fileId: message.voice.fileId,
          },
    audio:
      message.audio === undefined
        ? undefined
        : {
            durationS: message.audio.durationS,
            mimeType: message.audio.mimeType,
            content: message.audio.content,
            fileId: message.audio.fileId,
            fileName: message.audio.fileName,
          },
    mediaGroupId: message.mediaGroupId,
    topic: message.threadId,
  };
}

export function matcher(match: MessageMatch): (message: MessageView) => boolean {
  if (typeof match === "string") return (m) => m.text.includes(match);
  if (match instanceof RegExp) return (m) => match.test(m.text);
  return match;
}
