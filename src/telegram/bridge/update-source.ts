// Long polling for the bridge: grammY's runner (updates handled concurrently, so taps are
// answered while runs stream) fed by getUpdates from the stored offset. The offset is saved as
// updates are taken, together with the updates themselves (the inbox), and each is forgotten
// once handled: a restart neither loses what arrived while down nor repeats what was handled,
// and a message a crash caught mid-way is handled again (`replayUnfinished`). A database that
// refuses them (a full disk) does not stop them being handled. A webhook on the bot, which
// keeps its updates from polling, is removed once. What a poll hands over right after a complete
// answer to the one before was sent while Telecode listened, and is marked so (delivery.ts).
import {
  createConcurrentSink,
  createRunner,
  createSource,
  type RunnerHandle,
  type UpdateSupplier,
} from "@grammyjs/runner";
import type { Bot } from "grammy";
import type { Update } from "grammy/types";
import type { Clock, Logger } from "../../ports/index.js";
import { isWebhookConflict, webhookSite } from "../../render/index.js";
import type { Store } from "../../store/index.js";
import type { TelecodeContext } from "./context.js";
import { markHeardLive } from "./delivery.js";

export type PollingOptions = {
  bot: Bot<TelecodeContext>;
  store: Store;
  logger: Logger;
  clock: Clock;
  timeoutSeconds: number;
  /** Called for every update, concurrently. */
  handle: (update: Update) => Promise<void>;
  /** A webhook set on the bot (pointing at `site`) was removed so that polling gets the updates. */
  onWebhookRemoved?: ((site: string) => void) | undefined;
};

// my_chat_member: the bot blocked or unblocked, added to or removed from a group (closed-chats.ts).
const ALLOWED_UPDATES = ["message", "edited_message", "callback_query", "my_chat_member"] as const;
/** A poll's answer counts as heard live when it came within its timeout and this much more of the one before. */
const LISTENING_SLACK_S = 15;
/** The longest wait between two attempts: once the network is back, a message is read within it. */
const MAX_RETRY_MS = 10_000;
/** A webhook set again within this long of Telecode removing one stops polling instead. */
const WEBHOOK_FIGHT_MS = 10 * 60_000;

export function startPolling(options: PollingOptions): RunnerHandle {
  const { bot, store, logger } = options;
  let offset = store.offsets.get() ?? 0;
  let webhookRemovedAtMs: number | undefined;
  /**
   * A webhook on the bot stops polling (409): it is removed, as grammY's own start does, and
   * said. One set again soon after (another program using the token) is not fought over.
   */
  const removeWebhook = async (): Promise<boolean> => {
    const now = options.clock.now();
    if (webhookRemovedAtMs !== undefined && now - webhookRemovedAtMs < WEBHOOK_FIGHT_MS) return false;
    try {
      const { url } = await bot.api.getWebhookInfo();
      await bot.api.deleteWebhook();
      webhookRemovedAtMs = now;
      const site = webhookSite(url);
      logger.event("telegram.webhook_removed", { site }, "warn");
      options.onWebhookRemoved?.(site);
      return true;
    } catch (error) {
      logger.event("telegram.webhook_not_removed", { err: error }, "error");
      return false;
    }
  };
  /** When the last long poll answered (undefined after a failure), and whether it left updates behind. */
  let answeredAt: number | undefined;
  let leftSome = false;
  /** The updates of a poll made right after a full answer to the one before were sent while Telecode listened. */
  const listeningMs = (options.timeoutSeconds + LISTENING_SLACK_S) * 1000;
  const supplier: UpdateSupplier<Update> = {
    async supply(batchSize, shimSignal) {
      // The runner types its signal with a shim; on Node it is the platform's AbortSignal.
      const signal = shimSignal as unknown as AbortSignal;
      let retryMs = 500;
      for (;;) {
        try {
          const limit = Math.max(1, Math.min(100, batchSize));
          const updates = await bot.api.getUpdates(
            {
              offset,
              limit,
              timeout: options.timeoutSeconds,
              allowed_updates: [...ALLOWED_UPDATES],
            },
            shimSignal,
          );
          const now = options.clock.now();
          if (answeredAt !== undefined && !leftSome && now - answeredAt <= listeningMs) updates.forEach(markHeardLive);
          answeredAt = now;
          leftSome = updates.length >= limit;
          const last = updates.at(-1)?.update_id;
          if (last !== undefined) {
            // The next getUpdates confirms these to Telegram; from now on the inbox holds them.
            keepInInbox(store, logger, updates, last + 1);
            offset = last + 1;
          }
          return updates;
        } catch (error) {
          answeredAt = undefined;
          if (signal.aborted) throw error;
          const {
            error_code: code,
            description,
            parameters,
          } = error as {
            error_code?: unknown;
            description?: unknown;
            parameters?: { retry_after?: unknown };
          };
          if (isWebhookConflict(code, description) && (await removeWebhook())) continue;
          if (code === 401 || code === 404 || code === 409) {
            logger.event("telegram.polling_refused", { errorCode: code, err: error }, "error");
            throw error;
          }
          // Telegram's flood control names its own wait (429 retry_after): asking sooner is refused again.
          const asked = typeof parameters?.retry_after === "number" ? parameters.retry_after * 1000 : 0;
          const waitMs = Math.max(retryMs, asked);
          logger.event("telegram.polling_retry", { err: error, retryMs: waitMs }, "warn");
          await abortableDelay(options.clock, waitMs, signal);
          retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
        }
      }
    },
  };
  const sink = createConcurrentSink<Update>({ consume: (update) => handleOnce(options, update) }, (error) => {
    logger.event("telegram.update_failed", { err: error }, "error");
    return Promise.resolve();
  });
  const runner = createRunner(createSource(supplier), sink);
  runner.start();
  return runner;
}

