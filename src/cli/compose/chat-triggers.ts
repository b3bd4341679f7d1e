// Every trigger at once, as the chat asks for it: /pause and /resume flip the one switch (the
// scheduler holds its slots, webhook deliveries are kept) and /resume runs what was kept; /status
// lists the chat's schedules and webhooks with their next fire and last result.
import type { Config } from "../../config/index.js";
import type { Store } from "../../store/index.js";
import type { TriggerControls } from "../../telegram/index.js";
import type { AppScheduling } from "./scheduling.js";
import type { TriggerPause } from "./trigger-pause.js";
import { triggerLine, triggerStatuses } from "./trigger-status.js";
import type { WebhookRuns } from "./webhook-runs.js";

export type ChatTriggersDeps = {
  config: () => Config;
  store: Store;
  now: () => number;
  pause: TriggerPause;
  scheduling: Pick<AppScheduling, "scheduler">;
  webhooks: Pick<WebhookRuns, "releaseHeld" | "heldUntilFixed" | "startFailure" | "server">;
};

export function createChatTriggers(deps: ChatTriggersDeps): TriggerControls {
  const { config, store, pause } = deps;
  return {
    isPaused: () => pause.isPaused(),
    setPaused(paused) {
      const changed = pause.set(paused);
      deps.scheduling.scheduler.setPaused(paused);
      if (!paused) deps.webhooks.releaseHeld();
      return changed;
    },
    heldDeliveries: () => store.triggers.heldCount(),
    statusLines: (chatId) =>
      triggerStatuses({
        config: config(),
        schedules: store.schedules.list({ chatId, states: ["active", "paused"] }),
        results: store.triggers.lastResults(),
        allPaused: pause.isPaused(),
        webhooksOff: deps.webhooks.startFailure,
        webhooksAt: deps.webhooks.server?.address,
        webhooksHeld: deps.webhooks.heldUntilFixed(),
        nowMs: deps.now(),
      })
        .filter((status) => status.chatId === chatId)
        .map(triggerLine),
  };
}
