// A schedules row and the Schedule it is: the zod check applied to every row read back (a
// row that does not fit is a `store.corrupt_row`), and the columns a Schedule is written as.
import { z } from "zod";
import { EFFORTS } from "../config/index.js";
import { PERMISSION_MODES } from "../domain/index.js";
import {
  SCHEDULE_STATES,
  STATE_REASONS,
  type Schedule,
  type ScheduleCreator,
  type ScheduleSession,
  type ScheduleTiming,
} from "../schedule/index.js";

const flag = z.union([z.literal(0), z.literal(1)]).transform((v) => v === 1);
const epochMs = z.number().int();
const usd = z.number().min(0);

export const scheduleRow = z
  .object({
    schedule_id: z.string().min(1),
    kind: z.enum(["loop", "wakeup", "config", "chat"]),
    chat_id: z.number().int(),
    project: z.string(),
    session_mode: z.enum(["new", "continue", "id"]),
    session_id: z.string().min(1).nullable(),
    timing: z.enum(["cron", "every", "once"]),
    cron: z.string().nullable(),
    every_ms: z.number().int().positive().nullable(),
    at_ms: epochMs.nullable(),
    time_zone: z.string().min(1),
    prompt: z.string(),
    note: z.string().nullable(),
    recurring: flag,
    created_by: z.enum(["claude", "config", "person"]),
    created_by_ref: z.string(),
    created_at: epochMs,
    next_fire_at: epochMs.nullable(),
    last_fired_at: epochMs.nullable(),
    last_slot_at: epochMs.nullable(),
    iterations: z.number().int().min(0),
    busy_streak: z.number().int().min(0),
    max_iterations: z.number().int().positive().nullable(),
    expires_at: epochMs.nullable(),
    max_cost_usd: usd.nullable(),
    max_run_cost_usd: usd.nullable(),
    max_day_cost_usd: usd.nullable(),
    cost_usd: usd,
    cost_day: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable(),
    cost_day_usd: usd,
    state: z.enum(SCHEDULE_STATES),
    state_reason: z.enum(STATE_REASONS).nullable(),
    permission_mode: z.enum(PERMISSION_MODES).nullable(),
    model: z.string().nullable(),
    effort: z.enum(EFFORTS).nullable(),
    attended: flag,
    updated_at: epochMs,
  })
  .transform((r, ctx): Schedule => {
    const timing = timingOf(r);
    const session = sessionOf(r);
    const createdBy = creatorOf(r);
    if (timing === null || session === null || createdBy === null) {
      ctx.addIssue({ code: "custom", message: "timing, session or creator columns do not fit together" });
      return z.NEVER;
    }
    return {
      id: r.schedule_id,
      kind: r.kind,
      chatId: r.chat_id,
      project: r.project,
      session,
      timing,
      timeZone: r.time_zone,
      prompt: r.prompt,
      note: r.note,
      recurring: r.recurring,
      createdBy,
      createdAt: r.created_at,
      nextFireAt: r.next_fire_at,
      lastFiredAt: r.last_fired_at,
      lastSlotAt: r.last_slot_at,
      iterations: r.iterations,
      busyStreak: r.busy_streak,
      caps: {
        maxIterations: r.max_iterations,
        expiresAt: r.expires_at,
        maxCostUsd: r.max_cost_usd,
        maxRunCostUsd: r.max_run_cost_usd,
        maxDayCostUsd: r.max_day_cost_usd,
      },
      costUsd: r.cost_usd,
      costDay: r.cost_day,
      costDayUsd: r.cost_day_usd,
      state: r.state,
      stateReason: r.state_reason,
      overrides: { permissionMode: r.permission_mode, model: r.model, effort: r.effort },
      attended: r.attended,
      updatedAt: r.updated_at,
    };
  });

type RawRow = {
  timing: "cron" | "every" | "once";
  cron: string | null;
  every_ms: number | null;
  at_ms: number | null;
  session_mode: "new" | "continue" | "id";
  session_id: string | null;
  created_by: "claude" | "config" | "person";
  created_by_ref: string;
};

