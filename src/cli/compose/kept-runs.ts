// At start, the runs whose kept processes outlived the last Telecode are taken in again: each
// keeper on disk is re-attached (its run's lines replayed from the run's start through the
// normal pipeline), ended (no run of ours is in it), reaped (it died: a kill, a crash, a
// reboot) or retired (another protocol version's: it lets its CLI finish). Runs not taken in
// are left to the bridge's recovery, which marks them interrupted with Continue.
import { join } from "node:path";
import type { Config } from "../../config/index.js";
import type { Lane } from "../../domain/index.js";
import {
  attachKeeper,
  findKeepers,
  reapGoneKeeper,
  reapIfGone,
  removeKeeperFiles,
  retireKeeper,
  type FoundKeeper,
  type KeeperRecord,
} from "../../keeper/index.js";
import type { RecordedRequest } from "../../claude/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import type { SessionManager } from "../../sessions/index.js";
import type { RunRecord, Store } from "../../store/index.js";
import {
  chatSettings,
  recordedTrigger,
  type RecordedTrigger,
  type TelegramBridge,
  type TriggerRunHooks,
} from "../../telegram/index.js";
import type { TelecodeEnginePort } from "./engine-port.js";
import type { KeptLauncher } from "./kept-launcher.js";
import { laneFolder } from "../../worktrees/index.js";

export type TakeInDeps = {
  config: () => Config;
  store: Store;
  launcher: KeptLauncher;
  engine: TelecodeEnginePort;
  sessions: SessionManager;
  bridge: Pick<TelegramBridge, "keptRunView">;
  /** A run nobody typed: its trigger's hooks on it again (cost cap, result), when the trigger still exists. */
  resumeTrigger(trigger: RecordedTrigger): TriggerRunHooks | undefined;
  keepersDir: string;
  fence: number;
  clientId: string;
  clock: Clock;
  logger: Logger;
  /** How long start waits for a kept CLI to list the requests it still waits on (default 10 s). */
  reconcileTimeoutMs?: number;
};

/** Takes in every kept run it can; resolves with their run ids once each has caught up with its CLI's open requests. */
export async function takeInKeptRuns(deps: TakeInDeps): Promise<ReadonlySet<string>> {
  const { store, logger } = deps;
  let found: FoundKeeper[];
  let running: RunRecord[];
  try {
    found = await findKeepers(deps.keepersDir);
    running = store.runs.listRunning();
  } catch (error) {
    logger.event("keeper.take_in_failed", { err: error }, "error");
    return new Set();
  }
  const byKeeper = new Map(running.flatMap((run) => (run.keeperId === null ? [] : [[run.keeperId, run] as const])));
  const kept = new Set<string>();
  await Promise.all(
    found.map(async (keeper) => {
      switch (keeper.kind) {
        case "running": {
          const run = byKeeper.get(keeper.record.keeperId);
          if (run !== undefined && (await takeIn(deps, run, keeper.record))) kept.add(run.runId);
          // Not taken in: ended, or reaped when it died since it was found (a kill just before the start).
          else if (!(await endUnclaimed(deps, keeper.record))) await reap(deps, keeper.record, true);
          return;
        }
        case "gone":
          // Killed, crashed, or the machine restarted: its run is interrupted (with Continue).
          await reap(deps, keeper.record, false);
          return;
        case "other_version":
          retire(deps, keeper);
          return;
        case "unreadable":
          logger.event("keeper.unreadable", { dir: keeper.dir, problem: keeper.problem }, "warn");
          return;
      }
    }),
  );
  return kept;
}

/** Re-attaches a run's keeper and hands the run to the session layer; false when it cannot be taken in. */
async function takeIn(deps: TakeInDeps, run: RunRecord, record: KeeperRecord): Promise<boolean> {
  const { logger } = deps;
  const project = deps.config().projects.find((p) => p.name === run.project);
  if (project === undefined || run.startSeq === null) return false;
  let attached;
  try {
    attached = await deps.launcher.reattach(record, run.startSeq);
  } catch (error) {
    logger.event("keeper.reattach_failed", { err: error, keeperId: record.keeperId, runId: run.runId }, "error");
    return false;
  }
  const { transport, welcome } = attached;
  const settings = chatSettings(deps.config(), deps.store, run.chatId);
  const lane: Lane = { chatId: run.chatId, project: run.project };
  const opened = {
    cwd: laneFolder(project, lane),
    mode: run.mode ?? settings.mode,
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.effort === undefined ? {} : { effort: settings.effort }),
  };
  const sessionId = run.sessionId ?? welcome.sessionId ?? undefined;
  const { handle, reconciled } = deps.engine.adoptSession(
    { lane, ...opened, ...(sessionId === undefined ? {} : { resume: sessionId }) },
    {
      transport,
      run: {
        id: run.runId,
        startedAtMs: run.startedAt,
        startSeq: run.startSeq,
        // A schedule's or a webhook's run stays one nobody watches: what would ask a person is declined.
        ...(run.input?.unattended === true ? { unattended: true } : {}),
      },
      backlogThroughSeq: welcome.lastSeq,
      seenThroughSeq: Math.max(run.startSeq, run.lastSeq ?? 0),
      recordedRequest: (requestId) => recordedRequest(deps, run, requestId),
    },
  );
  const trigger = recordedTrigger(run.input);
  const observer = deps.bridge.keptRunView(
    run,
    trigger === undefined ? undefined : { trigger, hooks: deps.resumeTrigger(trigger) },
  );
  if (
    !deps.sessions.adopt({
      lane,
      handle,
      settings: opened,
      sessionId,
      run: { runId: run.runId, observer, startedAtMs: run.startedAt, taken: run.promptTaken },
    })
  ) {
    await handle.detach?.();
    return false;
  }
  logger.event("keeper.taken_in", {
    keeperId: record.keeperId,
    runId: run.runId,
    chatId: run.chatId,
    fromSeq: run.startSeq,
    lastSeq: welcome.lastSeq,
    exited: welcome.exit !== null,
  });
  await reconcile(deps, run, reconciled, () => transport.exit !== undefined);
  return true;
}

