// Start-up's first Bot API call (getMe) with attempts of our own, because grammY's bot.init()
// retries an unreachable Bot API forever and silently: each failed attempt is said (where,
// why, when the next one is), retried with backoff, and a stop signal ends the wait at once.
import { GrammyError, HttpError, type Bot } from "grammy";
import type { Clock, Logger } from "../../ports/index.js";
import { tlsRefusalWords } from "../../render/index.js";
import { BotApiTimeout } from "../api-deadlines.js";
import { BridgeError } from "./bridge-error.js";
import type { TelecodeContext } from "./context.js";

/** One failed attempt to reach the Bot API at start, for the person watching. */
export type BotApiUnreachable = {
  apiRoot: string;
  attempt: number;
  reason: string;
  retryInMs: number;
  /** What to do, when the failure says (a certificate this computer does not trust). */
  hint?: string;
};

export type BotInitOptions = {
  apiRoot: string;
  clock: Clock;
  logger: Logger;
  signal?: AbortSignal | undefined;
  onUnreachable?: ((unreachable: BotApiUnreachable) => void) | undefined;
};

const FIRST_RETRY_MS = 1000;
const MAX_RETRY_MS = 30_000;

/**
 * Learns the bot's identity (getMe), retrying while the Bot API cannot be reached or fails
 * (network, 5xx, 429). Throws the Bot API's refusal as is (a revoked token: 401), and
 * BridgeError `telegram.start_aborted` when `signal` fires first.
 */
export async function initBot(bot: Bot<TelecodeContext>, options: BotInitOptions): Promise<void> {
  const { signal } = options;
  let retryMs = FIRST_RETRY_MS;
  for (let attempt = 1; ; attempt++) {
    throwIfAborted(signal);
    try {
      // grammY types its signal with a shim; on Node it is the platform's AbortSignal.
      bot.botInfo = await bot.api.getMe(signal as unknown as Parameters<typeof bot.api.getMe>[0]);
      return;
    } catch (error) {
      throwIfAborted(signal);
      const failure = transientFailure(error);
      if (failure === undefined) throw error;
      const waitMs = Math.min(MAX_RETRY_MS, Math.max(retryMs, failure.retryAfterMs ?? 0));
      options.logger.event(
        "telegram.unreachable",
        { apiRoot: options.apiRoot, attempt, reason: failure.reason, retryInMs: waitMs, err: error },
        "warn",
      );
      const hint = tlsRefusalWords(error);
      options.onUnreachable?.({
        apiRoot: options.apiRoot,
        attempt,
        reason: failure.reason,
        retryInMs: waitMs,
        ...(hint === undefined ? {} : { hint }),
      });
      await pause(options.clock, waitMs, signal);
      retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
    }
  }
}

/** Why an attempt failed in a few words, when trying again may help; undefined otherwise. */
function transientFailure(error: unknown): { reason: string; retryAfterMs?: number } | undefined {
  if (error instanceof BotApiTimeout) return { reason: "no answer" };
  if (error instanceof HttpError) {
    // The underlying error's message names the request URL, token included: only its code is shown.
    const cause = error.error as { code?: unknown; status?: unknown; type?: unknown } | undefined;
    if (typeof cause?.code === "string") return { reason: cause.code };
    if (typeof cause?.status === "number") return { reason: `HTTP ${cause.status}` };
    // Something on the way answered instead of the Bot API (a proxy refusing it, a captive portal).
    if (cause?.type === "invalid-json") return { reason: "an answer that is not the Bot API's" };
    return { reason: "no answer" };
  }
  if (error instanceof GrammyError && error.error_code === 429) {
    const seconds = error.parameters.retry_after;
    return { reason: "rate limited", ...(seconds === undefined ? {} : { retryAfterMs: seconds * 1000 }) };
  }
  if (error instanceof GrammyError && error.error_code >= 500)
    return { reason: `${error.error_code} ${error.description}` };
  return undefined;
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true)
    throw new BridgeError("telegram.start_aborted", "Telecode was stopped before it could reach the Bot API.");
}

function pause(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      timer.cancel();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = clock.setTimer(ms, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}
