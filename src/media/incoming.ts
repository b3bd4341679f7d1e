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
import { PDF_MAX_PAGES, pdfPageCount } from "./pdf-pages.js";
import { INLINE_PDF_MAX_BYTES, isInlinePdf, type InlinePdf, type SavedFileNote } from "./run-content.js";
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
  | { kind: "image"; image: InlineImage }
  | { kind: "pdf"; pdf: InlinePdf }
  /** `notInline`: why an image or PDF was saved instead of shown to Claude (a sentence). */
  | { kind: "saved"; saved: SavedFileNote; notInline?: string };

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
 * The photo saved in the uploads folder as `photo.jpg` (or .png, …; numbered when taken), for
 * when it answers a question rather than starts a run: Claude reads it from there.
 */
export async function receivePhotoAsFile(
  source: TelegramFileSource,
  place: UploadsPlace,
  limits: UploadLimits,
  sizes: readonly PhotoSizeRef[],
  signal?: AbortSignal,
): Promise<MediaResult<SavedFileNote>> {
  const image = await receivePhoto(source, sizes, signal);
  if (!image.ok) return image;
  const { mediaType } = image.value.info;
  const name = `photo.${mediaType === "image/jpeg" ? "jpg" : mediaType.slice("image/".length)}`;
  return saveUpload(place, { name, mimeType: mediaType, bytes: image.value.bytes }, limits);
}

export type ReceiveOptions = {
  /** The Bot API server is a self-hosted one that lets bots download more than 20 MB. */
  localBotApi?: boolean;
  signal?: AbortSignal;
};

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
  options: ReceiveOptions = {},
): Promise<MediaResult<ReceivedDocument>> {
  const got = await downloadDocument(source, limits, document, options);
  if (!got.ok) return got;
  const { name, mimeType, bytes } = got.value;
  const verdict = inlineOrWhyNot(name, mimeType, bytes);
  if (verdict !== undefined && verdict.kind !== "not_inline") return accept(verdict);
  const saved = await saveUpload(place, { name: document.fileName ?? "file", mimeType, bytes }, limits);
  if (!saved.ok) return saved;
  return accept({ kind: "saved", saved: saved.value, ...(verdict === undefined ? {} : { notInline: verdict.why }) });
}

/** A document saved in the uploads folder whatever it is, for when it answers a question (words only). */
export async function receiveDocumentAsFile(
  source: TelegramFileSource,
  place: UploadsPlace,
  limits: UploadLimits,
  document: IncomingDocument,
  options: ReceiveOptions = {},
): Promise<MediaResult<SavedFileNote>> {
  const got = await downloadDocument(source, limits, document, options);
  if (!got.ok) return got;
  return saveUpload(place, { ...got.value, name: document.fileName ?? "file" }, limits);
}

/** The checks of `checkUpload`, then the download; `name` is the sanitised one. */
async function downloadDocument(
  source: TelegramFileSource,
  limits: UploadLimits,
  document: IncomingDocument,
  options: ReceiveOptions,
): Promise<MediaResult<{ name: string; mimeType: string; bytes: Buffer }>> {
  const mimeType = document.mimeType ?? "application/octet-stream";
  const checked = checkUpload({ name: document.fileName ?? "file", mimeType, sizeBytes: document.sizeBytes }, limits);
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
  return bytes.ok ? accept({ name: checked.value, mimeType, bytes: bytes.value }) : bytes;
}

type Inline = Extract<ReceivedDocument, { kind: "image" | "pdf" }>;

/**
 * A PDF or image that can go inline, or why one cannot (a sentence); undefined for other
 * files, which are always saved.
 */
function inlineOrWhyNot(
  name: string,
  mimeType: string,
  bytes: Buffer,
): Inline | { kind: "not_inline"; why: string } | undefined {
  const isPdf = mimeType === "application/pdf" || name.toLowerCase().endsWith(".pdf");
  if (isPdf) {
    if (!isInlinePdf(mimeType, name, bytes.byteLength))
      return {
        kind: "not_inline",
        why: `${name} is ${formatBytes(bytes.byteLength)}, and PDFs over ${formatBytes(INLINE_PDF_MAX_BYTES)} are not shown to Claude whole.`,
      };
    // The API refuses a longer one whole (and Claude Code then goes on without it): Claude's
    // Read tool opens a saved one a range of pages at a time.
    const pages = pdfPageCount(bytes);
    if (pages !== undefined && pages > PDF_MAX_PAGES)
      return {
        kind: "not_inline",
        why: `${name} has ${pages} pages, and Claude reads at most ${PDF_MAX_PAGES} of a PDF at once.`,
      };
    return { kind: "pdf", pdf: { name, bytes } };
  }
  if (!mimeType.startsWith("image/")) return undefined;
  const image = checkInlineImages([{ name, bytes }]);
  if (image.ok) return { kind: "image", image: image.value[0]! };
  // A type Claude cannot see (SVG, HEIC, TIFF…) is an ordinary file, said without fuss.
  if (image.refusal.code === "media.image_unreadable") return undefined;
  return { kind: "not_inline", why: image.refusal.message };
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
