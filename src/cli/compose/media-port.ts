// The Telegram bridge's media port over src/media: what a person sends checked (every item
// before the first download), downloaded, inlined or saved; voice notes transcribed; project
// files and the outbox read for sending. Limits come from the config in effect at each call.
import type { Config } from "../../config/index.js";
import { definedFields, ioErrorWords, isDiskFull } from "../../domain/index.js";
import {
  accept,
  answerWithFiles,
  buildRunContent,
  checkMessageTotal,
  checkUpload,
  createTranscriber,
  fitsTelegramPhoto,
  isMediaError,
  moveToSent,
  outboxNotice,
  pickPhotoSize,
  planOutbox,
  prepareOutbox,
  readFileForSending,
  readOutboxItem,
  receiveDocument,
  receiveDocumentAsFile,
  receivePhoto,
  receivePhotoAsFile,
  receiveVoice,
  refusalText,
  voiceEcho,
  type InlineImage,
  type InlinePdf,
  type MediaResult,
  type SavedFileNote,
  type UploadLimits,
  type UploadsPlace,
} from "../../media/index.js";
import type { Logger } from "../../ports/index.js";
import type { Attachment, FileDownloads, MediaOutcome, MediaPort } from "../../telegram/index.js";

export type MediaPortDeps = {
  config: () => Config;
  /** Where `[voice] api_key_env` is read. */
  env: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  downloads: FileDownloads;
  /** The Bot API server is a self-hosted one, which lets bots download files over 20 MB. */
  localBotApi: boolean;
};

/** What the person can do after a failed download or disk access: as usual, and when the disk is full. */
type WhatToDo = { usual: string; fullDisk: string };

const FREE_SPACE = "The computer running Telecode is out of disk space: free some there, then";
const SEND_AGAIN: WhatToDo = {
  usual: "Nothing was run; send it again.",
  fullDisk: `Nothing was run. ${FREE_SPACE} send it again.`,
};
const SEND_VOICE_AGAIN: WhatToDo = {
  usual: "Nothing was run; send the voice note again.",
  fullDisk: `Nothing was run. ${FREE_SPACE} send the voice note again.`,
};
const ASK_AGAIN: WhatToDo = {
  usual: "Check that Telecode may read it, then ask again.",
  fullDisk: `${FREE_SPACE} ask again.`,
};

