// One attachment a person sent, from Telegram's description to what the run needs: a photo
// becomes an inline image, a document an inline PDF or image or a saved file, a voice note
// its transcript. Composes the checks, the download and the save; each refusal is a value.
import { accept, refuse, type MediaResult } from "./errors.js";
import {
  checkInlineImages,
  MESSAGES_API_IMAGE_LIMITS,
  pickPhotoSize,
  type InlineImage,
  type PhotoSizeRef,
} from "./image-limits.js";
import { isInlinePdf, type InlinePdf, type SavedFileNote } from "./run-content.js";
import { formatBytes, TELEGRAM_DOWNLOAD_MAX_BYTES } from "./sizes.js";
import { downloadTelegramFile, type TelegramFileSource } from "./telegram-files.js";
import { transcribe, type Transcriber } from "./transcription.js";
import { checkUpload, saveUpload, type UploadLimits, type UploadsPlace } from "./uploads.js";

/** A Telegram Document (or an Audio file kept as a file), as plain data. */
export type IncomingDocument = Readonly<{
  fileId: string;
  fileName?: string | undefined;
  mimeType?: string | undefined;
  sizeBytes?: number | undefined;
}>;

/** A Telegram Voice or Audio, as plain data. */
export type IncomingAudio = Readonly<{
  fileId: string;
  mimeType?: string | undefined;
  sizeBytes?: number | undefined;
  durationS?: number | undefined;
}>;

export type ReceivedDocument =
  { kind: "image"; image: InlineImage } | { kind: "pdf"; pdf: InlinePdf } | { kind: "saved"; saved: SavedFileNote };

const INLINE_IMAGE_MAX_BYTES = (MESSAGES_API_IMAGE_LIMITS.maxBase64Bytes * 3) / 4;

/** The photo as an inline image: the largest of its sizes within the API's limits, downloaded. */
export async function receivePhoto(
  source: TelegramFileSource,
  sizes: readonly PhotoSizeRef[],
  signal?: AbortSignal,
): Promise<MediaResult<InlineImage>> {
  const size = pickPhotoSize(sizes);
  if (size === undefined) {
    return refuse(
      "media.image_too_large",
      "None of this photo's sizes is small enough for Claude.",
      "Send a smaller photo.",
    );
  }
  const bytes = await downloadTelegramFile(source, {
    fileId: size.fileId,
    name: "the photo",
    sizeBytes: size.fileSizeBytes,
    maxBytes: INLINE_IMAGE_MAX_BYTES,
    ...(signal === undefined ? {} : { signal }),
  });
  if (!bytes.ok) return bytes;
  const checked = checkInlineImages([{ name: "the photo", bytes: bytes.value }]);
  return checked.ok ? accept(checked.value[0]!) : checked;
}

/**
 * A document: a PDF up to 10 MB or an image within the API's limits goes inline; anything
 * else is saved in the uploads folder (after the name, type and size checks). `maxFileBytes`
 * of `limits` is capped at Telegram's 20 MB unless `localBotApi` says the server allows more.
 */
export async function receiveDocument(
  source: TelegramFileSource,
  place: UploadsPlace,
  limits: UploadLimits,
  document: IncomingDocument,
  options: { localBotApi?: boolean; signal?: AbortSignal } = {},
): Promise<MediaResult<ReceivedDocument>> {
  const name = document.fileName ?? "file";
  const mimeType = document.mimeType ?? "application/octet-stream";
  const checked = checkUpload({ name, mimeType, sizeBytes: document.sizeBytes }, limits);
  if (!checked.ok) return checked;
  const maxBytes =
    options.localBotApi === true ? limits.maxFileBytes : Math.min(limits.maxFileBytes, TELEGRAM_DOWNLOAD_MAX_BYTES);
  const bytes = await downloadTelegramFile(source, {
    fileId: document.fileId,
    name: checked.value,
    sizeBytes: document.sizeBytes,
    maxBytes,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  });
  if (!bytes.ok) return bytes;
  if (isInlinePdf(mimeType, name, bytes.value.byteLength)) {
    return accept({ kind: "pdf", pdf: { name: checked.value, bytes: bytes.value } });
  }
  if (mimeType.startsWith("image/") && bytes.value.byteLength <= INLINE_IMAGE_MAX_BYTES) {
    const image = checkInlineImages([{ name: checked.value, bytes: bytes.value }]);
    if (image.ok) return accept({ kind: "image", image: image.value[0]! });
  }
  const saved = await saveUpload(place, { name, mimeType, bytes: bytes.value }, limits);
  return saved.ok ? accept({ kind: "saved", saved: saved.value }) : saved;
}

/** A voice note or audio file as text: downloaded (at most 20 MB) and sent to the transcriber only. */
export async function receiveVoice(
  source: TelegramFileSource,
  transcriber: Transcriber,
  audio: IncomingAudio,
  signal?: AbortSignal,
): Promise<MediaResult<string>> {
  const bytes = await downloadTelegramFile(source, {
    fileId: audio.fileId,
    name: "the voice note",
    sizeBytes: audio.sizeBytes,
    maxBytes: TELEGRAM_DOWNLOAD_MAX_BYTES,
    ...(signal === undefined ? {} : { signal }),
  });
  if (!bytes.ok) {
    return bytes.refusal.code === "media.too_big"
      ? refuse(
          "media.too_big",
          `The voice note is over ${formatBytes(TELEGRAM_DOWNLOAD_MAX_BYTES)}, more than bots can download.`,
          "Record a shorter one.",
        )
      : bytes;
  }
  return transcribe(
    transcriber,
    { bytes: bytes.value, mimeType: audio.mimeType ?? "audio/ogg", durationS: audio.durationS },
    signal === undefined ? {} : { signal },
  );
}
