// A webhook's day cap (webhooks.max_cost_usd_per_day): what its runs cost today, whether that
// reached the cap, a delivery it stopped recorded, and the chat told once a day.
import type { Config } from "../../config/index.js";
import { formatUsd } from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import { dayIn } from "../../schedule/index.js";
import type { Store } from "../../store/index.js";
import type { WebhookTrigger } from "../../triggers/index.js";
import type { DayCapReached } from "./webhook-run-parts.js";

export type DayCaps = {
  /** The webhook's day cap, when its runs today have reached it: the day, what they cost, what it allows. */
  reached(trigger: WebhookTrigger): DayCapReached | undefined;
  /**
   * A delivery the day cap stopped: as it arrived (`tellChat`: the chat is told, once a day), or
   * as its queued run would have started (that run's own message says so).
   */
  stopped(trigger: WebhookTrigger, reached: DayCapReached, tellChat: boolean): void;
  /** A finished run's cost counts towards its webhook's day; the chat is told when that reaches the cap. */
  spent(trigger: WebhookTrigger, costUsd: number): void;
};

export type DayCapsDeps = {
  config: () => Config;
  store: Store;
  now: () => number;
  logger: Logger;
  notify(chatId: number, html: string): void;
  /** Records a stopped delivery as its webhook's last result. */
  recordStopped(webhookId: string): void;
};

export function createDayCaps(deps: DayCapsDeps): DayCaps {
  const { store, now } = deps;
  const dayOf = (ms: number): string => dayIn(ms, deps.config().schedule.timeZone);
  const tell = (trigger: WebhookTrigger, day: string, spentUsd: number, capUsd: number): void => {
    if (!store.triggers.markDayCapTold(trigger.webhookId, day)) return;
    deps.notify(
      trigger.chatId,
      `⏹ Webhook <b>${esc(trigger.webhookId)}</b> reached its day cap: its runs cost ${formatUsd(spentUsd)} today, past the ${formatUsd(capUsd)} a day that webhooks.max_cost_usd_per_day allows. Deliveries start nothing more until tomorrow; raise the cap in the config to let them run.`,
    );
  };
  return {
    reached(trigger) {
      const capUsd = trigger.overrides.maxCostUsdPerDay;
      if (capUsd === null) return undefined;
      const day = dayOf(now());
      const spentUsd = store.triggers.webhookDay(trigger.webhookId, day).costUsd;
      return spentUsd >= capUsd ? { day, spentUsd, capUsd } : undefined;
    },
    stopped(trigger, reached, tellChat) {
      deps.recordStopped(trigger.webhookId);
      deps.logger.event("webhook.day_capped", {
        webhookId: trigger.webhookId,
        deliveryId: trigger.deliveryId,
        spentUsd: reached.spentUsd,
        capUsd: reached.capUsd,
      });
      if (tellChat) tell(trigger, reached.day, reached.spentUsd, reached.capUsd);
      // Later deliveries today need not be told again.
      else store.triggers.markDayCapTold(trigger.webhookId, reached.day);
    },
    spent(trigger, costUsd) {
      if (costUsd <= 0) return;
      const day = dayOf(now());
      const spentUsd = store.triggers.addWebhookCost(trigger.webhookId, day, costUsd);
      const capUsd = trigger.overrides.maxCostUsdPerDay;
      if (capUsd !== null && spentUsd >= capUsd) tell(trigger, day, spentUsd, capUsd);
    },
  };
}
