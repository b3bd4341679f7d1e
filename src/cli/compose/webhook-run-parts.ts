// The plain pieces of a webhook delivery's run: why a queued run did not start (the day cap, a hold),
// the result a finished run is recorded with, and a held delivery read back from SQLite.
import { formatUsd, type RunCompleted, type RunFailure } from "../../domain/index.js";
import type { TriggerResult } from "../../store/index.js";
import type { WebhookTrigger } from "../../triggers/index.js";

export type DayCapReached = { day: string; spentUsd: number; capUsd: number };

/**
 * Why a delivery's queued run did not start: the day cap was reached while it waited. Short: the
 * chat's day-cap notice beside it says what the runs cost and how to raise the cap.
 */
export function dayCapFailure(webhookId: string, reached: DayCapReached): RunFailure {
  return {
    reason: "not_started",
    what: `Not run: webhook ${webhookId} reached its day cap (${formatUsd(reached.capUsd)}) while this delivery waited.`,
    hint: "",
  };
}

/** Why a delivery's queued run did not start: its webhook was held (see webhook-holds.ts) while it waited. */
export function heldFailure(webhookId: string): RunFailure {
  return {
    reason: "not_started",
    what: `Not run: webhook ${webhookId} is held until its failure is fixed. This delivery is kept, and /resume runs it.`,
    hint: "",
  };
}

export function resultOf(completed: RunCompleted, capped: boolean): TriggerResult {
  if (capped) return "capped";
  if (completed.cancelled) return "cancelled";
  return completed.ok ? "ok" : "failed";
}

/** A held delivery read back: the fields a run needs, checked (the row may be from an older Telecode). */
export function heldTrigger(value: unknown): WebhookTrigger | null {
  if (typeof value !== "object" || value === null) return null;
  const t = value as Partial<WebhookTrigger>;
  const ok =
    typeof t.webhookId === "string" &&
    typeof t.prompt === "string" &&
    (t.summary === undefined || typeof t.summary === "string") &&
    typeof t.project === "string" &&
    typeof t.chatId === "number" &&
    typeof t.receivedAtMs === "number" &&
    typeof t.overrides === "object" &&
    t.overrides !== null;
  return ok ? (value as WebhookTrigger) : null;
}
