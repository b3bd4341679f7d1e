// What the fake keeps of files: every file a person or the bot sent, by file_id, with the
// path getFile hands out, and the Bot API's JSON for photos, documents, voice notes, audio,
// videos and video notes.
// No HTTP here.

export type StoredFile = {
  fileId: string;
  fileUniqueId: string;
  /** Where getFile says it is: "photos/file_3.jpg", "documents/file_4.pdf", … */
  filePath: string;
  content: Buffer;
};

export type StoredDocument = {
  fileId: string;
  fileUniqueId: string;
  fileName: string;
  mimeType: string;
  content: Buffer;
};

export type StoredPhotoSize = { fileId: string; fileUniqueId: string; width: number; height: number; content: Buffer };

export type StoredVoice = {
  fileId: string;
  fileUniqueId: string;
  durationS: number;
  mimeType: string;
  content: Buffer;
};

export type StoredAudio = StoredVoice & { fileName: string | undefined; title: string | undefined };

export type StoredVideo = {
  fileId: string;
  fileUniqueId: string;
  durationS: number;
  width: number;
  height: number;
  /** Telegram leaves both out at times (a video recorded in the app has no name). */
  mimeType: string | undefined;
  fileName: string | undefined;
  content: Buffer;
};

/** A round video message: square, no name and no MIME type. */
export type StoredVideoNote = {
  fileId: string;
  fileUniqueId: string;
  durationS: number;
  length: number;
  content: Buffer;
};

/** The media fields a message may hold (at most one kind, as in Telegram). */
export type StoredMedia = {
  document: StoredDocument | undefined;
  /** Smallest first, as Telegram lists them. */
  photo: StoredPhotoSize[] | undefined;
  voice: StoredVoice | undefined;
  audio: StoredAudio | undefined;
  video: StoredVideo | undefined;
  videoNote: StoredVideoNote | undefined;
  mediaGroupId: string | undefined;
};

export const NO_MEDIA: StoredMedia = {
  document: undefined,
  photo: undefined,
  voice: undefined,
  audio: undefined,
  video: undefined,
  videoNote: undefined,
  mediaGroupId: undefined,
};

/** Telegram's folder per kind of file, as seen in real file_path values. */
export type FileFolder = "photos" | "documents" | "voice" | "music" | "videos" | "video_notes";

/** Bots download at most 20 MB through getFile (core.telegram.org/bots/api#getfile). */
export const BOT_DOWNLOAD_MAX_BYTES = 20 * 1024 * 1024;

export class FileStore {
  readonly byId = new Map<string, StoredFile>();
  private nextFile = 1;

  /** Registers `content` and returns its ids; the file_path ends with `extension` (".pdf"). */
  add(content: Buffer, folder: FileFolder, extension: string): { fileId: string; fileUniqueId: string } {
    const n = this.nextFile++;
    const fileId = `BQACAgIAAxkBAAI${n.toString().padStart(6, "0")}`;
    const fileUniqueId = `AgAD${n}`;
    const safeExtension = /^\.[A-Za-z0-9]{1,8}$/.test(extension) ? extension.toLowerCase() : "";
    this.byId.set(fileId, { fileId, fileUniqueId, filePath: `${folder}/file_${n}${safeExtension}`, content });
    return { fileId, fileUniqueId };
  }

  byPath(filePath: string): StoredFile | undefined {
    for (const file of this.byId.values()) if (file.filePath === filePath) return file;
    return undefined;
  }
}

/** The fields every file object of the Bot API has. */
function fileJson(file: { fileId: string; fileUniqueId: string; content: Buffer }): Record<string, unknown> {
  return { file_id: file.fileId, file_unique_id: file.fileUniqueId, file_size: file.content.length };
}

/** `fields` without those left undefined (the Bot API leaves optional fields out). */
function present(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/** The Bot API's JSON for a message's media (and its caption, which only media messages have). */
export function mediaJson(
  media: StoredMedia,
  caption: { text: string | undefined; entities: readonly unknown[] },
): Record<string, unknown> {
  const json: Record<string, unknown> = {};
  if (media.mediaGroupId !== undefined) json.media_group_id = media.mediaGroupId;
  const { document: d, photo, voice: v, audio: a, video, videoNote: n } = media;
  if (d !== undefined) json.document = { ...fileJson(d), file_name: d.fileName, mime_type: d.mimeType };
  if (photo !== undefined)
    json.photo = photo.map((size) => ({ ...fileJson(size), width: size.width, height: size.height }));
  if (v !== undefined) json.voice = { ...fileJson(v), duration: v.durationS, mime_type: v.mimeType };
  if (a !== undefined) {
    json.audio = {
      ...fileJson(a),
      ...present({ duration: a.durationS, mime_type: a.mimeType, file_name: a.fileName, title: a.title }),
    };
  }
  if (video !== undefined) {
    const { durationS, width, height, mimeType, fileName } = video;
    json.video = {
      ...fileJson(video),
      ...present({ duration: durationS, width, height, mime_type: mimeType, file_name: fileName }),
    };
  }
  if (n !== undefined) json.video_note = { ...fileJson(n), duration: n.durationS, length: n.length };
  const hasMedia = media.document ?? media.photo ?? media.voice ?? media.audio ?? media.video;
  if (hasMedia !== undefined && caption.text !== undefined) {
    json.caption = caption.text;
    if (caption.entities.length > 0) json.caption_entities = caption.entities;
  }
  return json;
}
