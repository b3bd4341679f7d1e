// The app's keepers: this start's fence (bumped in SQLite), the launcher of kept CLIs (or the
// direct one where a keeper would die with Telecode's service), and taking in at start the
// runs whose keepers outlived the last Telecode.
import { join } from "node:path";
import { createCliProbe, createDirectLauncher, type CliLauncher } from "../../claude/index.js";
import type { Config } from "../../config/index.js";
import { definedFields } from "../../domain/index.js";
import { keeperCommand, keeperLaunchPlan, probeHostFacts } from "../../keeper/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import type { Store } from "../../store/index.js";
import type { TakeInKept } from "../../telegram/index.js";
import { telecodePackageDir } from "../invocation.js";
import { readPackageVersion } from "../version.js";
import { createKeptLauncher } from "./kept-launcher.js";
import { takeInKeptRuns, type TakeInDeps } from "./kept-runs.js";

export type AppKeepers = {
  /** What the engine launches CLIs with. */
  launcher: CliLauncher;
  /** Takes in the kept runs (for the bridge's start, once the session layer exists). */
  takeIn(deps: Pick<TakeInDeps, "engine" | "sessions" | "bridge" | "resumeTrigger">): TakeInKept;
  /** Telecode is stopping: the keeper started ahead of need ends (kept runs go on). */
  stop(): void;
};

export function createAppKeepers(options: {
  config: () => Config;
  store: Store;
  env: NodeJS.ProcessEnv;
  clock: Clock;
  logger: Logger;
  /** A keeper's log cap (tests make it small to see it fill). */
  logCapBytes?: number;
  /** Where the CLI probe keeps what it learnt about each binary. */
  probeCacheFile?: string;
}): AppKeepers {
  const { config, store, env, clock } = options;
  const logger = options.logger.child({ area: "keeper" });
  // Each start takes the next fence: the newest Telecode owns the keepers it attaches to.
  const fence = store.counters.next("keeper_fence");
  const clientId = `telecode-${process.pid}-${fence}`;
  const keepersDir = join(config().state.dir, "keepers");
  const plan = keeperLaunchPlan(probeHostFacts(env));
  // One probe for both launchers: kept CLIs are the same binary.
  const probe = createCliProbe({ ...definedFields({ cacheFile: options.probeCacheFile }), logger: options.logger });
  const direct = createDirectLauncher({ clock, probe });
  const kept = createKeptLauncher({
    keeper: {
      command: keeperCommand(join(telecodePackageDir(), "bin", "telecode.js")),
      plan,
      keepersDir,
      runtimeDir: env["XDG_RUNTIME_DIR"],
      env: { PATH: env["PATH"], HOME: env["HOME"] },
      telecodeVersion: readPackageVersion(),
      clock,
    },
    fence,
    clientId,
    direct,
    // A kept CLI never starts on guessed flags (the respawning wrapper would hide its keeper): its binary's answer is awaited.
    probe: (command, probeEnv) => probe.ask(command, probeEnv),
    logger,
    ...(options.logCapBytes === undefined ? {} : { logCapBytes: options.logCapBytes }),
    // Only re-attaching uses it where runs are direct children: no keeper is started ahead of need.
    ...(plan.survivesRestart ? {} : { warmDelayMs: null }),
  });
  // Where a keeper would die with Telecode's service, runs stay direct children (drained on stop, as before).
  if (!plan.survivesRestart) logger.event("keeper.not_used", { why: plan.why }, "warn");
  return {
    stop: () => kept.stop(),
    launcher: plan.survivesRestart ? kept : direct,
    takeIn:
      ({ engine, sessions, bridge, resumeTrigger }) =>
      () =>
        takeInKeptRuns({
          config,
          store,
          launcher: kept,
          engine,
          sessions,
          bridge,
          resumeTrigger,
          keepersDir,
          fence,
          clientId,
          clock,
          logger,
        }),
  };
}
