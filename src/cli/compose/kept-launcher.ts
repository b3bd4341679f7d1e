// The launcher of kept CLIs: each process starts under a keeper of its own (detached, outside
// the service's cgroup) and is reached through its socket, so it survives a restart of
// Telecode; after one, `reattach` takes up a keeper found on disk again.
import { startFailedError, type CliLauncher } from "../../claude/index.js";
import { startKeeper, type KeeperLauncher, type KeeperRecord, type Welcome } from "../../keeper/index.js";
import type { Logger } from "../../ports/index.js";
import { KeptTransport } from "./kept-transport.js";

export type KeptLauncherOptions = {
  keeper: KeeperLauncher;
  /** This Telecode's fence: every attach carries it. */
  fence: number;
  /** Names this Telecode to its keepers (logs only). */
  clientId: string;
  /** How the CLI is found (the direct launcher's probe: it is the same binary). */
  probe: CliLauncher["probe"];
  logger: Logger;
  /** A keeper's log cap (default the keeper's own). */
  logCapBytes?: number;
};

export type KeptLauncher = CliLauncher & {
  /** Attaches to a keeper found after a restart, replaying the lines after `fromSeq`. Throws what attachKeeper throws. */
  reattach(record: KeeperRecord, fromSeq: number): Promise<{ transport: KeptTransport; welcome: Welcome }>;
};

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
  return {
    probe: options.probe,
    async launch(request) {
      let started;
      try {
        started = await startKeeper(options.keeper, {
          cli: { path: request.file, args: request.args, cwd: request.cwd, env: request.env },
          ...(options.logCapBytes === undefined ? {} : { logCapBytes: options.logCapBytes }),
        });
      } catch (error) {
        throw startFailedError(error instanceof Error ? error.message : String(error), error);
      }
      const { record } = started;
      if (!started.inOwnScope) logger.event("keeper.in_service_scope", { keeperId: record.keeperId }, "warn");
      logger.event("keeper.started", { keeperId: record.keeperId, keeperPid: record.keeper.pid, pid: record.cli.pid });
      try {
        return (await attach(record, 0)).transport;
      } catch (error) {
        // Nobody could take its CLI: the keeper ends it rather than leave it waiting.
        process.kill(record.keeper.pid, "SIGTERM");
        throw startFailedError(error instanceof Error ? error.message : String(error), error);
      }
    },
    reattach: attach,
  };
}
