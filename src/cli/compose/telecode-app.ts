// The Telegram app as `telecode` builds it: the store, the Claude engine (its CLIs kept by
// keepers, so runs survive a restart, where this host lets keepers outlive Telecode), the
// decision ledger, the Telegram front, the session manager over the engine and that front, and
// the bridge over the manager, which takes in the kept runs at start. Every concrete part is
// chosen here and nowhere else.
import { createClaudeEngine, offeredModels, type OfferedModel } from "../../claude/index.js";
import type { Config } from "../../config/index.js";
import { definedFields, pricesOfOffers, type ClaudeVersionCheck } from "../../domain/index.js";
import { outboxSystemPrompt } from "../../media/index.js";
import { httpAccess } from "../../net/index.js";
import { createSystemClock, watchForWakes, type Clock, type Logger } from "../../ports/index.js";
import type { Scheduler, SchedulerClock } from "../../schedule/index.js";
import { SessionManager } from "../../sessions/index.js";
import { createDecisionRegistry, type DecisionRegistry } from "../../sessions/decisions/index.js";
import { openStore, type Store } from "../../store/index.js";
import { readWebhookSecrets, type WebhookServer } from "../../triggers/index.js";
import {
  chatDecisionSettings,
  createTelegramFront,
  type BotApiUnreachable,
  type Restarted,
  type TelegramBridge,
  type TelegramFrontOptions,
} from "../../telegram/index.js";
import { claudeProbeCacheFile } from "../data-dir.js";
import { createAppKeepers } from "./app-keepers.js";
import { storeDecisionJournal } from "./decision-journal.js";
import { createEnginePort } from "./engine-port.js";
import { createChatTriggers } from "./chat-triggers.js";
import { storeKeptRunsBook } from "./kept-runs-book.js";
import { createAppScheduling } from "./scheduling.js";
import { createTriggerPause } from "./trigger-pause.js";
import { createWebhookRuns } from "./webhook-runs.js";
import { withTopicChats } from "./topic-chats.js";
import { createMediaPort } from "./media-port.js";
import { storeSessionBook, storeSessionRecords } from "./session-records.js";

/** Pacing and timing a test or a bench may change. */
export type AppTuning = Pick<
  TelegramFrontOptions,
  "outbox" | "progressIntervalMs" | "heartbeatMs" | "pollTimeoutSeconds" | "botApiDeadlines" | "buttonMemory"
> & {
  clock?: Clock;
  /** The scheduler's clock (default the system's): a test moves it to make schedules come due. */
  scheduleClock?: SchedulerClock;
  /** A keeper's log cap (tests make it small to see it fill). */
  keeperLogCapBytes?: number;
  /** How often to look whether the computer slept or changed network (default 5 s; tests make it short). */
  wakeLookEveryMs?: number;
  /** This machine's network addresses (default the system's; a test changes them as a new Wi-Fi would). */
  networkAddresses?: () => string;
};

export type TelecodeAppOptions = {
  /** The config in effect; read again per message and run (hot reload). */
  config: () => Config;
  /** The environment the Claude CLI's environment is built from. */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  tuning?: AppTuning;
  /** A person sent /restart in `chatId`. */
  onRestartRequested?: (chatId: number) => void;
  /** This start is a /restart's: the chat that asked is told it is back. */
  restarted?: Restarted;
  onPollingFailed?: (error: unknown) => void;
  /** A webhook on the bot (pointing at `site`) was removed so that polling gets its updates. */
  onWebhookRemoved?: (site: string) => void;
  /** The Bot API could not be reached at start; it is tried again (until `signal`). */
  onBotApiUnreachable?: (unreachable: BotApiUnreachable) => void;
  /** Stops a start still waiting for the Bot API (SIGINT/SIGTERM). */
  signal?: AbortSignal;
  /** The installed Claude Code against the tested versions, once checked at start (for /status). */
  claudeVersion?: () => ClaudeVersionCheck | undefined;
};

