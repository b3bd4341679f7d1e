// The photo, file or voice note a message carries, as plain data for the media port: a photo's
// sizes, a document's name and type, a video or video note as a file (Telegram gives a recorded
// video no name, a video note neither name nor type), a voice note or audio file to transcribe.
import type { Message } from "grammy/types";
import type { Attachment, VoiceNote } from "../media-port.js";

/** The message's photo or file; undefined for any other message. */
export function attachmentOf(message: Message): Attachment | undefined {
  if (message.photo !== undefined) {
    const sizes = message.photo.map((size) => ({
      fileId: size.file_id,
      width: size.width,
      height: size.height,
      ...(size.file_size === undefined ? {} : { fileSizeBytes: size.file_size }),
    }));
    return { kind: "photo", sizes };
  }
  const document = message.document;
  if (document !== undefined) {
    return {
      kind: "document",
      document: {
        fileId: document.file_id,
        fileName: document.file_name,
        mimeType: document.mime_type,
        sizeBytes: document.file_size,
      },
    };
  }
  // A video recorded in the app has no name, a video note neither name nor type.
  const video = message.video ?? message.video_note;
  if (video === undefined) return undefined;
  const mimeType = message.video?.mime_type ?? "video/mp4";
  const fileName =
    message.video?.file_name ?? `${message.video === undefined ? "video_note" : "video"}${videoExtension(mimeType)}`;
  return { kind: "document", document: { fileId: video.file_id, fileName, mimeType, sizeBytes: video.file_size } };
}

/** The message's voice note or audio file; undefined for any other message. */
export function voiceOf(message: Message): VoiceNote | undefined {
  const audio = message.voice ?? message.audio;
  if (audio === undefined) return undefined;
  return { fileId: audio.file_id, mimeType: audio.mime_type, sizeBytes: audio.file_size, durationS: audio.duration };
}

const VIDEO_EXTENSIONS: Readonly<Record<string, string>> = {
  "video/quicktime": ".mov",
  "video/webm": ".webm",
  "video/x-matroska": ".mkv",
};

function videoExtension(mimeType: string): string {
  return VIDEO_EXTENSIONS[mimeType] ?? ".mp4";
}
