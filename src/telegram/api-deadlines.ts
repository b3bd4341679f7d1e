// Every Bot API call gets a deadline that fits what it does: Telegram answers a call within a
// second or two, a long poll once its timeout is up, an upload as fast as the line carries it.
// Without one, a connection the network dropped without a word (a laptop woke on another
// Wi-Fi, a VPN came up) holds its call for grammY's 500 s: no message is read and a chat's
// answers wait that long. A call past its deadline fails as a dropped connection does
// (BotApiTimeout), and whoever made it tries again: the outbox, polling, start-up. A call the
// computer slept through is ended as it wakes (its deadline counts awake time, and would let a
// long poll wait on a connection that went with the sleep for up to 40 s more), and so is one
// made before the network changed under it.
import { InputFile, type Transformer } from "grammy";
import { formatDurationMs } from "../domain/index.js";
import {
  momentOf,
  SLEEP_NOTICE_MS,
  sleptSince,
  type Clock,
  type Moment,
  type Wake,
  type WakeWatch,
} from "../ports/index.js";

export type BotApiDeadlines = {
  /** Any call but a long poll or an upload. */
  callMs: number;
  /** A long poll (getUpdates): its own timeout, and this much more. */
  pollGraceMs: number;
  /** An upload (or a download): `callMs`, and its bytes at this rate (a poor mobile uplink's). */
  uploadBytesPerSecond: number;
};

export const DEFAULT_BOT_API_DEADLINES: BotApiDeadlines = {
  callMs: 30_000,
  pollGraceMs: 15_000,
  uploadBytesPerSecond: 100 * 1024,
};

/** What grammY itself waits for any call: longer than any deadline here, which govern. */
export const GRAMMY_TIMEOUT_SECONDS = 3600;

/** Telegram takes files of up to 50 MB from a bot: the size assumed of an upload of unknown size. */
const MAX_UPLOAD_BYTES = 50 * 1024 * 1024;

const uploadSizes = new WeakMap<InputFile, number>();

/** A file to upload whose size its deadline knows. */
export function uploadFile(data: Uint8Array, filename: string): InputFile {
  const file = new InputFile(data, filename);
  uploadSizes.set(file, data.byteLength);
  return file;
}

/**
 * A call that got no answer in time, or that was cut (the computer slept through it, the network
 * changed under it); retried like a dropped connection (it carries no error_code).
 */
export class BotApiTimeout extends Error {
  override readonly name = "BotApiTimeout";
  constructor(
    readonly method: string,
    readonly afterMs: number,
    options?: ErrorOptions & { cutBy?: string },
  ) {
    const after = afterMs < 1000 ? `${afterMs} ms` : `${Math.round(afterMs / 1000)} s`;
    super(
      options?.cutBy === undefined
        ? `Telegram did not answer ${method} within ${after} (the connection may have dropped)`
        : `${options.cutBy} while ${method} waited for Telegram (its connection is taken for gone)`,
      options,
    );
  }
}

/** How long `method` with `payload` may take before it is given up. */
export function deadlineMs(method: string, payload: unknown, deadlines: BotApiDeadlines): number {
  if (method === "getUpdates") {
    const timeout = (payload as { timeout?: unknown } | undefined)?.timeout;
    return (typeof timeout === "number" ? timeout * 1000 : 0) + deadlines.pollGraceMs;
  }
  const bytes = uploadBytes(payload);
  return bytes === 0 ? deadlines.callMs : transferMs(bytes, deadlines);
}

/** How long sending or fetching a file of `bytes` may take: a call's time, and the bytes' at the upload rate. */
export function transferMs(bytes: number, deadlines: BotApiDeadlines): number {
  return deadlines.callMs + Math.ceil((bytes / deadlines.uploadBytesPerSecond) * 1000);
}

/** The bytes of the files in `value` (a payload, a media group's items), 0 when it has none. */
function uploadBytes(value: unknown): number {
  if (value instanceof InputFile) return uploadSizes.get(value) ?? MAX_UPLOAD_BYTES;
  if (typeof value !== "object" || value === null) return 0;
  let bytes = 0;
  for (const item of Array.isArray(value) ? value : Object.values(value)) bytes += uploadBytes(item);
  return bytes;
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
    const ms = deadlineMs(method, payload, deadlines);
    const controller = new AbortController();
    const abort = (): void => controller.abort();
    if (signal?.aborted === true) abort();
    else signal?.addEventListener("abort", abort, { once: true });
    /** Why the call was ended here: its deadline passed (no `cutBy`), or it was cut. */
    let ended: { cutBy?: string } | undefined;
    const timer = clock.setTimer(ms, () => {
      ended = {};
      controller.abort();
    });
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
      throw ended === undefined ? error : new BotApiTimeout(method, ms, { cause: error, ...ended });
    } finally {
      inFlight.delete(call);
      timer.cancel();
      signal?.removeEventListener("abort", abort);
    }
  };
}
