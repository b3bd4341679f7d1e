// The Telegram app as `telecode` builds it: the store, the Claude engine (its CLIs kept by
// keepers, so runs survive a restart, where this host lets keepers outlive Telecode), the
// decision ledger, the Telegram front, the session manager over the engine and that front, and
// the bridge over the manager, which takes in the kept runs at start. Every concrete part is
// chosen here and nowhere else.
import { join } from "node:path";
import { createClaudeEngine, createDirectLauncher } from "../../claude/index.js";
import type { Config } from "../../config/index.js";
import { definedFields } from "../../domain/index.js";
import { createSystemClock, type Clock, type Logger } from "../../ports/index.js";
import { SessionManager } from "../../sessions/index.js";
import { createDecisionRegistry, type DecisionRegistry } from "../../sessions/decisions/index.js";
import { openStore, type Store } from "../../store/index.js";
import {
  chatDecisionSettings,
  createTelegramFront,
  type TelegramBridge,
  type TelegramFrontOptions,
} from "../../telegram/index.js";
import { keeperLaunchPlan, probeHostFacts } from "../../keeper/index.js";
import { telecodePackageDir } from "../invocation.js";
import { readPackageVersion } from "../version.js";
import { storeDecisionJournal } from "./decision-journal.js";
import { createEnginePort } from "./engine-port.js";
import { createKeptLauncher } from "./kept-launcher.js";
import { storeKeptRunsBook } from "./kept-runs-book.js";
import { takeInKeptRuns } from "./kept-runs.js";
import { storeSessionRecords } from "./session-records.js";

/** Pacing and timing a test or a bench may change. */
export type AppTuning = Pick<
  TelegramFrontOptions,
  "outbox" | "progressIntervalMs" | "heartbeatMs" | "pollTimeoutSeconds"
> & {
  clock?: Clock;
  /** A keeper's log cap (tests make it small to see it fill). */
  keeperLogCapBytes?: number;
};

export type TelecodeAppOptions = {
  /** The config in effect; read again per message and run (hot reload). */
  config: () => Config;
  /** The environment the Claude CLI's environment is built from. */
  env: NodeJS.ProcessEnv;
  logger: Logger;
  tuning?: AppTuning;
  onRestartRequested?: () => void;
  onPollingFailed?: (error: unknown) => void;
};

export type TelecodeApp = {
  readonly bridge: TelegramBridge;
  readonly store: Store;
  readonly registry: DecisionRegistry;
  /** Graceful stop of everything, then the store is closed. */
  stop(options?: { flushTimeoutMs?: number }): Promise<void>;
};

/** Builds and starts the whole bridge; the store is closed again if starting fails. */
export async function startTelecode(options: TelecodeAppOptions): Promise<TelecodeApp> {
  const { config, logger, tuning = {} } = options;
  const store = openStore(config().state.dir);
  // Its timers keep the process alive, so a stop can flush what the outbox still holds.
  const clock = tuning.clock ?? createSystemClock({ keepsProcessAlive: true });
  // Each start takes the next fence: the newest Telecode owns the keepers it attaches to.
  const fence = store.counters.next("keeper_fence");
  const clientId = `telecode-${process.pid}-${fence}`;
  const keepersDir = join(config().state.dir, "keepers");
  const plan = keeperLaunchPlan(probeHostFacts(options.env));
  const direct = createDirectLauncher(clock);
  const kept = createKeptLauncher({
    keeper: {
      command: [process.execPath, join(telecodePackageDir(), "bin", "telecode.js"), "keeper"],
      plan,
      keepersDir,
      runtimeDir: options.env["XDG_RUNTIME_DIR"],
      env: { PATH: options.env["PATH"], HOME: options.env["HOME"] },
      telecodeVersion: readPackageVersion(),
      clock,
    },
    fence,
    clientId,
    probe: (command, env) => direct.probe(command, env),
    logger: logger.child({ area: "keeper" }),
    ...(tuning.keeperLogCapBytes === undefined ? {} : { logCapBytes: tuning.keeperLogCapBytes }),
  });
  // Where a keeper would die with Telecode's service, runs stay direct children (drained on stop, as before).
  if (!plan.survivesRestart) logger.event("keeper.not_used", { why: plan.why }, "warn");
  const engine = createClaudeEngine({
    claudePath: config().claude.path,
    env: options.env,
    logger: logger.child({ area: "claude" }),
    launcher: plan.survivesRestart ? kept : direct,
  });
  const registry = createDecisionRegistry({
    journal: storeDecisionJournal(store),
    onJournalError: (error) => logger.event("sessions.decision_record_failed", { err: error }, "error"),
  });
  let bridge: TelegramBridge;
  try {
    const telegram = createTelegramFront({
      config,
      store,
      logger,
      clock,
      answers: registry,
      ...tuning,
      ...definedFields({ onRestartRequested: options.onRestartRequested, onPollingFailed: options.onPollingFailed }),
    });
    const enginePort = createEnginePort({
      engine,
      config,
      registry,
      clock,
      personPort: (lane) => telegram.personPort(lane),
      chatSettings: (lane) => chatDecisionSettings(config(), store, lane.chatId),
      onPortError: (error) => logger.event("telegram.person_port_failed", { err: error }, "error"),
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
    const front = bridge;
    await bridge.start(() =>
      takeInKeptRuns({
        config,
        store,
        launcher: kept,
        engine: enginePort,
        sessions,
        bridge: front,
        keepersDir,
        fence,
        clientId,
        clock,
        logger: logger.child({ area: "keeper" }),
      }),
    );
  } catch (error) {
    store.close();
    throw error;
  }
  return {
    bridge,
    store,
    registry,
    async stop(stopOptions) {
      try {
        await bridge.stop(stopOptions);
      } finally {
        store.close();
      }
    },
  };
}
