// Reads a file a `--local` Bot API server already downloaded: its getFile answers with an
// absolute path on its own disk and serves no file URL. The path holds the bot token (the
// server's folder per bot), so it never appears in a message or an error.
import { open, type FileHandle } from "node:fs/promises";
import { accept, isMediaError, MediaError, type MediaResult } from "./errors.js";

const CHUNK_BYTES = 1024 * 1024;

/**
 * The bytes at `path`, at most `maxBytes`: the size is checked before reading and the read
 * stops one byte past the limit, so a file that grows meanwhile is still refused with
 * `tooBig(bytes)`. Throws MediaError `media.download_failed` when the file cannot be read here
 * (gone, unreadable, not a file, or the server runs on another machine).
 */
export async function readLocalTelegramFile(
  path: string,
  request: { name: string; maxBytes: number; signal?: AbortSignal | undefined },
  tooBig: (bytes: number) => MediaResult<Buffer>,
): Promise<MediaResult<Buffer>> {
  const { name, maxBytes, signal } = request;
  let handle: FileHandle | undefined;
  try {
    signal?.throwIfAborted();
    handle = await open(path, "r");
    const stats = await handle.stat();
    if (!stats.isFile()) throw unreadable(name, "not a file");
    if (stats.size > maxBytes) return tooBig(stats.size);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      signal?.throwIfAborted();
      const chunk = Buffer.alloc(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return accept(Buffer.concat(chunks, total));
      total += bytesRead;
      if (total > maxBytes) return tooBig(Math.max(total, (await handle.stat()).size));
      chunks.push(chunk.subarray(0, bytesRead));
    }
  } catch (cause) {
    if (isMediaError(cause)) throw cause;
    if (signal?.aborted === true) {
      throw new MediaError("media.download_failed", `Reading ${name} was cancelled.`, { cause: signal.reason });
    }
    throw unreadable(name, errorCode(cause));
  } finally {
    await handle?.close();
  }
}

/** fs errors name the path (and so the token) in their message: keep only the code. */
function unreadable(name: string, code: string | undefined): MediaError {
  const why = code === undefined ? "" : ` (${code})`;
  return new MediaError(
    "media.download_failed",
    `Could not read ${name} where the Bot API server saved it${why}. ` +
      "Run telegram-bot-api with --local on the same machine as Telecode, its files readable by Telecode, " +
      "and send the file again if the server removed it.",
    { cause: new Error(`local file unreadable${why}`) },
  );
}

function errorCode(cause: unknown): string | undefined {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === "string" ? code : undefined;
}
