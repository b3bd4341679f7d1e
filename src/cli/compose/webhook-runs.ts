// Webhooks wired into the app: the server runs while [[webhooks]] exist (restarted when they or
// the listen address change); each accepted delivery becomes an unattended run in its chat and
// project through the bridge (queued when the lane is busy), unless triggers are paused or the
// webhook is held until a failure is fixed (then it is kept in SQLite and run on /resume), or its
// day cap is reached (the chat is told once), as the delivery arrives or by the time its queued
// run would start.
import type { Config } from "../../config/index.js";
import {
  definedFields,
  excerpt,
  failsUntilFixed,
  hostFailureInWords,
  type OfferedPrices,
  type RunCompleted,
} from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { RunTrigger } from "../../sessions/index.js";
import type { Store, TriggerResult } from "../../store/index.js";
import type { TriggerRunHooks } from "../../telegram/index.js";
import { watchRunCost } from "./run-cost-cap.js";
import { createWebhookHolds } from "./webhook-holds.js";
import { createDayCaps } from "./webhook-day-caps.js";
import { dayCapFailure, heldFailure, heldTrigger, resultOf } from "./webhook-run-parts.js";
import type { ScheduleTarget } from "./scheduling.js";
import { webhookResultId } from "./trigger-status.js";
import {
  startWebhookServer,
  type WebhookConfig,
  type WebhookServer,
  type WebhookTrigger,
} from "../../triggers/index.js";

export type WebhookRunsDeps = {
  config: () => Config;
  store: Store;
  /** Epoch ms: the day a webhook's spending counts towards. */
  now: () => number;
  logger: Logger;
  /** Where each webhook's `secret_env` is read. */
  env: Readonly<Record<string, string | undefined>>;
  /** Whether triggers are held (`[schedule] paused`, /pause). */
  isPaused: () => boolean;
  /** What the running CLI states a model costs (cost caps, for a model the table does not know). */
  offeredPrices?: OfferedPrices;
};

export type WebhookRuns = {
  /** The server while it runs (null without webhooks, or when it could not start). */
  readonly server: WebhookServer | null;
  /** Why the server could not start (what the chat was told), while it is off for that reason. */
  readonly startFailure: string | undefined;
  /** Starts the server when [[webhooks]] exist; a failure is logged and told, never thrown. */
  start(target: ScheduleTarget): Promise<void>;
  /** Stops the server; deliveries already handed on are started first. */
  stop(): Promise<void>;
  /** The config was reloaded: a changed [webhook_server] or [[webhooks]] restarts the server. */
  configChanged(): Promise<void>;
  /** Triggers were resumed: the deliveries kept (while paused, or until a failure is fixed) run now, oldest first. */
  releaseHeld(): void;
  /** The webhooks held until a failure is fixed, each with what its runs fail on. */
  heldUntilFixed(): ReadonlyMap<string, string>;
  /**
   * The hooks on a delivery's run that a restart took in (`detail` as it was recorded), told
   * through `on`; undefined when the record cannot be read.
   */
  resumeRun(detail: RunTrigger, on: ScheduleTarget): TriggerRunHooks | undefined;
};

