// The Bot API's file methods in the fake: getFile (with the 20 MB limit for bots), sendDocument,
// sendPhoto and sendMediaGroup taking multipart uploads or file_ids, with Telegram's limits and
// error texts (core.telegram.org/bots/api: getFile, sendPhoto, sendMediaGroup, "Sending files").
import { extname } from "node:path";
import { readImageInfo } from "../../../src/media/index.js";
import { TELEGRAM_CAPTION_LIMIT } from "../../../src/render/index.js";
import { BOT_DOWNLOAD_MAX_BYTES, type StoredDocument, type StoredPhotoSize } from "./media-state.js";
import { formatText, readKeyboard, readReplyTarget, targetChat } from "./message-params.js";
import { threadFor } from "./topics.js";
import type { MethodHandler } from "./methods.js";
import { ApiFailure, badRequest, Params, type UploadedFile } from "./params.js";
import type { FakeWorld, StoredChat, StoredMessage } from "./state.js";

/** Bots upload at most 50 MB per file; Telegram's front answers bigger bodies with 413. */
const UPLOAD_MAX_BYTES = 50 * 1024 * 1024;
/** sendPhoto: at most 10 MB, width + height at most 10000, ratio at most 20. */
const PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** The long edges of the sizes Telegram makes of a photo it receives. */
const PHOTO_EDGES = [90, 320, 800, 1280, 2560];

export const mediaMethods: Readonly<Record<string, MethodHandler>> = {
  getFile: (world, params) => {
    const fileId = params.requiredString("file_id", "file_id is empty");
    const file = world.files.byId.get(fileId);
    if (file === undefined) throw badRequest("invalid file_id");
    // Telegram answers this for files over the bots' download limit, instead of a file_path.
    if (file.content.length > BOT_DOWNLOAD_MAX_BYTES) throw badRequest("file is too big");
    return {
      file_id: file.fileId,
      file_unique_id: file.fileUniqueId,
      file_size: file.content.length,
      file_path: file.filePath,
    };
  },

  sendDocument: (world, params) => {
    const chat = targetChat(world, params, "documents");
    const document = readDocument(world, params, "document");
    return world.messageJson(sendMedia(world, chat, params, { document }));
  },

  sendPhoto: (world, params) => {
    const chat = targetChat(world, params, "photos");
    const photo = readPhoto(world, params, "photo");
    return world.messageJson(sendMedia(world, chat, params, { photo }));
  },

  sendMediaGroup: (world, params) => {
    const chat = targetChat(world, params, "photos");
    const media = params.optionalJson("media");
    // Telegram takes 2–10 items; these two wordings are the fake's own.
    if (!Array.isArray(media) || media.length < 2 || media.length > 10) {
      throw badRequest("media must be an array of 2-10 InputMedia items");
    }
    const items = media.map((raw: unknown) => readInputMedia(raw));
    if (new Set(items.map((item) => item.type)).size > 1) {
      throw badRequest("documents can only be grouped with documents");
    }
    const mediaGroupId = world.newMediaGroupId();
    const replyTo = readReplyTarget(chat, params);
    // Everything is checked before the first message is stored: a refused album leaves nothing behind.
    const prepared = items.map((item) => ({
      item,
      fields:
        item.type === "photo"
          ? { photo: readPhoto(world, params, "photo", item.media) }
          : { document: readDocument(world, params, "document", item.media) },
    }));
    return prepared.map(({ item, fields }) => {
      const caption = captionOf(item.caption, item.parse_mode);
      const message = world.newMessage(chat, {
        ...fields,
        mediaGroupId,
        caption: caption?.text,
        captionEntities: caption?.entities ?? [],
        html: caption?.html,
        parseMode: caption?.parseMode,
        replyToMessageId: replyTo,
      });
      return world.messageJson(message);
    });
  },
};

type InputMedia = { type: "photo" | "document"; media: string; caption?: string; parse_mode?: string };

function readInputMedia(raw: unknown): InputMedia {
  const item = (raw ?? {}) as Record<string, unknown>;
  if (item.type !== "photo" && item.type !== "document") {
    throw badRequest('the fake Bot API groups only "photo" and "document" media');
  }
  if (typeof item.media !== "string" || item.media === "") throw badRequest("MEDIA_EMPTY");
  return {
    type: item.type,
    media: item.media,
    ...(typeof item.caption === "string" ? { caption: item.caption } : {}),
    ...(typeof item.parse_mode === "string" ? { parse_mode: item.parse_mode } : {}),
  };
}

