// Downloads a file a person sent through Telegram: getFile (through a port; grammY's
// `bot.api.getFile` fits) for the path, then the Bot API's file URL, read with a byte cap; a
// `--local` server's absolute path is read from disk instead. URL and path hold the bot token,
// so neither appears in a message or an error. A dropped connection or a failing Telegram (5xx,
// 429) is tried again, twice: the file is there, and the person would otherwise send it again.
// A download takes as long as the line needs; one whose bytes stop coming is tried again.
import { isAbsolute } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import type { StallWatch } from "../ports/index.js";
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
  /**
   * Watches a download's bytes: `onStall` once none came for too long (a connection the network
   * dropped without a word), and the try is given up. Without it a try waits as long as it takes.
   */
  watchTransfer?: (onStall: () => void) => StallWatch;
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
  /** One try: the bytes, or how many came past the limit. */
  const fetchBytes = async (): Promise<Buffer | { over: number }> => {
    const stalled = new AbortController();
    const watch = source.watchTransfer?.(() => stalled.abort(new DownloadStalled()));
    try {
      const signal = request.signal === undefined ? stalled.signal : AbortSignal.any([stalled.signal, request.signal]);
      const answer = await (source.fetch ?? fetch)(url, { signal });
      if (!answer.ok || answer.body === null) {
        await answer.body?.cancel();
        throw new StatusAnswer(answer.status);
      }
      return await readAtMost(answer.body, maxBytes, () => watch?.moved());
    } finally {
      watch?.stop();
    }
  };
  let bytes: Buffer | { over: number };
  try {
    // A try that gets no answer, or breaks off, may pass; so may Telegram failing (5xx, 429).
    bytes = await again(fetchBytes, (error) => !(error instanceof StatusAnswer) || error.passing);
  } catch (cause) {
    if (cause instanceof StatusAnswer)
      throw new MediaError("media.download_failed", `Telegram answered ${cause.status} to the download of ${name}.`);
    throw new MediaError("media.download_failed", `The download of ${name} from Telegram failed.`, {
      cause: withoutUrl(cause),
    });
  }
  return Buffer.isBuffer(bytes) ? accept(bytes) : tooBig(bytes.over);
}

/** The body's bytes, or, once more than `maxBytes` came, how many (the rest is not read). */
async function readAtMost(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  moved: () => void,
): Promise<Buffer | { over: number }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    moved();
    total += chunk.byteLength;
    if (total > maxBytes) {
      await body.cancel();
      return { over: total };
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A try whose bytes stopped coming: given up, and tried again. */
class DownloadStalled extends Error {
  override readonly name = "DownloadStalled";
  constructor() {
    super("no bytes came for too long (the connection may have dropped)");
  }
}

/** Tries per file: the first and two more. */
const ATTEMPTS = 3;
/** Wait before try n + 1 is n × this. */
const RETRY_DELAY_MS = 400;

/** A download answered with an error status; 5xx or 429 may pass: Telegram may well answer the next try. */
class StatusAnswer extends Error {
  readonly passing: boolean;
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
    this.passing = status >= 500 || status === 429;
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

/** fetch errors can carry the URL (and so the token); keep only the error's kind and code. */
function withoutUrl(cause: unknown): Error {
  const inner = (cause as { cause?: { code?: unknown } } | undefined)?.cause;
  const code = typeof inner?.code === "string" ? ` (${inner.code})` : "";
  return new Error(`${cause instanceof Error ? cause.name : "Error"}${code}`);
}
