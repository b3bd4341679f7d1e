// Spending and run counts per calendar day, for /usage and daily limits. The caller decides
// what "day" means (its time zone) and passes it as YYYY-MM-DD.
import type { Database } from "better-sqlite3";
import { StoreError } from "./errors.js";
import { readRow, readRows, usageRow, type DailyUsage } from "./records.js";

export type UsageRepository = {
  /** Adds one finished run and its cost to `day` (YYYY-MM-DD). */
  add(day: string, costUsd: number): DailyUsage;
  /** Zero usage for a day with no runs. */
  forDay(day: string): DailyUsage;
  /** Days with usage from `fromDay` to `toDay` inclusive, oldest first. */
  between(fromDay: string, toDay: string): DailyUsage[];
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function checkDay(day: string): void {
  if (!DAY.test(day)) throw new StoreError("store.invalid_input", `day must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
}

export function createUsageRepository(db: Database): UsageRepository {
  const add = db.prepare(`
    INSERT INTO usage_daily (day, cost_usd, runs) VALUES (?, ?, 1)
    ON CONFLICT (day) DO UPDATE SET cost_usd = usage_daily.cost_usd + excluded.cost_usd, runs = usage_daily.runs + 1`);
  const select = db.prepare("SELECT * FROM usage_daily WHERE day = ?");
  const range = db.prepare("SELECT * FROM usage_daily WHERE day BETWEEN ? AND ? ORDER BY day");

  const forDay = (day: string): DailyUsage => {
    checkDay(day);
    const row = select.get(day);
    return row === undefined ? { day, costUsd: 0, runs: 0 } : readRow(usageRow, "usage_daily", row);
  };

  return {
    add: (day, costUsd) => {
      checkDay(day);
      if (!Number.isFinite(costUsd) || costUsd < 0)
        throw new StoreError("store.invalid_input", `costUsd must be a finite amount of 0 or more, got ${costUsd}`);
      add.run(day, costUsd);
      return forDay(day);
    },
    forDay,
    between: (fromDay, toDay) => {
      checkDay(fromDay);
      checkDay(toDay);
      return readRows(usageRow, "usage_daily", range.all(fromDay, toDay));
    },
  };
}
