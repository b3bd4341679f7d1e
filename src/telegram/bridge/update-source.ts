// Long polling for the bridge: grammY's runner (updates handled concurrently, so taps are
// answered while runs stream) fed by getUpdates from the stored offset, which is saved as
// updates are taken, so a restart neither loses what arrived while down nor repeats anything.
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
import type { Store } from "../../store/index.js";
import type { TelecodeContext } from "./context.js";

export type PollingOptions = {
  bot: Bot<TelecodeContext>;
  store: Store;
  logger: Logger;
  clock: Clock;
  timeoutSeconds: number;
  /** Called for every update, concurrently. */
  handle: (update: Update) => Promise<void>;
};

const ALLOWED_UPDATES = ["message", "callback_query"] as const;
const MAX_RETRY_MS = 30_000;

export function startPolling(options: PollingOptions): RunnerHandle {
  const { bot, store, logger } = options;
  let offset = store.offsets.get() ?? 0;
  const supplier: UpdateSupplier<Update> = {
    async supply(batchSize, shimSignal) {
      // The runner types its signal with a shim; on Node it is the platform's AbortSignal.
      const signal = shimSignal as unknown as AbortSignal;
      let retryMs = 500;
      for (;;) {
        try {
          const updates = await bot.api.getUpdates(
            {
              offset,
              limit: Math.max(1, Math.min(100, batchSize)),
              timeout: options.timeoutSeconds,
              allowed_updates: [...ALLOWED_UPDATES],
            },
            shimSignal,
          );
          const last = updates.at(-1)?.update_id;
          if (last !== undefined) {
            offset = last + 1;
            // The next getUpdates confirms these to Telegram; from now on they are ours to handle.
            store.offsets.set(offset);
          }
          return updates;
        } catch (error) {
          if (signal.aborted) throw error;
          const code = (error as { error_code?: unknown }).error_code;
          if (code === 401 || code === 404 || code === 409) {
            logger.event("telegram.polling_refused", { errorCode: code, err: error }, "error");
            throw error;
          }
          logger.event("telegram.polling_retry", { err: error, retryMs }, "warn");
          await abortableDelay(options.clock, retryMs, signal);
          retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
        }
      }
    },
  };
  const sink = createConcurrentSink<Update>({ consume: (update) => options.handle(update) }, (error) => {
    logger.event("telegram.update_failed", { err: error }, "error");
    return Promise.resolve();
  });
  const runner = createRunner(createSource(supplier), sink);
  runner.start();
  return runner;
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
