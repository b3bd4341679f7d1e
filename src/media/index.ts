// Photos, files and voice: the parts that do not depend on a transport. Telegram and the
// terminal pass plain data in (photo sizes, file names, bytes) and get refusals or content back.
export {
  accept,
  isMediaError,
  MediaError,
  refuse,
  refusalText,
  type MediaErrorCode,
  type MediaRefusal,
  type MediaRefusalCode,
  type MediaResult,
} from "./errors.js";
export {
  base64Length,
  formatBytes,
  MIB,
  TELEGRAM_DOWNLOAD_MAX_BYTES,
  TELEGRAM_PHOTO_MAX_BYTES,
  TELEGRAM_UPLOAD_MAX_BYTES,
} from "./sizes.js";
export { readImageInfo, type ImageInfo } from "./image-format.js";
export { readImageFiles } from "./image-files.js";
export {
  checkInlineImages,
  MESSAGES_API_IMAGE_LIMITS,
  PHOTO_EDGE_PX,
  pickPhotoSize,
  type InlineImage,
  type PhotoSizeRef,
} from "./image-limits.js";
export { PDF_MAX_PAGES, pdfPageCount } from "./pdf-pages.js";
export {
  buildRunContent,
  defaultPrompt,
  INLINE_PDF_MAX_BYTES,
  isInlinePdf,
  answerWithFiles,
  savedFilesText,
  type InlinePdf,
  type RunContentInput,
  type SavedFileNote,
} from "./run-content.js";
export { DEFAULT_DENY_GLOBS, denyMatcher, isAllowedType, numberedName, sanitiseFileName } from "./file-names.js";
export {
  checkMessageTotal,
  checkUpload,
  saveUpload,
  type IncomingFile,
  type UploadLimits,
  type UploadsPlace,
} from "./uploads.js";
export { downloadTelegramFile, type TelegramFile, type TelegramFileSource } from "./telegram-files.js";
export {
  createTranscriber,
  transcribe,
  VOICE_NOT_CONFIGURED_HINT,
  voiceEcho,
  type Audio,
  type Transcriber,
  type VoiceSettings,
} from "./transcription.js";
export { DEFAULT_ZIP_LIMITS, readFileForSending, type FileGetLimits, type OutgoingFile } from "./file-get.js";
export type { ZipLimits, ZippedFolder } from "./zip-folder.js";
export {
  fitsTelegramPhoto,
  moveToSent,
  OUTBOX_DIR,
  outboxNotice,
  outboxSystemPrompt,
  planOutbox,
  prepareOutbox,
  readOutboxItem,
  SENT_DIR,
  type OutboxItem,
  type OutboxLimits,
  type OutboxPlan,
} from "./outbox.js";
export {
  receiveDocument,
  receiveDocumentAsFile,
  receivePhoto,
  receivePhotoAsFile,
  receiveVoice,
  type IncomingAudio,
  type IncomingDocument,
  type ReceivedDocument,
  type ReceiveOptions,
} from "./incoming.js";
