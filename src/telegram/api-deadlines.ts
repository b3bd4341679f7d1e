// Every Bot API call gets a deadline that fits what it does: Telegram answers a call within a
// second or two, a long poll once its timeout is up. A file goes out as fast as the line carries
// it, however slow (a phone's hotspot, a throttled plan): an upload is alive while the network
// takes its bytes, and given up only once it stops taking them. Without deadlines, a connection
// the network dropped without a word (a laptop woke on another Wi-Fi, a VPN came up) holds its
// call for grammY's 500 s: no message is read and a chat's answers wait that long. A call past
// its deadline fails as a dropped connection does (BotApiTimeout), and whoever made it tries
// again: the outbox, polling, start-up. A call the computer slept through is ended as it wakes
// (its deadline counts awake time, and would let a long poll wait on a connection that went with
// the sleep for up to 40 s more), and so is one made before the network changed under it.
import { InputFile, type Transformer } from "grammy";
import { formatDurationMs } from "../domain/index.js";
import {
  momentOf,
  SLEEP_NOTICE_MS,
  sleptSince,
  watchForStall,
  type Clock,
  type Moment,
  type StallWatch,
  type Wake,
  type WakeWatch,
} from "../ports/index.js";

export type BotApiDeadlines = {
  /** Any call but a long poll: Telegram's answer, or a file's next bytes taken (or fetched). */
  callMs: number;
  /** A long poll (getUpdates): its own timeout, and this much more. */
  pollGraceMs: number;
  /**
   * The slowest line a file is expected to go out on (a throttled mobile plan's). Once an
   * upload's last bytes are handed to the network, its answer may also take the time what the
   * computer's buffers still hold of it needs at this rate.
   */
  slowLineBytesPerSecond: number;
};

export const DEFAULT_BOT_API_DEADLINES: BotApiDeadlines = {
  callMs: 30_000,
  pollGraceMs: 15_000,
  slowLineBytesPerSecond: 16 * 1024,
};

/** What grammY itself waits for any call: longer than any deadline here, which govern. */
export const GRAMMY_TIMEOUT_SECONDS = 3600;

/** Telegram takes files of up to 50 MB from a bot: the size assumed of an upload not made by `uploadFile`. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;
/** The most an upload's connection may hold once its last bytes are taken (Linux's largest TCP send buffer). */
const SEND_BUFFER_BYTES = 4 * 1024 * 1024;
/** An upload's bytes are handed over in pieces this big, each one a sign the line is alive. */
const UPLOAD_CHUNK_BYTES = 16 * 1024;

/** A file being uploaded: its size, and who hears of each piece the connection takes. */
type Upload = { readonly bytes: number; taken?: (all: boolean) => void };

const uploads = new WeakMap<InputFile, Upload>();

/**
 * A file to upload whose call's deadline follows it: each piece the connection takes moves the
 * deadline on. Each call reads it afresh (a retry sends it again).
 */
export function uploadFile(data: Uint8Array, filename: string): InputFile {
  const upload: Upload = { bytes: data.byteLength };
  const file = new InputFile(() => piecesOf(data, upload), filename);
  uploads.set(file, upload);
  return file;
}

/** The file's bytes in pieces; a piece is taken when the next is asked for. */
function* piecesOf(data: Uint8Array, upload: Upload): Generator<Uint8Array> {
  for (let at = 0; at < data.byteLength; at += UPLOAD_CHUNK_BYTES) {
    yield data.subarray(at, at + UPLOAD_CHUNK_BYTES);
    upload.taken?.(at + UPLOAD_CHUNK_BYTES >= data.byteLength);
  }
}

/**
 * A call that got no answer in time, or that was cut (the computer slept through it, the network
 * changed under it); retried like a dropped connection (it carries no error_code).
 */
export class BotApiTimeout extends Error {
  override readonly name = "BotApiTimeout";
  constructor(
    readonly method: string,
    /** How long nothing moved before it was given up (0 when it was cut). */
    readonly afterMs: number,
    options?: ErrorOptions & { cutBy?: string; uploading?: boolean },
  ) {
    const after = afterMs < 1000 ? `${afterMs} ms` : `${Math.round(afterMs / 1000)} s`;
    super(
      options?.cutBy !== undefined
        ? `${options.cutBy} while ${method} waited for Telegram (its connection is taken for gone)`
        : options?.uploading === true
          ? `Telegram neither answered ${method} nor took more of its file for ${after} (the connection may have dropped)`
          : `Telegram did not answer ${method} within ${after} (the connection may have dropped)`,
      options,
    );
  }
}