/** Whether the previous Telecode asked a person about a request of the run, and whether that is settled. */
function recordedRequest(deps: TakeInDeps, run: RunRecord, requestId: string): RecordedRequest | undefined {
  try {
    const decision = deps.store.decisions.byRequest(run.runId, requestId);
    if (decision === null) return undefined;
    return decision.state === "pending" ? "open" : "settled";
  } catch (error) {
    deps.logger.event("keeper.decision_lookup_failed", { err: error, runId: run.runId, requestId }, "error");
    return undefined;
  }
}

/**
 * The run's decisions the CLI no longer waits on (answered or withdrawn just before the stop,
 * or its process has ended) are withdrawn (the bridge's recovery then shows them so); the
 * others were asked again with their messages.
 */
async function reconcile(
  deps: TakeInDeps,
  run: RunRecord,
  reconciled: Promise<readonly string[] | undefined>,
  exited: () => boolean,
): Promise<void> {
  const timedOut = Symbol("timed out");
  let timer: { cancel(): void } | undefined;
  const waiting = await Promise.race([
    reconciled,
    new Promise<typeof timedOut>((resolve) => {
      timer = deps.clock.setTimer(deps.reconcileTimeoutMs ?? 10_000, () => resolve(timedOut));
    }),
  ]);
  timer?.cancel();
  // Not known (no answer in time, or none while the CLI still runs): the decisions stay as they are.
  if (waiting === timedOut || (waiting === undefined && !exited())) {
    deps.logger.event("keeper.reconcile_unknown", { runId: run.runId }, "warn");
    return;
  }
  const still = new Set(waiting ?? []);
  try {
    for (const d of deps.store.decisions.listPending(run.chatId))
      if (d.runId === run.runId && !still.has(d.requestId)) deps.store.decisions.resolve(d.decisionId, "withdrawn");
  } catch (error) {
    deps.logger.event("keeper.reconcile_failed", { err: error, runId: run.runId }, "error");
  }
}

/** Ends what a dead keeper left (its CLI, its files); `ifGone`: only when it is not running after all. */
async function reap(deps: TakeInDeps, record: KeeperRecord, ifGone: boolean): Promise<void> {
  try {
    if (!ifGone) await reapGoneKeeper(record, deps.clock);
    else if (!(await reapIfGone(record, deps.clock))) return;
    deps.logger.event("keeper.gone", { keeperId: record.keeperId }, "warn");
  } catch (error) {
    deps.logger.event("keeper.reap_failed", { err: error, keeperId: record.keeperId }, "error");
  }
}

/** A keeper no run of ours is in (an idle session's, or its run ended): its CLI is ended, its files go; false when it could not be reached. */
async function endUnclaimed(deps: TakeInDeps, record: KeeperRecord): Promise<boolean> {
  try {
    const connection = await attachKeeper(record, {
      clientId: deps.clientId,
      fence: deps.fence,
      // Nothing to replay: nobody reads it.
      fromSeq: Number.MAX_SAFE_INTEGER,
      clock: deps.clock,
      onLine: () => undefined,
    });
    const end = await connection.shutdown();
    if (end.kind === "exited") connection.ack(end.lastSeq);
    await connection.released;
    deps.logger.event("keeper.ended_unclaimed", { keeperId: record.keeperId, end: end.kind });
    return true;
  } catch (error) {
    deps.logger.event("keeper.end_failed", { err: error, keeperId: record.keeperId }, "warn");
    return false;
  }
}

/** Another protocol version's keeper: told this Telecode owns the state now, it lets its CLI finish and ends. */
function retire(deps: TakeInDeps, keeper: Extract<FoundKeeper, { kind: "other_version" }>): void {
  deps.logger.event("keeper.other_version", { dir: keeper.dir, protocol: keeper.protocol, running: keeper.running });
  if (!keeper.running || keeper.socketPath === null) {
    removeKeeperFiles({ dir: keeper.dir, socketPath: keeper.socketPath ?? join(keeper.dir, "keeper.sock") });
    return;
  }
  void retireKeeper({ socketPath: keeper.socketPath, fence: deps.fence, clientId: deps.clientId, clock: deps.clock });
}
