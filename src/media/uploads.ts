// Saving files a person sent into the project's uploads folder: limits and deny globs checked
// first, the name made safe, never overwriting (name, name_1, …), never through a link
// (exclusive create with O_NOFOLLOW). Each refusal says the limit and what to do.
import { constants } from "node:fs";
import { open, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { ioErrorWords } from "../domain/index.js";
import { accept, MediaError, refuse, type MediaResult } from "./errors.js";
import { denyMatcher, isAllowedType, numberedName, sanitiseFileName } from "./file-names.js";
import { displayPath, ensureOwnFolder } from "./folders.js";
import type { SavedFileNote } from "./run-content.js";
import { formatBytes } from "./sizes.js";

export type UploadLimits = Readonly<{
  maxFileBytes: number;
  /** All files of one message (a media group) together. */
  maxMessageBytes: number;
  /** `files.allowed_types`: `*`, MIME types (`image/*`) or extensions (`.log`). */
  allowedTypes: readonly string[];
  denyGlobs: readonly string[];
}>;

/** Where uploads go: `uploadsDir` as configured, relative to the project root or absolute. */
export type UploadsPlace = Readonly<{ projectRoot: string; uploadsDir: string }>;

/** A file as the sender described it; `sizeBytes` may be unknown before the download. */
export type IncomingFile = Readonly<{ name: string; mimeType: string; sizeBytes?: number | undefined }>;

const MAX_NAME_TRIES = 1000;

/**
 * Checks a file before it is downloaded (or saved): its sanitised name against the deny globs,
 * its type, its size. Returns the name it would be saved under.
 */
export function checkUpload(file: IncomingFile, limits: UploadLimits): MediaResult<string> {
  const name = sanitiseFileName(file.name);
  const denied = denyMatcher(limits.denyGlobs)(name);
  if (denied !== undefined) {
    return refuse(
      "media.name_denied",
      `I did not save ${name}: names matching ${denied} are refused (files.deny_globs), as they usually hold secrets.`,
      "Rename the file and send it again.",
    );
  }
  if (!isAllowedType(name, file.mimeType, limits.allowedTypes)) {
    return refuse(
      "media.type_not_allowed",
      `I did not save ${name}: ${file.mimeType || "its type"} is not among the allowed types (${limits.allowedTypes.join(", ")}).`,
      "Send another type, or add it to files.allowed_types.",
    );
  }
  if (file.sizeBytes !== undefined && file.sizeBytes > limits.maxFileBytes) {
    return refuse(
      "media.too_big",
      `I did not save ${name}: it is ${formatBytes(file.sizeBytes)}, over the ${formatBytes(limits.maxFileBytes)} limit per file.`,
      "Compress or split it and send it again.",
    );
  }
  return accept(name);
}

/** Checks the files of one message together against `maxMessageBytes`. */
export function checkMessageTotal(files: readonly IncomingFile[], limits: UploadLimits): MediaResult<number> {
  const total = files.reduce((sum, file) => sum + (file.sizeBytes ?? 0), 0);
  if (total > limits.maxMessageBytes) {
    return refuse(
      "media.message_too_big",
      `These ${files.length} files are ${formatBytes(total)} together, over the ${formatBytes(limits.maxMessageBytes)} limit per message.`,
      "Send them in smaller groups.",
    );
  }
  return accept(total);
}

/**
 * Saves `bytes` under the uploads folder (created with its `.gitignore` when missing) as the
 * sanitised name or the first free numbered one. Refusals for the checks of `checkUpload`
 * (with the real size) and for an uploads folder that leads out of the project; throws
 * MediaError `media.io_failed` when the disk fails.
 */
export async function saveUpload(
  place: UploadsPlace,
  file: IncomingFile & { bytes: Uint8Array },
  limits: UploadLimits,
): Promise<MediaResult<SavedFileNote>> {
  const checked = checkUpload({ ...file, sizeBytes: file.bytes.byteLength }, limits);
  if (!checked.ok) return checked;
  const folder = await ensureOwnFolder(place.projectRoot, place.uploadsDir);
  if (!folder.ok) return folder;
  const path = await createExclusive(folder.value, checked.value, file.bytes);
  return accept({
    path: displayPath(place.projectRoot, path),
    sizeBytes: file.bytes.byteLength,
    mediaType: file.mimeType,
  });
}

/** Creates a new file named `name` or `name_N` in `dir`; an existing entry, even a link, is never opened. */
async function createExclusive(dir: string, name: string, bytes: Uint8Array): Promise<string> {
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
  for (let n = 0; n < MAX_NAME_TRIES; n++) {
    const path = join(dir, numberedName(name, n));
    if (dirname(path) !== dir) throw new MediaError("media.io_failed", `Refused to save outside ${dir}.`);
    let handle;
    try {
      handle = await open(path, flags, 0o644);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") continue;
      throw new MediaError("media.io_failed", `Could not save ${name} in ${dir} (${ioErrorWords(error)}).`, {
        cause: error,
      });
    }
    try {
      await handle.writeFile(bytes);
    } catch (error) {
      await handle.close();
      // What part of it went in (a full disk) is no file of the person's: it goes.
      await rm(path, { force: true }).catch(() => undefined);
      throw new MediaError("media.io_failed", `Could not write ${name} in ${dir} (${ioErrorWords(error)}).`, {
        cause: error,
      });
    }
    await handle.close();
    return path;
  }
  throw new MediaError("media.io_failed", `${dir} already holds ${MAX_NAME_TRIES} files named like ${name}.`);
}