/**
 * How long `method` with `payload` may go without an answer, or, uploading, without its bytes
 * moving: a long poll its timeout and the grace, any other call `callMs` (and a file whose
 * pieces cannot be followed the time Telegram's largest needs on the slowest line).
 */
export function deadlineMs(
  method: string,
  payload: unknown,
  deadlines: BotApiDeadlines,
  files: readonly InputFile[] = filesIn(payload),
): number {
  if (method === "getUpdates") {
    const timeout = (payload as { timeout?: unknown } | undefined)?.timeout;
    return (typeof timeout === "number" ? timeout * 1000 : 0) + deadlines.pollGraceMs;
  }
  const unfollowed = files.some((file) => !uploads.has(file));
  return deadlines.callMs + (unfollowed ? slowLineMs(MAX_UPLOAD_BYTES, deadlines) : 0);
}

/** How long `bytes` take on the slowest line. */
function slowLineMs(bytes: number, deadlines: BotApiDeadlines): number {
  return Math.ceil((bytes / deadlines.slowLineBytesPerSecond) * 1000);
}

/** The files in `value` (a payload, a media group's items). */
function filesIn(value: unknown): InputFile[] {
  if (value instanceof InputFile) return [value];
  if (typeof value !== "object" || value === null) return [];
  return (Array.isArray(value) ? value : Object.values(value)).flatMap(filesIn);
}

/**
 * Lets `watch` follow the uploads among a call's `files`: each piece taken moves it on, and once a file's
 * last is taken, what the connection may still hold of the call's files is allowed for. Returns
 * whether the call uploads anything it follows.
 */
function followUploads(files: readonly InputFile[], watch: StallWatch, deadlines: BotApiDeadlines): boolean {
  const followed = files.flatMap((file) => uploads.get(file) ?? []);
  const bytes = followed.reduce((sum, upload) => sum + upload.bytes, 0);
  const inBuffersMs = slowLineMs(Math.min(bytes, SEND_BUFFER_BYTES), deadlines);
  for (const upload of followed)
    upload.taken = (all) => {
      watch.moved();
      if (all) watch.allow(inBuffersMs);
    };
  return followed.length > 0;
}

type CallInFlight = { since: Moment; cut(by: string): void };

/** What cut a call made at `since`, told by `wake`: a sleep it spanned, a change of network before it; else undefined. */
function cutBy(clock: Clock, since: Moment, wake: Wake): string | undefined {
  const slept = sleptSince(clock, since);
  if (slept >= SLEEP_NOTICE_MS) return `the computer slept ${formatDurationMs(slept)}`;
  return wake.networkChanged && since.awakeMs <= wake.lookedBefore.awakeMs ? "the network changed" : undefined;
}

/**
 * A grammY transformer that ends each call at its deadline, or when the computer slept through
 * it or changed network under it, as well as when its caller aborts it.
 */
export function withDeadlines(clock: Clock, deadlines: BotApiDeadlines, wakes?: WakeWatch): Transformer {
  const inFlight = new Set<CallInFlight>();
  wakes?.onWake((wake) => {
    for (const call of inFlight) {
      const by = cutBy(clock, call.since, wake);
      if (by !== undefined) call.cut(by);
    }
  });
  return async (prev, method, payload, signal) => {
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    if (signal?.aborted === true) abort();
    else signal?.addEventListener("abort", abort, { once: true });
    /** Why the call was ended here: nothing moved in time (no `cutBy`), or it was cut. */
    let ended: { cutBy?: string; quietMs?: number } | undefined;
    const files = filesIn(payload);
    const watch = watchForStall(clock, deadlineMs(method, payload, deadlines, files), (quietMs) => {
      ended = { quietMs };
      controller.abort();
    });
    const uploading = followUploads(files, watch, deadlines);
    const call: CallInFlight = {
      since: momentOf(clock),
      cut(by) {
        ended = { cutBy: by };
        controller.abort();
      },
    };
    inFlight.add(call);
    try {
      // grammY types its signal with a shim; on Node it is the platform's AbortSignal.
      return await prev(method, payload, controller.signal as unknown as Parameters<typeof prev>[2]);
    } catch (error) {
      if (ended === undefined) throw error;
      const { cutBy, quietMs = 0 } = ended;
      throw new BotApiTimeout(method, quietMs, { cause: error, uploading, ...(cutBy === undefined ? {} : { cutBy }) });
    } finally {
      inFlight.delete(call);
      watch.stop();
      signal?.removeEventListener("abort", abort);
    }
  };
}
