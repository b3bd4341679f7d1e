// Zips a project folder for sending: regular files only (symbolic links and denied paths are
// left out and listed), capped in file count, bytes read and zip size. fflate streams the
// deflate so a large folder never blocks the event loop for long.
import { constants } from "node:fs";
import { lstat, open, opendir } from "node:fs/promises";
import { join, posix } from "node:path";
import { ioErrorWords } from "../domain/index.js";
import { accept, MediaError, refuse, type MediaResult } from "./errors.js";
import { formatBytes } from "./sizes.js";

export type ZipLimits = Readonly<{
  /** Files in one zip. */
  maxFiles: number;
  /** Bytes of the finished zip (Telegram's upload limit). */
  maxZipBytes: number;
  /** Bytes read from the folder's files, so a huge compressible folder is refused early. */
  maxReadBytes: number;
}>;

export type ZippedFolder = Readonly<{
  bytes: Buffer;
  files: number;
  /** Paths (relative to the project) left out, each with why: "a.pem (files.deny_globs)". */
  leftOut: readonly string[];
}>;

type Entry = { relative: string; absolute: string; sizeBytes: number };

/**
 * Zips `relativeDir` of `root` (already checked to be a real folder inside it). Entries are
 * named `<folder name>/<path>`; `isDenied` gets project-relative paths with `/`.
 */
export async function zipFolder(
  root: string,
  relativeDir: string,
  isDenied: (relativePath: string) => string | undefined,
  limits: ZipLimits,
): Promise<MediaResult<ZippedFolder>> {
  const label = relativeDir === "" ? "the project" : relativeDir;
  const leftOut: string[] = [];
  const entries: Entry[] = [];
  let readBytes = 0;
  const tooBig = (what: string) =>
    refuse("media.zip_too_big", `${label} is too big to send: ${what}.`, "Ask for a smaller folder or single files.");
  try {
    for await (const entry of walk(root, relativeDir, isDenied, leftOut)) {
      entries.push(entry);
      readBytes += entry.sizeBytes;
      if (entries.length > limits.maxFiles) return tooBig(`it holds more than ${limits.maxFiles} files`);
      if (readBytes > limits.maxReadBytes)
        return tooBig(`its files add up to more than ${formatBytes(limits.maxReadBytes)}`);
    }
  } catch (cause) {
    throw new MediaError("media.io_failed", `Could not read the folder ${label} (${ioErrorWords(cause)}).`, { cause });
  }
  const top = posix.basename(relativeDir) || posix.basename(root.split("\\").join("/")) || "project";
  const within = (relative: string) => (relativeDir === "" ? relative : relative.slice(relativeDir.length + 1));
  const zipped = await deflateAll(entries, (relative) => `${top}/${within(relative)}`, limits.maxZipBytes);
  if (zipped === undefined)
    return tooBig(`its zip grows past ${formatBytes(limits.maxZipBytes)}, Telegram's upload limit`);
  return accept({ bytes: zipped, files: entries.length, leftOut });
}

async function* walk(
  root: string,
  relativeDir: string,
  isDenied: (relativePath: string) => string | undefined,
  leftOut: string[],
): AsyncGenerator<Entry> {
  const dir = await opendir(join(root, relativeDir));
  const names: string[] = [];
  for await (const dirent of dir) names.push(dirent.name);
  names.sort();
  for (const name of names) {
    const relative = relativeDir === "" ? name : `${relativeDir}/${name}`;
    const absolute = join(root, relative);
    const stats = await lstat(absolute);
    const glob = isDenied(relative);
    if (glob !== undefined) leftOut.push(`${relative} (files.deny_globs ${glob})`);
    else if (stats.isSymbolicLink()) leftOut.push(`${relative} (symbolic link)`);
    else if (stats.isDirectory()) yield* walk(root, relative, isDenied, leftOut);
    else if (stats.isFile()) yield { relative, absolute, sizeBytes: stats.size };
    else leftOut.push(`${relative} (not a regular file)`);
  }
}

/** The zip of `entries`, or undefined once it passes `maxZipBytes`. */
async function deflateAll(
  entries: readonly Entry[],
  nameOf: (relative: string) => string,
  maxZipBytes: number,
): Promise<Buffer | undefined> {
  // fflate builds its tables when loaded: only when a folder is zipped, not at every start.
  const { Zip, ZipDeflate } = await import("fflate");
  const chunks: Uint8Array[] = [];
  let size = 0;
  let failure: Error | undefined;
  const zip = new Zip((error, chunk) => {
    if (error !== null) failure = error;
    else {
      size += chunk.byteLength;
      chunks.push(chunk);
    }
  });
  for (const entry of entries) {
    const file = new ZipDeflate(nameOf(entry.relative), { level: 6 });
    zip.add(file);
    // O_NOFOLLOW: a file swapped for a link since the walk is not read.
    const handle = await open(entry.absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      for await (const chunk of handle.createReadStream({ autoClose: false })) {
        file.push(chunk as Buffer);
        if (size > maxZipBytes) return undefined;
      }
    } finally {
      await handle.close();
    }
    file.push(new Uint8Array(0), true);
    if (failure !== undefined)
      throw new MediaError("media.io_failed", `Could not build the zip (${ioErrorWords(failure)}).`, {
        cause: failure,
      });
  }
  zip.end();
  return size > maxZipBytes ? undefined : Buffer.concat(chunks);
}
