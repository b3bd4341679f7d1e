// What a simulated person can send besides text: a photo (Telegram's several sizes), a
// document, a voice note, an audio file, a video, a video note, an album. Each becomes a stored message and a
// `message` update, shaped as the Bot API delivers them; the files can be fetched with getFile.
import { extname } from "node:path";
import { readImageInfo } from "../../../src/media/index.js";
import type { StoredMedia, StoredPhotoSize } from "./media-state.js";
import type { FakeWorld, StoredChat, StoredMessage } from "./state.js";

/** One size of a photo as the person's app uploaded it; Telegram lists several per photo. */
export type PhotoSizeInput = { width: number; height: number; content: Buffer };

/** A photo: its sizes (any order), or one image whose size is read from its header. */
export type PhotoInput = Buffer | readonly PhotoSizeInput[];

export type DocumentInput = { content: Buffer; fileName: string; mimeType: string };

export type VoiceInput = { content: Buffer; durationS: number; mimeType?: string };

export type AudioInput = { content: Buffer; durationS: number; mimeType?: string; fileName?: string; title?: string };

export type VideoInput = {
  content: Buffer;
  durationS: number;
  width: number;
  height: number;
  mimeType?: string;
  fileName?: string;
};

export type VideoNoteInput = { content: Buffer; durationS: number; length: number };

export type AlbumItem = ({ photo: PhotoInput } | { document: DocumentInput }) & { caption?: string };

export type UserMedia =
  | { photo: PhotoInput }
  | { document: DocumentInput }
  | { voice: VoiceInput }
  | { audio: AudioInput }
  | { video: VideoInput }
  | { videoNote: VideoNoteInput };

export type UserMediaOptions = {
  from: number;
  caption?: string | undefined;
  replyTo?: number | undefined;
  mediaGroupId?: string | undefined;
};

/** Stores the person's media message and queues its update; returns the message id. */
export function sendUserMedia(world: FakeWorld, chat: StoredChat, media: UserMedia, options: UserMediaOptions): number {
  const message = world.newMessage(chat, {
    fromUserId: options.from,
    ...storedMedia(world, media),
    mediaGroupId: options.mediaGroupId,
    caption: options.caption,
    replyToMessageId: options.replyTo,
  });
  world.enqueueUpdate("message", world.messageJson(message));
  return message.messageId;
}

function storedMedia(world: FakeWorld, media: UserMedia): Partial<StoredMessage> & Partial<StoredMedia> {
  if ("photo" in media) return { photo: photoSizes(world, media.photo) };
  if ("document" in media) {
    const { content, fileName, mimeType } = media.document;
    return { document: { ...world.files.add(content, "documents", extname(fileName)), fileName, mimeType, content } };
  }
  if ("voice" in media) {
    const { content, durationS, mimeType = "audio/ogg" } = media.voice;
    return { voice: { ...world.files.add(content, "voice", ".oga"), durationS, mimeType, content } };
  }
  if ("video" in media) {
    const { content, durationS, width, height, mimeType, fileName } = media.video;
    const extension = fileName === undefined ? ".mp4" : extname(fileName);
    return {
      video: {
        ...world.files.add(content, "videos", extension),
        durationS,
        width,
        height,
        mimeType,
        fileName,
        content,
      },
    };
  }
  if ("videoNote" in media) {
    const { content, durationS, length } = media.videoNote;
    return { videoNote: { ...world.files.add(content, "video_notes", ".mp4"), durationS, length, content } };
  }
  const { content, durationS, mimeType = "audio/mpeg", fileName, title } = media.audio;
  return {
    audio: {
      ...world.files.add(content, "music", fileName === undefined ? ".mp3" : extname(fileName)),
      durationS,
      mimeType,
      content,
      fileName,
      title,
    },
  };
}

function photoSizes(world: FakeWorld, photo: PhotoInput): StoredPhotoSize[] {
  let sizes: readonly PhotoSizeInput[];
  if (Buffer.isBuffer(photo)) {
    const info = readImageInfo(photo);
    if (info === undefined) throw new Error("fake Bot API: the photo is not an image the fake can read");
    sizes = [{ width: info.width, height: info.height, content: photo }];
  } else {
    sizes = photo;
  }
  if (sizes.length === 0) throw new Error("fake Bot API: a photo needs at least one size");
  return [...sizes]
    .sort((a, b) => a.width * a.height - b.width * b.height)
    .map((size) => ({ ...world.files.add(size.content, "photos", ".jpg"), ...size }));
}