export function createMediaPort(deps: MediaPortDeps): MediaPort {
  const { downloads: files, localBotApi } = deps;
  const limitsNow = (): UploadLimits => {
    const { maxFileBytes, maxMessageBytes, allowedTypes, denyGlobs } = deps.config().files;
    return { maxFileBytes, maxMessageBytes, allowedTypes, denyGlobs };
  };
  const placeIn = (projectRoot: string): UploadsPlace => ({ projectRoot, uploadsDir: deps.config().files.uploadsDir });
  /** A refusal, or a failed download or disk read with `whatToDo`, as what the person reads. */
  const told = async <T>(whatToDo: WhatToDo, receive: () => Promise<MediaResult<T>>): Promise<MediaOutcome<T>> => {
    try {
      const received = await receive();
      return received.ok ? received : { ok: false, say: refusalText(received.refusal) };
    } catch (error) {
      if (!isMediaError(error)) throw error;
      deps.logger.event("media.failed", { err: error }, "warn");
      // Tried again, it would fail the same way until there is room.
      return { ok: false, say: `${error.message} ${isDiskFull(error.cause) ? whatToDo.fullDisk : whatToDo.usual}` };
    }
  };
  const outboxOn = (): boolean => deps.config().files.outboxMaxFiles > 0;
  const outboxLimits = () => {
    const { outboxMaxFiles, outboxMaxFileBytes, denyGlobs } = deps.config().files;
    return { maxFiles: outboxMaxFiles, maxFileBytes: outboxMaxFileBytes, denyGlobs };
  };

  return {
    prompt: (projectRoot, words, attachments) =>
      told(SEND_AGAIN, async () => {
        const limits = limitsNow();
        const checked = checkAll(attachments, limits);
        if (!checked.ok) return checked;
        const got = await receiveForRun(files, localBotApi, placeIn(projectRoot), limits, attachments);
        if (!got.ok) return got;
        const { notes, ...content } = got.value;
        return accept({ prompt: buildRunContent({ text: words, ...content }), notes });
      }),
    answer: (projectRoot, words, attachments) =>
      told(SEND_AGAIN, async () => {
        const limits = limitsNow();
        const checked = checkAll(attachments, limits);
        if (!checked.ok) return checked;
        const saved: SavedFileNote[] = [];
        for (const attachment of attachments) {
          const place = placeIn(projectRoot);
          const received =
            attachment.kind === "photo"
              ? await receivePhotoAsFile(files, place, limits, attachment.sizes)
              : await receiveDocumentAsFile(files, place, limits, attachment.document, { localBotApi });
          if (!received.ok) return received;
          saved.push(received.value);
        }
        return accept(answerWithFiles(words, saved));
      }),
    transcribe: (voice) =>
      told(SEND_VOICE_AGAIN, async () => {
        const transcriber = createTranscriber(deps.config().voice, deps.env);
        if (!transcriber.ok) return transcriber;
        const words = await receiveVoice(
          files,
          { ...transcriber.value, ...definedFields({ fetch: files.fetch }) },
          voice,
        );
        return words.ok ? accept({ words: words.value, echo: voiceEcho(words.value) }) : words;
      }),
    readProjectFile: (projectRoot, path) =>
      told(ASK_AGAIN, async () => {
        const read = await readFileForSending(projectRoot, path, { denyGlobs: deps.config().files.denyGlobs });
        if (!read.ok) return read;
        const asPhoto = !read.value.zipped && fitsTelegramPhoto(read.value.bytes, read.value.bytes.byteLength);
        return accept({ ...read.value, asPhoto });
      }),
    async prepareOutbox(projectRoot) {
      if (!outboxOn()) return;
      const made = await prepareOutbox(projectRoot);
      if (!made.ok) deps.logger.event("media.outbox_refused", { projectRoot, why: refusalText(made.refusal) }, "warn");
    },
    async collectOutbox(projectRoot) {
      if (!outboxOn()) return { send: [], skipped: [] };
      const plan = await planOutbox(projectRoot, outboxLimits());
      const send = plan.send.map((item) => ({
        name: item.name,
        asPhoto: item.sendAs === "photo",
        read: () => readOutboxItem(item),
      }));
      return { send, skipped: plan.skipped };
    },
    async markSent(projectRoot, name) {
      try {
        await moveToSent(projectRoot, name);
        return undefined;
      } catch (error) {
        deps.logger.event("media.outbox_move_failed", { err: error, name }, "warn");
        return ioErrorWords(isMediaError(error) && error.cause !== undefined ? error.cause : error);
      }
    },
    outboxNotice: (skipped, left) => outboxNotice({ skipped }, left),
  };
}

/** Every file's name, type and size, and their total, before anything is downloaded. */
function checkAll(attachments: readonly Attachment[], limits: UploadLimits): MediaResult<number> {
  const files = [];
  for (const attachment of attachments) {
    if (attachment.kind === "photo") {
      files.push({ name: "photo", mimeType: "image/jpeg", sizeBytes: pickPhotoSize(attachment.sizes)?.fileSizeBytes });
      continue;
    }
    const { fileName, mimeType, sizeBytes } = attachment.document;
    const file = { name: fileName ?? "file", mimeType: mimeType ?? "application/octet-stream", sizeBytes };
    const checked = checkUpload(file, limits);
    if (!checked.ok) return checked;
    files.push(file);
  }
  return checkMessageTotal(files, limits);
}

type ForRun = { images: InlineImage[]; pdfs: InlinePdf[]; saved: SavedFileNote[]; notes: string[] };

async function receiveForRun(
  files: FileDownloads,
  localBotApi: boolean,
  place: UploadsPlace,
  limits: UploadLimits,
  attachments: readonly Attachment[],
): Promise<MediaResult<ForRun>> {
  const got: ForRun = { images: [], pdfs: [], saved: [], notes: [] };
  for (const attachment of attachments) {
    if (attachment.kind === "photo") {
      const image = await receivePhoto(files, attachment.sizes);
      if (!image.ok) return image;
      got.images.push(image.value);
      continue;
    }
    const document = await receiveDocument(files, place, limits, attachment.document, { localBotApi });
    if (!document.ok) return document;
    const received = document.value;
    if (received.kind === "image") got.images.push(received.image);
    else if (received.kind === "pdf") got.pdfs.push(received.pdf);
    else {
      got.saved.push(received.saved);
      if (received.notInline !== undefined)
        got.notes.push(`${received.notInline} I saved it at ${received.saved.path} for Claude to open instead.`);
    }
  }
  return accept(got);
}
