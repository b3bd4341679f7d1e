// `/file get PATH`: resolves a path relative to the project root and reads what may be sent.
// Outside the project, through a symbolic link, or matching a deny glob is refused; a folder
// becomes a zip; everything stays under Telegram's 50 MB upload limit.
import { constants } from "node:fs";
import { lstat, open, realpath } from "node:fs/promises";
import { join, relative, resolve, sep } from "node:path";
import { ioErrorWords } from "../domain/index.js";
import { accept, MediaError, refuse, type MediaResult } from "./errors.js";
import { denyMatcher } from "./file-names.js";
import { isInside, projectMissing } from "./folders.js";
import { formatBytes, TELEGRAM_UPLOAD_MAX_BYTES } from "./sizes.js";
import { zipFolder, type ZipLimits } from "./zip-folder.js";

export type FileGetLimits = Readonly<{ denyGlobs: readonly string[] } & Partial<ZipLimits>>;

/** The defaults for a zipped folder: Telegram's upload limit, and bounds on the work. */
export const DEFAULT_ZIP_LIMITS: ZipLimits = Object.freeze({
  maxFiles: 2000,
  maxZipBytes: TELEGRAM_UPLOAD_MAX_BYTES,
  maxReadBytes: 4 * TELEGRAM_UPLOAD_MAX_BYTES,
});

export type OutgoingFile = Readonly<{
  /** The name to send it under (`notes.md`, `src.zip`). */
  fileName: string;
  bytes: Buffer;
  /** Relative to the project root, with `/` ("" for the root itself). */
  relativePath: string;
  zipped: boolean;
  /** For a zip: what was left out and why. */
  leftOut: readonly string[];
}>;

const HOW_TO_ASK = "Ask for a path inside the project, relative to its root, e.g. /file get src/app.ts.";

/** Reads what `/file get requested` would send from `projectRoot`, or says why not. */
export async function readFileForSending(
  projectRoot: string,
  requested: string,
  limits: FileGetLimits,
): Promise<MediaResult<OutgoingFile>> {
  const asked = requested.trim();
  if (asked === "" || asked.includes("\0")) return refuse("media.bad_path", "Which file should I send?", HOW_TO_ASK);
  let root: string;
  try {
    root = await realpath(projectRoot);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return projectMissing(projectRoot, "nothing was sent");
    throw error;
  }
  const target = resolve(root, asked);
  if (!isInside(root, target)) {
    return refuse("media.outside_project", `${asked} is outside the project, so I will not send it.`, HOW_TO_ASK);
  }
  const relativePath = relative(root, target).split(sep).join("/");
  const walked = await checkEveryPart(root, relativePath, asked);
  if (!walked.ok) return walked;
  const denied = denyMatcher(limits.denyGlobs)(relativePath);
  if (denied !== undefined) {
    return refuse(
      "media.name_denied",
      `I will not send ${relativePath}: paths matching ${denied} are refused (files.deny_globs), as they usually hold secrets.`,
      "Ask for another file, or change files.deny_globs.",
    );
  }
  const zipLimits: ZipLimits = {
    maxFiles: limits.maxFiles ?? DEFAULT_ZIP_LIMITS.maxFiles,
    maxZipBytes: limits.maxZipBytes ?? DEFAULT_ZIP_LIMITS.maxZipBytes,
    maxReadBytes: limits.maxReadBytes ?? DEFAULT_ZIP_LIMITS.maxReadBytes,
  };
  if (walked.value === "directory") {
    const zipped = await zipFolder(root, relativePath, denyMatcher(limits.denyGlobs), zipLimits);
    if (!zipped.ok) return zipped;
    const base = relativePath === "" ? "project" : (relativePath.split("/").pop() ?? "folder");
    return accept({
      fileName: `${base}.zip`,
      bytes: zipped.value.bytes,
      relativePath,
      zipped: true,
      leftOut: zipped.value.leftOut,
    });
  }
  if (walked.value !== "file") {
    return refuse("media.not_a_file", `${relativePath} is not a file or a folder.`, HOW_TO_ASK);
  }
  const bytes = await readNoFollow(target, zipLimits.maxZipBytes, relativePath);
  if (!bytes.ok) return bytes;
  const fileName = relativePath.split("/").pop() ?? relativePath;
  return accept({ fileName, bytes: bytes.value, relativePath, zipped: false, leftOut: [] });
}

/** lstat each part from the root down: missing or a symbolic link anywhere refuses. */
async function checkEveryPart(
  root: string,
  relativePath: string,
  asked: string,
): Promise<MediaResult<"file" | "directory" | "other">> {
  let current = root;
  let kind: "file" | "directory" | "other" = "directory";
  for (const part of relativePath === "" ? [] : relativePath.split("/")) {
    current = join(current, part);
    const stats = await lstat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
      throw new MediaError("media.io_failed", `Could not look at ${asked} (${ioErrorWords(error)}).`, { cause: error });
    });
    if (stats === undefined) {
      return refuse(
        "media.not_found",
        `There is no ${asked} in the project.`,
        "Check the path; it is relative to the project root.",
      );
    }
    if (stats.isSymbolicLink()) {
      return refuse(
        "media.symlink",
        `${asked} goes through a symbolic link, and I do not follow links.`,
        "Ask for the file itself, by its real path inside the project.",
      );
    }
    kind = stats.isDirectory() ? "directory" : stats.isFile() ? "file" : "other";
  }
  return accept(kind);
}

async function readNoFollow(path: string, maxBytes: number, shown: string): Promise<MediaResult<Buffer>> {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
  } catch (cause) {
    throw new MediaError("media.io_failed", `Could not open ${shown} (${ioErrorWords(cause)}).`, { cause });
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) {
      return refuse(
        "media.too_big",
        `${shown} is ${formatBytes(size)}; Telegram takes files up to ${formatBytes(maxBytes)} from a bot.`,
        "Compress or split it first, or ask for a smaller file.",
      );
    }
    return accept(await handle.readFile());
  } finally {
    await handle.close();
  }
}
