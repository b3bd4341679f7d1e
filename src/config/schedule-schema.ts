// The file's scheduling keys: [loops] (Claude's own loops and their caps), [schedule] (zone,
// pause, grace) and [[schedules]] (cron runs). Cron and zone are checked here with the
// scheduler's own maths; checks across tables (project, chat, duplicate ids) are in schedule-config.ts.
import { z } from "zod";
import { canonicalTimeZone, cronProblem } from "../schedule/index.js";
import { BOOL, EFFORTS, permissionModeSchema, PROJECT_NAME, quoted, STRING, tableError } from "./schema-parts.js";

function atLeast(min: number, what: string, max = Number.MAX_SAFE_INTEGER) {
  const error = `must be a whole number of ${what} (${min} or more)`;
  return z
    .int({ error })
    .min(min, { error })
    .max(max, { error: `must be at most ${max} ${what}` });
}

const DOLLARS = "must be a number of US dollars above 0";
const dollars = () => z.number({ error: DOLLARS }).positive({ error: DOLLARS });

const ZONE_EXPECTED = 'must be an IANA time zone such as "Europe/Berlin" or "UTC"';

const timeZone = z
  .string({ error: ZONE_EXPECTED })
  .refine((zone) => canonicalTimeZone(zone) !== null, { error: ZONE_EXPECTED });

export const loopsSchema = z
  .strictObject(
    {
      enabled: z.boolean({ error: BOOL }).default(true),
      attended: z.boolean({ error: BOOL }).default(false),
      min_interval_seconds: atLeast(60, "seconds", 86_400).default(60),
      max_iterations: atLeast(1, "runs").default(50),
      max_lifetime_days: atLeast(1, "days", 365).default(7),
      max_cost_usd: dollars().default(5),
      max_per_chat: atLeast(1, "loops").default(10),
    },
    tableError("loops"),
  )
  .prefault({});

export const scheduleSchema = z
  .strictObject(
    {
      timezone: z.union([z.literal(""), timeZone], { error: ZONE_EXPECTED }).default(""),
      paused: z.boolean({ error: BOOL }).default(false),
      grace_minutes: atLeast(0, "minutes", 10_080).default(60),
    },
    tableError("schedule"),
  )
  .prefault({});

const entrySchema = z.strictObject(
  {
    id: z.string({ error: STRING }).regex(PROJECT_NAME, {
      error: "must be a short name (letters, digits, - _ . and at most 32 characters)",
    }),
    cron: z.string({ error: 'must be a cron expression such as "0 9 * * 1-5"' }).superRefine((cron, ctx) => {
      const problem = cronProblem(cron);
      if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
    }),
    timezone: timeZone.optional(),
    prompt: z.string({ error: STRING }).refine((p) => p.trim() !== "", { error: "must say what to do" }),
    project: z.string({ error: STRING }).optional(),
    chat_id: z.int({ error: "must be a numeric chat id" }).optional(),
    permission_mode: permissionModeSchema().optional(),
    model: z.string({ error: STRING }).optional(),
    effort: z.enum(EFFORTS, { error: `must be one of ${quoted(EFFORTS)}` }).optional(),
    session: z.enum(["new", "continue"], { error: 'must be "new" or "continue"' }).default("new"),
    run_once: z.boolean({ error: BOOL }).default(false),
    max_run_cost_usd: dollars().optional(),
    max_day_cost_usd: dollars().optional(),
  },
  { error: (iss) => (iss.code === "invalid_type" ? "must be a [[schedules]] table" : undefined) },
);

export const schedulesSchema = z.array(entrySchema, { error: "must be a list of [[schedules]] tables" }).default([]);

export type ScheduleEntryFile = z.output<typeof entrySchema>;

export const SCHEDULE_ENTRY_KEYS: readonly string[] = Object.keys(entrySchema.shape);
