// A turn's own cost. The CLI's total_cost_usd is the session's running total and carries over
// into a new process (--resume restores it from the transcript), so "total minus what this
// process saw" is wrong after a resume, a restart, /continue or an idle close.
import type { WireResultMessage } from "../wire/index.js";

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** The result's running total in USD, when it reports one. */
export function resultTotalUsd(result: WireResultMessage): number | undefined {
  return finite(result.total_cost_usd);
}

/** The CLI's own figure for the turn: the costs in `model_usage_since_last_result` (absent on older CLIs). */
function sinceLastResultUsd(result: WireResultMessage): number | undefined {
  const since = result["model_usage_since_last_result"];
  if (typeof since !== "object" || since === null) return undefined;
  let sum = 0;
  for (const entry of Object.values(since as Record<string, unknown>)) {
    if (typeof entry !== "object" || entry === null) continue;
    sum += finite((entry as Record<string, unknown>)["costUSD"]) ?? 0;
  }
  return sum;
}

/**
 * This turn's cost in USD (rounded to a millionth): the CLI's since-last-result figure when it
 * gives one (right even when another program used the session in between), else the running
 * total minus the session's last known total, else the whole total (a session never seen). A
 * total lower than the last known one (the CLI started counting again) is the turn's own.
 */
export function turnCostUsd(result: WireResultMessage, lastKnownTotalUsd: number | undefined): number {
  const since = sinceLastResultUsd(result);
  if (since !== undefined) return roundUsd(since);
  const total = resultTotalUsd(result) ?? 0;
  const delta = total - (lastKnownTotalUsd ?? 0);
  return roundUsd(delta >= 0 ? delta : total);
}
