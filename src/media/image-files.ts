// Images named on a command line (`telecode run --image FILE`): read from disk and checked
// against the Messages API's limits like a photo from Telegram, each refusal naming the file.
import { readFile, stat } from "node:fs/promises";
import { basename, resolve } from "node:path";
import { ioErrorWords } from "../domain/index.js";
import { MediaError, refuse, type MediaResult } from "./errors.js";
import { checkInlineImages, MESSAGES_API_IMAGE_LIMITS, type InlineImage } from "./image-limits.js";
import { formatBytes } from "./sizes.js";

/** Reads `paths` (relative to `cwd`) as images for one user message; refuses the first that cannot go. */
export async function readImageFiles(
  cwd: string,
  paths: readonly string[],
): Promise<MediaResult<readonly InlineImage[]>> {
  const images: { name: string; bytes: Uint8Array }[] = [];
  // Anything bigger than the API takes is refused without reading it.
  const readLimit = MESSAGES_API_IMAGE_LIMITS.maxBase64Bytes;
  for (const path of paths) {
    const full = resolve(cwd, path);
    const stats = await stat(full).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
      throw new MediaError("media.io_failed", `Could not look at ${path} (${ioErrorWords(error)}).`, { cause: error });
    });
    if (stats === undefined)
      return refuse("media.not_found", `There is no image ${path}.`, "Check the path given to --image.");
    if (!stats.isFile()) return refuse("media.not_a_file", `${path} is not a file.`, "Give --image an image file.");
    if (stats.size > readLimit) {
      return refuse(
        "media.image_too_large",
        `${path} is ${formatBytes(stats.size)}; Claude takes images up to ${formatBytes((readLimit * 3) / 4)} (5 MB as base64).`,
        "Scale it down or save it as a JPEG first.",
      );
    }
    try {
      images.push({ name: basename(full), bytes: await readFile(full) });
    } catch (cause) {
      throw new MediaError("media.io_failed", `Could not read ${path} (${ioErrorWords(cause)}).`, { cause });
    }
  }
  return checkInlineImages(images);
}
