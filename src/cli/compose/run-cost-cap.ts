// A trigger's per-run cost cap, enforced while its run goes on: each model call's tokens are
// priced at list prices (the CLI reports a turn's cost only at its end), and a run whose estimate
// passes the cap is cancelled, with a message naming the cap, the amount and how to change it.
import { estimateStepCostUsd, formatUsd, type OfferedPrices, type StepUsage } from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { SessionManager } from "../../sessions/index.js";

export type RunCostCap = Readonly<{
  /** null: no cap, nothing to watch. */
  capUsd: number | null;
  /** Who set it, as the chat reads it: "webhook github-push", "schedule morning-review". */
  name: string;
  /** The config key to change: "webhooks.max_cost_usd_per_run". */
  key: string;
  chatId: number;
}>;

export type RunCostWatchDeps = {
  /** Where the run is cancelled. */
  sessions: Pick<SessionManager, "cancel">;
  notify(chatId: number, html: string): void;
  logger: Logger;
  /** What the running CLI states a model costs, for one Telecode's table does not know. */
  offeredPrices?: OfferedPrices | undefined;
};

export type RunCostWatch = {
  readonly onStep: (step: StepUsage, runId: string) => void;
  /** Whether the cap stopped the run. */
  isStopped(): boolean;
};

/** A watch for one run; undefined when there is no cap. */
export function watchRunCost(cap: RunCostCap, deps: RunCostWatchDeps): RunCostWatch | undefined {
  const { capUsd } = cap;
  if (capUsd === null) return undefined;
  let spentUsd = 0;
  let stopped = false;
  return {
    onStep(step, runId) {
      spentUsd += estimateStepCostUsd(step, deps.offeredPrices);
      if (stopped || spentUsd <= capUsd) return;
      stopped = true;
      deps.logger.event("trigger.run_cost_capped", { runId, name: cap.name, spentUsd, capUsd }, "warn");
      deps.notify(
        cap.chatId,
        `⏹ Stopped this run of <b>${esc(cap.name)}</b>: it had cost about ${formatUsd(spentUsd)}, past its cap of ${formatUsd(capUsd)} per run (${esc(cap.key)}). Raise that in the config to let its runs go further.`,
      );
      deps.sessions
        .cancel(runId)
        .catch((error: unknown) =>
          deps.logger.event("trigger.cancel_failed", { err: error, runId, name: cap.name }, "error"),
        );
    },
    isStopped: () => stopped,
  };
}
