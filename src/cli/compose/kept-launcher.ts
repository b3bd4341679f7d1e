// The launcher of kept CLIs: each process starts under a keeper of its own (detached, outside
// the service's cgroup) and is reached through its socket, so it survives a restart of
// Telecode; after one, `reattach` takes up a keeper found on disk again. One keeper is kept
// started ahead of need, so a run's CLI starts without waiting for a keeper's Node start. A run
// whose keeper cannot be started or reached runs its CLI directly.
import type { CliLauncher, CliTransport, LaunchRequest } from "../../claude/index.js";
import {
  endKeeperProcess,
  startKeeper,
  WarmKeeper,
  type KeeperLauncher,
  type KeeperRecord,
  type Welcome,
} from "../../keeper/index.js";
import type { TimerHandle } from "../../ports/index.js";
import type { Logger } from "../../ports/index.js";
import { KeptTransport } from "./kept-transport.js";

export type KeptLauncherOptions = {
  keeper: KeeperLauncher;
  /** This Telecode's fence: every attach carries it. */
  fence: number;
  /** Names this Telecode to its keepers (logs only). */
  clientId: string;
  /** What runs a CLI whose keeper cannot be started or reached. */
  direct: CliLauncher;
  /** How the CLI is found (the direct launcher's probe: it is the same binary). */
  probe: CliLauncher["probe"];
  logger: Logger;
  /** A keeper's log cap (default the keeper's own). */
  logCapBytes?: number;
  /**
   * How long after it is made, and after each start, the next keeper is started ahead of need
   * (so it does not compete with a CLI's start). Default 1 s; null: never (each starts on demand).
   */
  warmDelayMs?: number | null;
};

export type KeptLauncher = CliLauncher & {
  /** Attaches to a keeper found after a restart, replaying the lines after `fromSeq`. Throws what attachKeeper throws. */
  reattach(record: KeeperRecord, fromSeq: number): Promise<{ transport: KeptTransport; welcome: Welcome }>;
  /** Ends the keeper started ahead of need, and starts no more (Telecode is stopping). */
  stop(): void;
};

const WARM_DELAY_MS = 1000;

export function createKeptLauncher(options: KeptLauncherOptions): KeptLauncher {
  const { logger } = options;
  const attach = (record: KeeperRecord, fromSeq: number): ReturnType<KeptLauncher["reattach"]> =>
    KeptTransport.attach(record, {
      clientId: options.clientId,
      fence: options.fence,
      fromSeq,
      clock: options.keeper.clock,
      logger,
    });
  const warmDelayMs = options.warmDelayMs === undefined ? WARM_DELAY_MS : options.warmDelayMs;
  let warm: WarmKeeper | undefined;
  let warmTimer: TimerHandle | undefined;
  let stopped = false;
  const warmSoon = (): void => {
    if (warmDelayMs === null || stopped) return;
    warmTimer?.cancel();
    warmTimer = options.keeper.clock.setTimer(warmDelayMs, () => {
      warmTimer = undefined;
      if (!stopped && warm?.alive !== true) warm = WarmKeeper.start(options.keeper);
    });
  };
  warmSoon();
  /**
   * A keeper that cannot be started or reached (its files on a full disk, say) costs the run
   * only its surviving a restart: the CLI runs as a direct child, as without keepers, and the
   * run says so (the transport's `unkept`).
   */
  const runDirectly = async (request: LaunchRequest, why: unknown): Promise<CliTransport> => {
    const reason = why instanceof Error ? why.message : String(why);
    logger.event("keeper.start_failed", { why: reason, cwd: request.cwd }, "warn");
    const transport = await options.direct.launch(request);
    transport.unkept = reason;
    return transport;
  };
  return {
    probe: options.probe,
    async launch(request) {
      const ahead = warm;
      warm = undefined;
      let started;
      try {
        started = await startKeeper(
          options.keeper,
          {
            cli: { path: request.file, args: request.args, cwd: request.cwd, env: request.env },
            ...(options.logCapBytes === undefined ? {} : { logCapBytes: options.logCapBytes }),
          },
          ahead,
        );
      } catch (error) {
        return runDirectly(request, error);
      } finally {
        warmSoon();
      }
      const { record } = started;
      if (!started.inOwnScope) logger.event("keeper.in_service_scope", { keeperId: record.keeperId }, "warn");
      logger.event("keeper.started", {
        keeperId: record.keeperId,
        keeperPid: record.keeper.pid,
        pid: record.cli.pid,
        ahead: record.keeperId === ahead?.keeperId,
      });
      try {
        return (await attach(record, 0)).transport;
      } catch (error) {
        // Nobody could take its CLI: the keeper ends it rather than leave it waiting.
        endKeeperProcess(record.keeper.pid);
        return runDirectly(request, error);
      }
    },
    reattach: attach,
    stop() {
      stopped = true;
      warmTimer?.cancel();
      warm?.end();
      warm = undefined;
    },
  };
}