export type TelecodeApp = {
  readonly bridge: TelegramBridge;
  readonly store: Store;
  readonly registry: DecisionRegistry;
  /** The one scheduler: Claude's loops, [[schedules]], /at and /every (webhooks start runs beside it). */
  readonly scheduler: Scheduler;
  /** The webhook server while it runs (null without [[webhooks]], or when it could not start). */
  readonly webhookServer: WebhookServer | null;
  /** How Telegram is reached, when through a proxy: "through http://proxy:3128 (HTTPS_PROXY)". */
  readonly telegramRoute: string | undefined;
  /**
   * The config was reloaded: apply its live trigger keys ([loops], [schedule], [[schedules]]; a
   * changed [webhook_server] or [[webhooks]] restarts the webhook server). Never rejects.
   */
  configChanged(): Promise<void>;
  /** Graceful stop of everything, then the store is closed. */
  stop(options?: { flushTimeoutMs?: number }): Promise<void>;
};

/**
 * Builds and starts the whole bridge; the store is closed again if starting fails (BridgeError
 * `telegram.start_aborted` when `options.signal` fired while the Bot API could not be reached;
 * TriggerError `triggers.secret_missing` when a webhook's secret variable is not set). A webhook
 * server that cannot listen does not stop the start: its chats are told why webhooks are off.
 */
