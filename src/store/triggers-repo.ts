// What the triggers keep across restarts besides the schedules themselves: the chat's last
// /pause or /resume, each webhook's spending per day, deliveries held while paused, and each
// schedule's and webhook's last result. The caller decides what a "day" is (its time zone).
import type { Database } from "better-sqlite3";
import { z } from "zod";
import { StoreError } from "./errors.js";
import { readRow, readRows } from "./records.js";

export const TRIGGER_RESULTS = [
  "ok",
  "failed",
  "cancelled",
  "capped",
  "day_capped",
  "skipped_busy",
  "held",
  "missed",
] as const;

/** How a trigger's last fire ended: ran (ok, failed, cancelled, capped mid-run) or did not run (the rest). */
export type TriggerResult = (typeof TRIGGER_RESULTS)[number];

/** The chat's last /pause or /resume, and the config's `[schedule] paused` when it was given. */
export type PausedChoice = Readonly<{ paused: boolean; configPaused: boolean; changedAt: number }>;

export type HeldDelivery = Readonly<{ seq: number; webhookId: string; trigger: unknown; heldAt: number }>;

export type LastResult = Readonly<{ triggerId: string; result: TriggerResult; at: number }>;

export type TriggersRepository = {
  pausedChoice(): PausedChoice | null;
  setPausedChoice(choice: PausedChoice): void;
  /** Forgets the chat's choice (the config's value changed, so it decides again). */
  clearPausedChoice(): void;
  /** A webhook's spending on `day` (YYYY-MM-DD) and whether its chat was told the day cap was reached. */
  webhookDay(webhookId: string, day: string): Readonly<{ costUsd: number; told: boolean }>;
  /** Adds a run's cost to the webhook's `day`; returns the day's total. */
  addWebhookCost(webhookId: string, day: string, usd: number): number;
  /** Marks the day cap as told; false when it already was (tell once per day). */
  markDayCapTold(webhookId: string, day: string): boolean;
  /** Keeps a delivery (any JSON value) until `takeHeld`. */
  hold(webhookId: string, trigger: unknown, heldAtMs: number): void;
  /** Every held delivery, oldest first, removed from the store in the same transaction. */
  takeHeld(): HeldDelivery[];
  heldCount(): number;
  recordResult(triggerId: string, result: TriggerResult, atMs: number): void;
  /** Every trigger's last result, by trigger id ("schedule:ID", "webhook:ID"). */
  lastResults(): ReadonlyMap<string, LastResult>;
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const pausedRow = z
  .object({ paused: z.number(), config_paused: z.number(), changed_at: z.number().int() })
  .transform((r) => ({ paused: r.paused === 1, configPaused: r.config_paused === 1, changedAt: r.changed_at }));

const dayRow = z.object({ cost_usd: z.number(), told: z.number() });

const heldRow = z
  .object({ seq: z.number().int(), webhook_id: z.string(), trigger: z.string(), held_at: z.number().int() })
  .transform((r, ctx) => {
    try {
      return { seq: r.seq, webhookId: r.webhook_id, trigger: JSON.parse(r.trigger) as unknown, heldAt: r.held_at };
    } catch {
      ctx.addIssue({ code: "custom", message: "trigger is not JSON" });
      return z.NEVER;
    }
  });

const resultRow = z
  .object({ trigger_id: z.string(), result: z.enum(TRIGGER_RESULTS), at: z.number().int() })
  .transform((r) => ({ triggerId: r.trigger_id, result: r.result, at: r.at }));

function checkDay(day: string): void {
  if (!DAY.test(day)) throw new StoreError("store.invalid_input", `day must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
}

export function createTriggersRepository(db: Database): TriggersRepository {
  const getPaused = db.prepare("SELECT paused, config_paused, changed_at FROM triggers_paused WHERE id = 1");
  const setPaused = db.prepare(`
    INSERT INTO triggers_paused (id, paused, config_paused, changed_at) VALUES (1, ?, ?, ?)
    ON CONFLICT (id) DO UPDATE SET paused = excluded.paused, config_paused = excluded.config_paused,
      changed_at = excluded.changed_at`);
  const clearPaused = db.prepare("DELETE FROM triggers_paused");
  const getDay = db.prepare("SELECT cost_usd, told FROM webhook_day_costs WHERE webhook_id = ? AND day = ?");
  const addCost = db.prepare(`
    INSERT INTO webhook_day_costs (webhook_id, day, cost_usd) VALUES (?, ?, ?)
    ON CONFLICT (webhook_id, day) DO UPDATE SET cost_usd = webhook_day_costs.cost_usd + excluded.cost_usd`);
  const markTold = db.prepare(`
    INSERT INTO webhook_day_costs (webhook_id, day, cost_usd, told) VALUES (?, ?, 0, 1)
    ON CONFLICT (webhook_id, day) DO UPDATE SET told = 1 WHERE webhook_day_costs.told = 0`);
  const insertHeld = db.prepare("INSERT INTO held_deliveries (webhook_id, trigger, held_at) VALUES (?, ?, ?)");
  const allHeld = db.prepare("SELECT seq, webhook_id, trigger, held_at FROM held_deliveries ORDER BY seq");
  const countHeld = db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM held_deliveries");
  const clearHeld = db.prepare("DELETE FROM held_deliveries WHERE seq <= ?");
  const putResult = db.prepare(`
    INSERT INTO trigger_results (trigger_id, result, at) VALUES (?, ?, ?)
    ON CONFLICT (trigger_id) DO UPDATE SET result = excluded.result, at = excluded.at`);
  const allResults = db.prepare("SELECT trigger_id, result, at FROM trigger_results");

  const webhookDay = (webhookId: string, day: string): { costUsd: number; told: boolean } => {
    checkDay(day);
    const row = getDay.get(webhookId, day);
    if (row === undefined) return { costUsd: 0, told: false };
    const read = readRow(dayRow, "webhook_day_costs", row);
    return { costUsd: read.cost_usd, told: read.told === 1 };
  };
  const takeHeld = db.transaction((): HeldDelivery[] => {
    const held = readRows(heldRow, "held_deliveries", allHeld.all());
    const last = held.at(-1);
    if (last !== undefined) clearHeld.run(last.seq);
    return held;
  });

  return {
    pausedChoice: () => {
      const row = getPaused.get();
      return row === undefined ? null : readRow(pausedRow, "triggers_paused", row);
    },
    setPausedChoice: (choice) => {
      setPaused.run(choice.paused ? 1 : 0, choice.configPaused ? 1 : 0, choice.changedAt);
    },
    clearPausedChoice: () => {
      clearPaused.run();
    },
    webhookDay,
    addWebhookCost: (webhookId, day, usd) => {
      checkDay(day);
      if (!Number.isFinite(usd) || usd < 0)
        throw new StoreError("store.invalid_input", `a run's cost must be a finite amount of 0 or more, got ${usd}`);
      addCost.run(webhookId, day, usd);
      return webhookDay(webhookId, day).costUsd;
    },
    markDayCapTold: (webhookId, day) => {
      checkDay(day);
      return markTold.run(webhookId, day).changes > 0;
    },
    hold: (webhookId, trigger, heldAtMs) => {
      insertHeld.run(webhookId, JSON.stringify(trigger), heldAtMs);
    },
    takeHeld: () => takeHeld(),
    heldCount: () => countHeld.get()?.n ?? 0,
    recordResult: (triggerId, result, atMs) => {
      putResult.run(triggerId, result, atMs);
    },
    lastResults: () =>
      new Map(readRows(resultRow, "trigger_results", allResults.all()).map((r) => [r.triggerId, r] as const)),
  };
}
