// Downloads a file a person sent through Telegram: getFile (through a port; grammY's
// `bot.api.getFile` fits) for the path, then the Bot API's file URL, read with a byte cap; a
// `--local` server's absolute path is read from disk instead. URL and path hold the bot token,
// so neither appears in a message or an error. A dropped connection or a failing Telegram (5xx,
// 429) is tried again, twice: the file is there, and the person would otherwise send it again.
import { isAbsolute } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { accept, MediaError, refuse, type MediaResult } from "./errors.js";
import { readLocalTelegramFile } from "./local-telegram-file.js";
import { formatBytes, TELEGRAM_DOWNLOAD_MAX_BYTES } from "./sizes.js";

/** The Bot API's File object, as far as downloading needs it. */
export type TelegramFile = { file_path?: string | undefined; file_size?: number | undefined };

export type TelegramFileSource = Readonly<{
  /** e.g. "https://api.telegram.org", without a trailing slash. */
  apiRoot: string;
  token: string;
  getFile(fileId: string): Promise<TelegramFile>;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
}>;

/**
 * The bytes of a Telegram file, at most `maxBytes` (pass at most TELEGRAM_DOWNLOAD_MAX_BYTES
 * unless the Bot API server is a local one). Refuses (`media.too_big`, `media.no_download`)
 * when the message's size, Telegram's or the bytes read exceed it, or Telegram gives no path;
 * throws MediaError `media.download_failed` when Telegram refuses or fails. An absolute path
 * (a `--local` server, which serves no file URL) is read from this machine's disk.
 */
export async function downloadTelegramFile(
  source: TelegramFileSource,
  request: {
    fileId: string;
    name: string;
    /** The message's file_size, when Telegram gave one: checked before asking for the file. */
    sizeBytes?: number | undefined;
    maxBytes: number;
    signal?: AbortSignal;
  },
): Promise<MediaResult<Buffer>> {
  const { name, maxBytes } = request;
  const tooBig = (size: number) =>
    refuse(
      "media.too_big",
      `${name} is ${formatBytes(size)}, over the ${formatBytes(maxBytes)} limit per file.`,
      "Compress or split it and send it again.",
    );
  if (request.sizeBytes !== undefined && request.sizeBytes > maxBytes) return tooBig(request.sizeBytes);
  const again = retrying(request.signal);
  let file: TelegramFile;
  try {
    file = await again(() => source.getFile(request.fileId), isPassingApiError);
  } catch (cause) {
    throw new MediaError("media.download_failed", `Telegram did not hand over ${name}.`, { cause });
  }
  if (file.file_size !== undefined && file.file_size > maxBytes) return tooBig(file.file_size);
  if (file.file_path === undefined || file.file_path === "") {
    return refuse(
      "media.no_download",
      `Telegram does not let bots download ${name} (bots get files up to ${formatBytes(TELEGRAM_DOWNLOAD_MAX_BYTES)}).`,
      "Compress or split it and send it again.",
    );
  }
  if (isAbsolute(file.file_path)) return readLocalTelegramFile(file.file_path, request, tooBig);
  const url = `${source.apiRoot}/file/bot${source.token}/${file.file_path}`;
  let response: Response;
  try {
    const get = () => (source.fetch ?? fetch)(url, request.signal === undefined ? {} : { signal: request.signal });
    response = await again(async () => {
      const answer = await get();
      if (answer.status >= 500 || answer.status === 429) {
        await answer.body?.cancel();
        throw new PassingStatus(answer.status);
      }
      return answer;
    }, anyFailure);
  } catch (cause) {
    if (cause instanceof PassingStatus)
      throw new MediaError("media.download_failed", `Telegram answered ${cause.status} to the download of ${name}.`);
    throw new MediaError("media.download_failed", `The download of ${name} from Telegram failed.`, {
      cause: withoutUrl(cause),
    });
  }
  if (!response.ok || response.body === null) {
    throw new MediaError("media.download_failed", `Telegram answered ${response.status} to the download of ${name}.`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) {
      await response.body.cancel();
      return tooBig(total);
    }
    chunks.push(chunk);
  }
  return accept(Buffer.concat(chunks));
}

/** Tries per file: the first and two more. */
const ATTEMPTS = 3;
/** Wait before try n + 1 is n × this. */
const RETRY_DELAY_MS = 400;

/** A download answered 5xx or 429: Telegram may well answer the next try. */
class PassingStatus extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** Runs a step, again (after a short wait) while it fails in a way that `passing` says may pass. */
function retrying(signal: AbortSignal | undefined) {
  return async <T>(step: () => Promise<T>, passing: (error: unknown) => boolean): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await step();
      } catch (error) {
        if (attempt >= ATTEMPTS || signal?.aborted === true || !passing(error)) throw error;
        await delay(RETRY_DELAY_MS * attempt, undefined, signal === undefined ? {} : { signal });
      }
    }
  };
}

/** A Bot API call that Telegram failed (5xx, 429) or that got no answer; not a refusal (4xx). */
function isPassingApiError(error: unknown): boolean {
  const code = (error as { error_code?: unknown } | null)?.error_code;
  return typeof code === "number" ? code >= 500 || code === 429 : true;
}

/** A download fails by getting no answer (fetch throws then) or a 5xx or 429: each may pass. */
const anyFailure = (): boolean => true;

/** fetch errors can carry the URL (and so the token); keep only the error's kind and code. */
function withoutUrl(cause: unknown): Error {
  const inner = (cause as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof inner?.code === "string" ? ` (${inner.code})` : "";
  return new Error(`${cause instanceof Error ? cause.name : "Error"}${code}`);
}