/**
 * Keeps `updates` in the inbox, with the offset after them. Should the database refuse them (a
 * full disk), they are handled all the same, from memory: asked for again they would be refused
 * again, unanswered for as long as it lasts, where their handlers, failing on the same database,
 * tell each person what failed. Only a crash before that could lose one.
 */
function keepInInbox(store: Store, logger: Logger, updates: readonly Update[], nextOffset: number): void {
  try {
    store.transaction(() => {
      store.inbox.keep(updates);
      store.offsets.set(nextOffset);
    });
  } catch (error) {
    logger.event("telegram.inbox_failed", { updates: updates.length, err: error }, "error");
  }
}

export type ReplayOptions = Pick<PollingOptions, "store" | "logger" | "handle"> & {
  /** Tells the person a message of theirs was set aside (see `replayUnfinished`). */
  setAside: (message: NonNullable<Update["message"]>) => void;
};

/**
 * Hands the updates an earlier process took and did not finish to `handle`, oldest first, before
 * polling starts, so a chat's later messages queue behind them. A tap is not tried again (the
 * buttons were brought to their recorded state; the person can tap again). A message already
 * tried after one crash is set aside with a note, so no message can keep Telecode from starting.
 */
export function replayUnfinished(options: ReplayOptions): Promise<void> {
  const { store, logger } = options;
  const handled: Promise<void>[] = [];
  for (const entry of store.inbox.unfinished()) {
    const update = entry.update as Update;
    const message = update.message;
    const fields = { updateId: entry.updateId, chatId: message?.chat.id, attempts: entry.attempts };
    if (message === undefined || entry.attempts > 0) {
      logger.event("telegram.update_set_aside", fields, "warn");
      if (message !== undefined) options.setAside(message);
      store.inbox.done(entry.updateId);
      continue;
    }
    logger.event("telegram.update_replayed", fields);
    handled.push(handleOnce(options, update));
  }
  return Promise.allSettled(handled).then(() => undefined);
}

/** Handles `update`, then forgets it: a failure was reported by the handler, and is not tried again. */
function handleOnce(options: Pick<PollingOptions, "store" | "logger" | "handle">, update: Update): Promise<void> {
  return options.handle(update).finally(() => {
    try {
      options.store.inbox.done(update.update_id);
    } catch (error) {
      // Left in the inbox, it is offered again once after a restart: better twice than never.
      options.logger.event("telegram.inbox_failed", { updateId: update.update_id, err: error }, "error");
    }
  });
}

function abortableDelay(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimer(ms, () => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
    const onAbort = (): void => {
      timer.cancel();
      reject(new Error("polling stopped"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