function captionOf(text: string | undefined, parseMode: string | undefined) {
  if (text === undefined) return undefined;
  const item = new Params({ caption: text, ...(parseMode === undefined ? {} : { parse_mode: parseMode }) });
  return formatText(
    item,
    "caption",
    "caption_entities",
    TELEGRAM_CAPTION_LIMIT,
    undefined,
    "message caption is too long",
  );
}

function sendMedia(world: FakeWorld, chat: StoredChat, params: Params, fields: Partial<StoredMessage>): StoredMessage {
  const replyTo = readReplyTarget(chat, params);
  const caption = params.has("caption")
    ? formatText(
        params,
        "caption",
        "caption_entities",
        TELEGRAM_CAPTION_LIMIT,
        undefined,
        "message caption is too long",
      )
    : undefined;
  return world.newMessage(chat, {
    ...fields,
    caption: caption?.text,
    captionEntities: caption?.entities ?? [],
    html: caption?.html,
    parseMode: caption?.parseMode,
    keyboard: readKeyboard(params, false),
    replyToMessageId: replyTo,
    threadId: threadFor(chat, params, replyTo),
  });
}

/** The upload a parameter names: `attach://<field>`, or the part sent under the parameter's own name. */
function uploadFor(params: Params, field: string, value: unknown): UploadedFile | undefined {
  const attach =
    typeof value === "string" && value.startsWith("attach://") ? value.slice("attach://".length) : undefined;
  const upload = params.files.find((file) => file.field === (attach ?? field));
  if (attach !== undefined && upload === undefined) throw badRequest(`can't find attached file "${attach}"`);
  if (upload !== undefined && upload.content.length > UPLOAD_MAX_BYTES) {
    throw new ApiFailure(413, "Request Entity Too Large");
  }
  return upload;
}

function readDocument(world: FakeWorld, params: Params, field: string, value = params.raw(field)): StoredDocument {
  const upload = uploadFor(params, field, value);
  if (upload !== undefined) {
    const ids = world.files.add(upload.content, "documents", extname(upload.filename));
    return { ...ids, fileName: upload.filename, mimeType: upload.mimeType, content: upload.content };
  }
  if (typeof value === "string" && value !== "") {
    const known = findSentFile(world, value);
    if (known?.document !== undefined) return known.document;
    throw badRequest("wrong file identifier/HTTP URL specified");
  }
  throw badRequest("there is no document in the request");
}

function readPhoto(world: FakeWorld, params: Params, field: string, value = params.raw(field)): StoredPhotoSize[] {
  const upload = uploadFor(params, field, value);
  if (upload !== undefined) {
    if (upload.content.length > PHOTO_MAX_BYTES) throw badRequest("PHOTO_SAVE_FILE_INVALID");
    const info = readImageInfo(upload.content);
    if (info === undefined || info.mediaType === "image/gif") throw badRequest("IMAGE_PROCESS_FAILED");
    const { width, height } = info;
    if (width + height > 10_000 || Math.max(width, height) / Math.min(width, height) > 20) {
      throw badRequest("PHOTO_INVALID_DIMENSIONS");
    }
    return photoSizes(world, upload.content, width, height);
  }
  if (typeof value === "string" && value !== "") {
    const known = findSentFile(world, value);
    if (known?.photo !== undefined) return known.photo;
    throw badRequest("wrong file identifier/HTTP URL specified");
  }
  throw badRequest("there is no photo in the request");
}

/** The sizes Telegram offers for a received photo, smallest first; the fake keeps the sent bytes for each. */
function photoSizes(world: FakeWorld, content: Buffer, width: number, height: number): StoredPhotoSize[] {
  const longEdge = Math.max(width, height);
  const edges = PHOTO_EDGES.filter((edge) => edge < longEdge);
  if (longEdge <= PHOTO_EDGES.at(-1)!) edges.push(longEdge);
  return edges.map((edge) => {
    const scale = edge / longEdge;
    return {
      ...world.files.add(content, "photos", ".jpg"),
      width: Math.max(1, Math.round(width * scale)),
      height: Math.max(1, Math.round(height * scale)),
      content,
    };
  });
}

/** A message in any chat holding the file `fileId` (file_ids work across chats, as in Telegram). */
function findSentFile(world: FakeWorld, fileId: string): StoredMessage | undefined {
  for (const chat of world.chats.values()) {
    for (const message of chat.messages.values()) {
      if (message.document?.fileId === fileId || message.photo?.some((size) => size.fileId === fileId)) return message;
    }
  }
  return undefined;
}
