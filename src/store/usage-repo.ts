// Spending and run counts per calendar day, over all chats and per chat, for /usage and
// [budget] (the caller decides what "day" means, its time zone, and passes it as YYYY-MM-DD);
// and the login's usage limits as Claude Code last reported them.
import type { Database } from "better-sqlite3";
import { z } from "zod";
import type { UsageLimitReported } from "../domain/index.js";
import { StoreError } from "./errors.js";
import { readRow, readRows, usageRow, type DailyUsage } from "./records.js";

export type UsageRepository = {
  /** Adds one finished run and its cost to `day` (YYYY-MM-DD), and to its chat's day when given. */
  add(day: string, costUsd: number, chatId?: number): DailyUsage;
  /** Zero usage for a day with no runs. */
  forDay(day: string): DailyUsage;
  /** What the chat's runs cost on `day`. */
  forChatDay(chatId: number, day: string): number;
  /** Days with usage from `fromDay` to `toDay` inclusive, oldest first. */
  between(fromDay: string, toDay: string): DailyUsage[];
  /** Each limit's latest report, in the order the limits were first reported. */
  limits(): UsageLimitReported[];
  /** Keeps `limit` as its limit's latest report. */
  saveLimit(limit: UsageLimitReported, reportedAtMs: number): void;
};

const limitRow = z
  .object({
    name: z.string(),
    state: z.enum(["ok", "warning", "reached"]),
    used_percent: z.number().nullable(),
    resets_at: z.number().int().nullable(),
    extra_usage: z.union([z.literal(0), z.literal(1)]),
  })
  .transform((r): UsageLimitReported => ({
    type: "usage_limit",
    limit: r.name,
    state: r.state,
    ...(r.used_percent === null ? {} : { usedPercent: r.used_percent }),
    ...(r.resets_at === null ? {} : { resetsAtMs: r.resets_at }),
    extraUsage: r.extra_usage === 1,
  }));

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function checkDay(day: string): void {
  if (!DAY.test(day)) throw new StoreError("store.invalid_input", `day must be YYYY-MM-DD, got ${JSON.stringify(day)}`);
}

export function createUsageRepository(db: Database): UsageRepository {
  const add = db.prepare(`
    INSERT INTO usage_daily (day, cost_usd, runs) VALUES (?, ?, 1)
    ON CONFLICT (day) DO UPDATE SET cost_usd = usage_daily.cost_usd + excluded.cost_usd, runs = usage_daily.runs + 1`);
  const select = db.prepare("SELECT * FROM usage_daily WHERE day = ?");
  const addForChat = db.prepare(`
    INSERT INTO chat_day_costs (chat_id, day, cost_usd) VALUES (?, ?, ?)
    ON CONFLICT (chat_id, day) DO UPDATE SET cost_usd = chat_day_costs.cost_usd + excluded.cost_usd`);
  const chatDay = db.prepare("SELECT cost_usd FROM chat_day_costs WHERE chat_id = ? AND day = ?").pluck();
  const range = db.prepare("SELECT * FROM usage_daily WHERE day BETWEEN ? AND ? ORDER BY day");
  const limits = db.prepare("SELECT * FROM usage_limits ORDER BY rowid");
  const saveLimit = db.prepare(`
    INSERT INTO usage_limits (name, state, used_percent, resets_at, extra_usage, reported_at) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT (name) DO UPDATE SET state = excluded.state, used_percent = excluded.used_percent,
      resets_at = excluded.resets_at, extra_usage = excluded.extra_usage, reported_at = excluded.reported_at`);

  const forDay = (day: string): DailyUsage => {
    checkDay(day);
    const row = select.get(day);
    return row === undefined ? { day, costUsd: 0, runs: 0 } : readRow(usageRow, "usage_daily", row);
  };

  return {
    add: (day, costUsd, chatId) => {
      checkDay(day);
      if (!Number.isFinite(costUsd) || costUsd < 0)
        throw new StoreError("store.invalid_input", `costUsd must be a finite amount of 0 or more, got ${costUsd}`);
      db.transaction(() => {
        add.run(day, costUsd);
        if (chatId !== undefined && costUsd > 0) addForChat.run(chatId, day, costUsd);
      })();
      return forDay(day);
    },
    forDay,
    forChatDay: (chatId, day) => {
      checkDay(day);
      const cost = chatDay.get(chatId, day);
      return typeof cost === "number" ? cost : 0;
    },
    between: (fromDay, toDay) => {
      checkDay(fromDay);
      checkDay(toDay);
      return readRows(usageRow, "usage_daily", range.all(fromDay, toDay));
    },
    limits: () => readRows(limitRow, "usage_limits", limits.all()),
    saveLimit: (limit, reportedAtMs) => {
      saveLimit.run(
        limit.limit,
        limit.state,
        limit.usedPercent ?? null,
        limit.resetsAtMs === undefined ? null : Math.round(limit.resetsAtMs),
        limit.extraUsage ? 1 : 0,
        Math.round(reportedAtMs),
      );
    },
  };
}