function timingOf(r: RawRow): ScheduleTiming | null {
  if (r.timing === "cron") return r.cron === null ? null : { kind: "cron", cron: r.cron };
  if (r.at_ms === null) return null;
  if (r.timing === "once") return { kind: "once", atMs: r.at_ms };
  return r.every_ms === null ? null : { kind: "every", everyMs: r.every_ms, anchorMs: r.at_ms };
}

function sessionOf(r: RawRow): ScheduleSession | null {
  if (r.session_mode !== "id") return { mode: r.session_mode };
  return r.session_id === null ? null : { mode: "id", sessionId: r.session_id };
}

function creatorOf(r: RawRow): ScheduleCreator | null {
  if (r.created_by === "claude") return { kind: "claude", turn: r.created_by_ref };
  if (r.created_by === "config") return { kind: "config", configId: r.created_by_ref };
  const userId = Number(r.created_by_ref);
  return Number.isSafeInteger(userId) ? { kind: "person", userId } : null;
}

/** Every column but the id and the creation time, in table order. */
export const SCHEDULE_COLUMNS = [
  "kind",
  "chat_id",
  "project",
  "session_mode",
  "session_id",
  "timing",
  "cron",
  "every_ms",
  "at_ms",
  "time_zone",
  "prompt",
  "note",
  "recurring",
  "created_by",
  "created_by_ref",
  "next_fire_at",
  "last_fired_at",
  "last_slot_at",
  "iterations",
  "busy_streak",
  "max_iterations",
  "expires_at",
  "max_cost_usd",
  "max_run_cost_usd",
  "max_day_cost_usd",
  "cost_usd",
  "cost_day",
  "cost_day_usd",
  "state",
  "state_reason",
  "permission_mode",
  "model",
  "effort",
  "attended",
  "updated_at",
] as const;

/** The values of SCHEDULE_COLUMNS for a schedule. */
export function scheduleColumns(
  s: Omit<Schedule, "id" | "createdAt">,
): Record<(typeof SCHEDULE_COLUMNS)[number], string | number | null> {
  const t = s.timing;
  return {
    kind: s.kind,
    chat_id: s.chatId,
    project: s.project,
    session_mode: s.session.mode,
    session_id: s.session.mode === "id" ? s.session.sessionId : null,
    timing: t.kind,
    cron: t.kind === "cron" ? t.cron : null,
    every_ms: t.kind === "every" ? t.everyMs : null,
    at_ms: t.kind === "every" ? t.anchorMs : t.kind === "once" ? t.atMs : null,
    time_zone: s.timeZone,
    prompt: s.prompt,
    note: s.note,
    recurring: s.recurring ? 1 : 0,
    created_by: s.createdBy.kind,
    created_by_ref:
      s.createdBy.kind === "claude"
        ? s.createdBy.turn
        : s.createdBy.kind === "config"
          ? s.createdBy.configId
          : String(s.createdBy.userId),
    next_fire_at: s.nextFireAt,
    last_fired_at: s.lastFiredAt,
    last_slot_at: s.lastSlotAt,
    iterations: s.iterations,
    busy_streak: s.busyStreak,
    max_iterations: s.caps.maxIterations,
    expires_at: s.caps.expiresAt,
    max_cost_usd: s.caps.maxCostUsd,
    max_run_cost_usd: s.caps.maxRunCostUsd,
    max_day_cost_usd: s.caps.maxDayCostUsd,
    cost_usd: s.costUsd,
    cost_day: s.costDay,
    cost_day_usd: s.costDayUsd,
    state: s.state,
    state_reason: s.stateReason,
    permission_mode: s.overrides.permissionMode,
    model: s.overrides.model,
    effort: s.overrides.effort,
    attended: s.attended ? 1 : 0,
    updated_at: s.updatedAt,
  };
}