export async function startTelecode(options: TelecodeAppOptions): Promise<TelecodeApp> {
  const { config, logger, tuning = {} } = options;
  // A webhook secret missing from the environment stops the start, naming the variable.
  readWebhookSecrets(config().webhooks, options.env);
  // Telecode's own requests go through the proxy the environment names, as Claude Code's do; a
  // proxy variable that is no proxy URL stops the start, naming it.
  const http = httpAccess(options.env);
  const route = http.routeOf(new URL(config().telegram.apiRoot));
  if (route !== undefined) logger.event("telegram.route", { route });
  const store = openStore(config().state.dir);
  // Its timers keep the process alive, so a stop can flush what the outbox still holds.
  const clock = tuning.clock ?? createSystemClock({ keepsProcessAlive: true });
  // A laptop's sleep stops the timers where they were: on waking, what they wait for is done
  // now. A sleep, or a change of network, also takes the connections: they are made anew. Its
  // looks never keep the process alive (a start that fails exits).
  const wakes = watchForWakes(tuning.clock ?? createSystemClock(), {
    ...definedFields({ lookEveryMs: tuning.wakeLookEveryMs, addresses: tuning.networkAddresses }),
    onListenerError: (error) => logger.event("app.wake_failed", { err: error }, "error"),
  });
  wakes.onWake(({ sleptMs, networkChanged }) => {
    if (sleptMs > 0) logger.event("app.woke", { sleptMs: Math.round(sleptMs) });
    if (networkChanged) logger.event("app.network_changed");
    http.forgetConnections();
  });
  const keepers = createAppKeepers({
    config,
    store,
    env: options.env,
    clock,
    logger,
    probeCacheFile: claudeProbeCacheFile(config().state.dir),
    ...(tuning.keeperLogCapBytes === undefined ? {} : { logCapBytes: tuning.keeperLogCapBytes }),
  });
  // What the CLI offers, as the latest initialize reply listed it (for /model).
  let models: readonly OfferedModel[] | undefined;
  const engine = createClaudeEngine({
    claudePath: config().claude.path,
    wakes,
    env: options.env,
    logger: logger.child({ area: "claude" }),
    launcher: keepers.launcher,
    book: storeSessionBook(store, logger),
    onInitialized: (reply) => {
      const offered = offeredModels(reply);
      if (offered.length > 0) models = offered;
    },
  });
  const registry = createDecisionRegistry({
    journal: storeDecisionJournal(store),
    onJournalError: (error) => logger.event("sessions.decision_record_failed", { err: error }, "error"),
  });
  const offeredPrices = pricesOfOffers(() => models);
  const scheduleClock = tuning.scheduleClock ?? createSystemClock();
  const now = (): number => scheduleClock.now();
  const pause = createTriggerPause({ config, store, now });
  const triggerConfig = withTopicChats(config, store);
  const scheduling = createAppScheduling({
    config: triggerConfig,
    store,
    clock: scheduleClock,
    logger: logger.child({ area: "schedule" }),
    isPaused: () => pause.isPaused(),
    offeredPrices,
  });
  const webhooks = createWebhookRuns({
    config: triggerConfig,
    store,
    now,
    logger: logger.child({ area: "webhook" }),
    env: options.env,
    isPaused: () => pause.isPaused(),
    offeredPrices,
  });
  const triggers = createChatTriggers({ config: triggerConfig, store, now, pause, scheduling, webhooks });
  let bridge: TelegramBridge;
  try {
    const telegram = createTelegramFront({
      config,
      store,
      logger,
      clock,
      answers: registry,
      schedules: scheduling.chat,
      triggers,
      models: () => models,
      http,
      wakes,
      media: (downloads, localBotApi) =>
        createMediaPort({ config, env: options.env, logger: logger.child({ area: "media" }), downloads, localBotApi }),
      ...tuning,
      ...definedFields({
        onRestartRequested: options.onRestartRequested,
        onPollingFailed: options.onPollingFailed,
        onWebhookRemoved: options.onWebhookRemoved,
        onBotApiUnreachable: options.onBotApiUnreachable,
        claudeVersion: options.claudeVersion,
      }),
    });
    const enginePort = createEnginePort({
      engine,
      config,
      registry,
      clock,
      personPort: (lane) => telegram.personPort(lane),
      chatSettings: (lane) => chatDecisionSettings(config(), store, lane.chatId),
      appendSystemPrompt: ({ files }) =>
        files.outboxMaxFiles === 0
          ? undefined
          : outboxSystemPrompt({ maxFiles: files.outboxMaxFiles, maxFileBytes: files.outboxMaxFileBytes }),
      onPortError: (error) => logger.event("telegram.person_port_failed", { err: error }, "error"),
      scheduleTools: (lane) => scheduling.toolGuard(lane),
      sessionEvents: (lane, event, sessionId) => scheduling.observe(lane, event, sessionId),
      shownEvent: (event) => scheduling.shown(event),
      onGuardError: (error, toolName) => logger.event("schedule.hook_failed", { err: error, toolName }, "error"),
      keptRuns: storeKeptRunsBook(store, clock, logger),
      recordedDecisionId: ({ runId, requestId }) => {
        try {
          const record = runId === undefined ? null : store.decisions.byRequest(runId, requestId);
          return record?.state === "pending" ? record.decisionId : undefined;
        } catch (error) {
          logger.event("sessions.decision_lookup_failed", { err: error, runId }, "error");
          return undefined;
        }
      },
    });
    const sessions = new SessionManager({
      engine: enginePort,
      records: storeSessionRecords(store),
      clock,
      background: telegram.background,
      onError: (error, context) =>
        logger.event(
          "sessions.failed",
          { err: error, chatId: context.lane.chatId, project: context.lane.project, runId: context.runId },
          "error",
        ),
    });
    bridge = telegram.bridge(sessions);
    await bridge.start(
      definedFields({
        signal: options.signal,
        restarted: options.restarted,
        takeInKept: keepers.takeIn({
          engine: enginePort,
          sessions,
          bridge,
          resumeTrigger: ({ source, detail }) =>
            source.kind === "schedule" ? scheduling.resumeRun(detail, bridge) : webhooks.resumeRun(detail, bridge),
        }),
      }),
    );
    scheduling.start(bridge);
    wakes.onWake(({ sleptMs }) => {
      if (sleptMs > 0) scheduling.scheduler.wake();
    });
    await webhooks.start(bridge);
  } catch (error) {
    wakes.stop();
    keepers.stop();
    store.close();
    throw error;
  }
  return {
    bridge,
    store,
    registry,
    scheduler: scheduling.scheduler,
    telegramRoute: route,
    get webhookServer() {
      return webhooks.server;
    },
    async configChanged() {
      scheduling.configChanged();
      await webhooks.configChanged();
    },
    async stop(stopOptions) {
      wakes.stop();
      try {
        await webhooks.stop();
        await scheduling.stop();
        await bridge.stop(stopOptions);
      } finally {
        keepers.stop();
        store.close();
      }
    },
  };
}