export function createWebhookRuns(deps: WebhookRunsDeps): WebhookRuns {
  const { config, store, now, logger } = deps;
  let target: ScheduleTarget | undefined;
  let server: WebhookServer | null = null;
  let startFailure: string | undefined;
  /** The config the running server was started from (to see whether a reload changes it). */
  let serving: Pick<Config, "webhookServer" | "webhooks"> | undefined;
  /** Webhooks whose chat was told a delivery is held, since the last resume. */
  const toldHeld = new Set<string>();

  const notify = (chatId: number, html: string): void => {
    if (target !== undefined) void target.outbox.send(chatId, { html });
  };
  const holds = createWebhookHolds(notify);
  const record = (webhookId: string, result: TriggerResult): void =>
    store.triggers.recordResult(webhookResultId(webhookId), result, now());
  const dayCaps = createDayCaps({ ...deps, notify, recordStopped: (webhookId) => record(webhookId, "day_capped") });

  const finished = (trigger: WebhookTrigger, completed: RunCompleted, capped: boolean): void => {
    try {
      record(trigger.webhookId, resultOf(completed, capped));
      // Nothing ran (no login, no CLI, no project folder): the delivery is kept for /resume, and
      // the webhook held. A run a restart took in has no prompt here; its failure said so already.
      const error = completed.error;
      if (error !== undefined && failsUntilFixed(error) && trigger.prompt !== "") {
        hold(trigger, "until_fixed");
        holds.hold(trigger.webhookId, trigger.chatId, error);
      }
      dayCaps.spent(trigger, completed.costUsd);
    } catch (error) {
      logger.event("webhook.record_failed", { err: error, webhookId: trigger.webhookId }, "error");
    }
  };

  /** A delivery's run's hooks: its cost cap watched (and told through `on`), its end and cost recorded. */
  const runHooks = (on: Pick<ScheduleTarget, "sessions" | "outbox">, trigger: WebhookTrigger): TriggerRunHooks => {
    const watch = watchRunCost(
      {
        capUsd: trigger.overrides.maxCostUsdPerRun,
        name: `webhook ${trigger.webhookId}`,
        key: "webhooks.max_cost_usd_per_run",
        chatId: trigger.chatId,
      },
      {
        sessions: on.sessions,
        notify: (chatId, html) => void on.outbox.send(chatId, { html }),
        logger,
        offeredPrices: deps.offeredPrices,
      },
    );
    return {
      onFinished: (completed) => finished(trigger, completed, watch?.isStopped() === true),
      ...definedFields({ onStep: watch?.onStep }),
    };
  };

  const hold = (trigger: WebhookTrigger, why: "paused" | "stopping" | "until_fixed"): void => {
    store.triggers.hold(trigger.webhookId, trigger, now());
    // Held until fixed, its last result stays the failure that held it.
    if (why !== "until_fixed") record(trigger.webhookId, "held");
    logger.event("webhook.held", { webhookId: trigger.webhookId, deliveryId: trigger.deliveryId, why });
    if (why !== "paused" || toldHeld.has(trigger.webhookId)) return;
    toldHeld.add(trigger.webhookId);
    notify(
      trigger.chatId,
      `⏸ Webhook <b>${esc(trigger.webhookId)}</b> received a delivery while triggers are paused. It is kept, and runs when you send /resume.`,
    );
  };

  /**
   * A delivery that could not be handled: its sender has its 202 already, so the chat is told.
   * One just received can be redelivered (the server forgets its id); one kept while paused is gone.
   */
  const failed = (trigger: WebhookTrigger, error: unknown, kept: boolean): void => {
    try {
      record(trigger.webhookId, "failed");
    } catch (recordError) {
      logger.event("webhook.record_failed", { err: recordError, webhookId: trigger.webhookId }, "error");
    }
    const why = hostFailureInWords(error, "webhook.handler_failed");
    const event = trigger.event === null ? "" : ` (${esc(trigger.event)})`;
    const again = kept
      ? "It was the delivery kept while paused: ask its sender for a new one if it still matters."
      : "Once `telecode doctor` on the computer running Telecode finds nothing wrong, redeliver it from its sender if it still matters.";
    notify(
      trigger.chatId,
      `⚠️ Webhook <b>${esc(trigger.webhookId)}</b> could not run a delivery${event}: ${esc(why)}. Nothing ran for it. ${esc(again)}`,
    );
  };

  const startDelivery = (trigger: WebhookTrigger): void => {
    const { webhookId, overrides } = trigger;
    if (target === undefined) return hold(trigger, "stopping");
    if (deps.isPaused()) return hold(trigger, "paused");
    if (holds.isHeld(webhookId)) return hold(trigger, "until_fixed");
    const reached = dayCaps.reached(trigger);
    if (reached !== undefined) return dayCaps.stopped(trigger, reached, true);
    const hooks = runHooks(target, trigger);
    // Queued behind the lane's runs, it may find the day's cap reached, or its webhook held, by
    // the time it would start.
    let notStarted = false;
    const event = trigger.event === null ? "" : ` · ${trigger.event}`;
    const outcome = target.startScheduled({
      source: { kind: "webhook", id: webhookId },
      whenBusy: "queue",
      chatId: trigger.chatId,
      project: trigger.project,
      prompt: `[Telecode webhook "${webhookId}"${trigger.event === null ? "" : `, event ${trigger.event}`}: a request from outside started this run. Nobody is watching this run: what would wait for an answer is declined.]\n\n${trigger.prompt}`,
      // A delivery held by an older Telecode has no summary: its prompt's first line names the fields.
      title: `🪝 webhook ${webhookId}${event}: ${excerpt(trigger.summary ?? trigger.prompt.split("\n", 1)[0] ?? "", 80)}`,
      choice: { kind: "new" },
      unattended: true,
      origin: "schedule",
      ...definedFields({
        mode: overrides.permissionMode ?? undefined,
        model: overrides.model ?? undefined,
        effort: overrides.effort ?? undefined,
      }),
      ...hooks,
      onFinished: (completed) => {
        if (!notStarted) hooks.onFinished(completed);
      },
      mayStart: () => {
        if (holds.isHeld(webhookId)) {
          notStarted = true;
          hold(trigger, "until_fixed");
          return heldFailure(webhookId);
        }
        const capped = dayCaps.reached(trigger);
        if (capped === undefined) return undefined;
        notStarted = true;
        dayCaps.stopped(trigger, capped, false);
        return dayCapFailure(webhookId, capped);
      },
      // Its prompt is kept with the run already.
      detail: { ...trigger, prompt: "" },
    });
    if (outcome === "refused") return hold(trigger, "stopping");
    if (outcome === "no_project") {
      record(webhookId, "failed");
      logger.event("webhook.no_project", { webhookId, project: trigger.project }, "error");
      notify(
        trigger.chatId,
        `⚠️ Webhook <b>${esc(webhookId)}</b> could not start a run: project <b>${esc(trigger.project)}</b> is no longer in the config. Add it back, or change the webhook's project.`,
      );
    }
  };

  /**
   * Runs a delivery the server just accepted. One whose handling fails is said so in its chat,
   * never dropped in silence, and the throw tells the server it was not run.
   */
  const run = (trigger: WebhookTrigger): void => {
    try {
      startDelivery(trigger);
    } catch (error) {
      failed(trigger, error, false);
      throw error;
    }
  };

  const releaseHeld = (): void => {
    toldHeld.clear();
    holds.releaseAll();
    if (target === undefined || deps.isPaused()) return;
    for (const held of store.triggers.takeHeld()) {
      const trigger = heldTrigger(held.trigger);
      if (trigger === null) {
        logger.event("webhook.held_unreadable", { webhookId: held.webhookId, seq: held.seq }, "warn");
        continue;
      }
      try {
        startDelivery(trigger);
      } catch (error) {
        logger.event(
          "webhook.handler_failed",
          { webhookId: trigger.webhookId, deliveryId: trigger.deliveryId, err: error },
          "error",
        );
        failed(trigger, error, true);
      }
    }
  };

  const startServer = async (): Promise<void> => {
    const current = config();
    serving = { webhookServer: current.webhookServer, webhooks: current.webhooks };
    startFailure = undefined;
    try {
      server = await startWebhookServer({
        server: current.webhookServer,
        webhooks: current.webhooks,
        env: deps.env,
        onTrigger: run,
        logger,
        deliveries: store.webhookDeliveries,
        now,
      });
    } catch (error) {
      // Telegram and the schedules go on; the person is told why webhooks do not.
      server = null;
      const why = error instanceof Error ? error.message : String(error);
      startFailure = why;
      logger.event("webhook.start_failed", { err: error }, "error");
      const chats = new Set(current.webhooks.map((hook: WebhookConfig) => hook.chatId));
      for (const chatId of chats) notify(chatId, `⚠️ Webhooks are off. ${esc(why)}`);
    }
  };

  const stopServer = async (): Promise<void> => {
    const running = server;
    server = null;
    await running?.stop();
  };

  return {
    get server() {
      return server;
    },
    get startFailure() {
      return startFailure;
    },
    async start(next) {
      target = next;
      await startServer();
      releaseHeld();
    },
    async stop() {
      await stopServer();
      target = undefined;
    },
    async configChanged() {
      const current = config();
      const same =
        serving !== undefined &&
        JSON.stringify([serving.webhookServer, serving.webhooks]) ===
          JSON.stringify([current.webhookServer, current.webhooks]);
      if (same || target === undefined) return;
      logger.event("webhook.restarting", { webhooks: current.webhooks.map((hook) => hook.id) });
      await stopServer();
      await startServer();
    },
    releaseHeld,
    heldUntilFixed: () => holds.held(),
    resumeRun(detail, on) {
      const trigger = heldTrigger(detail);
      return trigger === null ? undefined : runHooks(on, trigger);
    },
  };
}
