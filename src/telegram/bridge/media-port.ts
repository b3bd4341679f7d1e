// What the bridge needs to read photos, files and voice notes and to send project files back,
// as a port the composition root implements over src/media: plain data in, and out a value or
// the sentences to tell the person (what happened, what to do). Types only.
import type { Prompt } from "../../domain/index.js";
import type { TypedWords } from "../../policy/index.js";
import type { StallWatch } from "../../ports/index.js";

/** A value, or what to tell the person instead. */
export type MediaOutcome<T> = { ok: true; value: T } | { ok: false; say: string };

/** One of the sizes Telegram offers for a photo. */
export type PhotoSize = { fileId: string; width: number; height: number; fileSizeBytes?: number };

/** One photo or file of a message, as plain data. */
export type Attachment =
  | { kind: "photo"; sizes: readonly PhotoSize[] }
  | {
      kind: "document";
      document: {
        fileId: string;
        fileName?: string | undefined;
        mimeType?: string | undefined;
        sizeBytes?: number | undefined;
      };
    };

/** A voice note or audio file. */
export type VoiceNote = {
  fileId: string;
  mimeType?: string | undefined;
  sizeBytes?: number | undefined;
  durationS?: number | undefined;
};

/** Telegram's file downloads (getFile, then the file's URL under the token), as the bot has them. */
export type FileDownloads = {
  apiRoot: string;
  token: string;
  getFile(fileId: string): Promise<{ file_path?: string | undefined; file_size?: number | undefined }>;
  /** Watches a download's bytes: `onStall` once none came for a Bot API call's deadline. */
  watchTransfer(onStall: () => void): StallWatch;
  /** Through the environment's proxy, if any; default the global fetch. */
  fetch?: typeof fetch;
};

/** A file of the project to send: an image Telegram shows as a photo, or any file (a folder zipped). */
export type ProjectFile = {
  fileName: string;
  bytes: Uint8Array;
  /** Relative to the project root, with `/` ("" for the root itself). */
  relativePath: string;
  zipped: boolean;
  /** For a zip: what was left out and why. */
  leftOut: readonly string[];
  asPhoto: boolean;
};

/** One file Claude left in the project's outbox. */
export type OutboxFile = { name: string; asPhoto: boolean; read(): Promise<Uint8Array> };

export type OutboxSkip = { name: string; reason: string };

export interface MediaPort {
  /** A run's prompt in the project: images and PDFs inline, other files saved and named; `notes` say what was saved instead of shown. */
  prompt(
    projectRoot: string,
    words: string,
    attachments: readonly Attachment[],
  ): Promise<MediaOutcome<{ prompt: Prompt; notes: readonly string[] }>>;
  /**
   * The words an answer to a question or approval carries: for Claude, `words` and then the
   * attachments saved in the project and named; shown back as `words` and the files' names.
   */
  answer(projectRoot: string, words: string, attachments: readonly Attachment[]): Promise<MediaOutcome<TypedWords>>;
  /** What a voice note says (`[voice]`'s server), and the line that echoes it in the chat. */
  transcribe(voice: VoiceNote): Promise<MediaOutcome<{ words: string; echo: string }>>;
  /** `/file get PATH`: a file of the project, or a folder zipped. */
  readProjectFile(projectRoot: string, path: string): Promise<MediaOutcome<ProjectFile>>;
  /** Makes the project's outbox before a run (with a .gitignore), when the outbox is on. */
  prepareOutbox(projectRoot: string): Promise<void>;
  /** What to send from the outbox after a run, and what not (it is moved all the same). */
  collectOutbox(projectRoot: string): Promise<{ send: readonly OutboxFile[]; skipped: readonly OutboxSkip[] }>;
  /** Moves a file from the outbox to the sent folder; undefined once moved, else why not. */
  markSent(projectRoot: string, name: string): Promise<string | undefined>;
  /** The notice listing what was not sent, and what stayed in the outbox; undefined when there is neither. */
  outboxNotice(skipped: readonly OutboxSkip[], left?: { names: readonly string[]; why: string }): string | undefined;
}
