// The file's scheduling keys: [loops] (Claude's own loops and their caps), [schedule] (zone,
// pause, grace) and [[schedules]] (cron runs). Cron and zone are checked here with the
// scheduler's own maths; checks across tables (project, chat, duplicate ids) are in schedule-config.ts.
import * as z from "zod/mini";
import { canonicalTimeZone, cronProblem } from "../schedule/index.js";
import {
  BOOL,
  dollars,
  EFFORTS,
  permissionModeSchema,
  PROJECT_NAME,
  quoted,
  STRING,
  tableError,
  topicId,
} from "./schema-parts.js";

function atLeast(min: number, what: string, max = Number.MAX_SAFE_INTEGER) {
  const error = `must be a whole number of ${what} (${min} or more)`;
  return z.int({ error }).check(z.minimum(min, { error }), z.maximum(max, { error: `must be at most ${max} ${what}` }));
}

const ZONE_EXPECTED = 'must be an IANA time zone such as "Europe/Berlin" or "UTC"';

const timeZone = z
  .string({ error: ZONE_EXPECTED })
  .check(z.refine((zone) => canonicalTimeZone(zone) !== null, { error: ZONE_EXPECTED }));

const loopsTable = z.strictObject(
  {
    enabled: z._default(z.boolean({ error: BOOL }), true),
    attended: z._default(z.boolean({ error: BOOL }), false),
    min_interval_seconds: z._default(atLeast(60, "seconds", 86_400), 60),
    max_iterations: z._default(atLeast(1, "runs"), 50),
    max_lifetime_days: z._default(atLeast(1, "days", 365), 7),
    max_cost_usd: z._default(dollars(), 5),
    max_per_chat: z._default(atLeast(1, "loops"), 10),
  },
  tableError("loops"),
);
export const loopsSchema = z.prefault(loopsTable, {});

const scheduleTable = z.strictObject(
  {
    timezone: z._default(z.union([z.literal(""), timeZone], { error: ZONE_EXPECTED }), ""),
    paused: z._default(z.boolean({ error: BOOL }), false),
    grace_minutes: z._default(atLeast(0, "minutes", 10_080), 60),
  },
  tableError("schedule"),
);
export const scheduleSchema = z.prefault(scheduleTable, {});

const entrySchema = z.strictObject(
  {
    id: z.string({ error: STRING }).check(
      z.regex(PROJECT_NAME, {
        error: "must be a short name (letters, digits, - _ . and at most 32 characters)",
      }),
    ),
    cron: z.string({ error: 'must be a cron expression such as "0 9 * * 1-5"' }).check(
      z.superRefine((cron, ctx) => {
        const problem = cronProblem(cron);
        if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
      }),
    ),
    timezone: z.optional(timeZone),
    prompt: z.string({ error: STRING }).check(z.refine((p) => p.trim() !== "", { error: "must say what to do" })),
    project: z.optional(z.string({ error: STRING })),
    chat_id: z.optional(z.int({ error: "must be a numeric chat id" })),
    topic: z.optional(topicId()),
    permission_mode: z.optional(permissionModeSchema()),
    model: z.optional(z.string({ error: STRING })),
    effort: z.optional(z.enum(EFFORTS, { error: `must be one of ${quoted(EFFORTS)}` })),
    session: z._default(z.enum(["new", "continue"], { error: 'must be "new" or "continue"' }), "new"),
    run_once: z._default(z.boolean({ error: BOOL }), false),
    max_run_cost_usd: z.optional(dollars()),
    max_day_cost_usd: z.optional(dollars()),
  },
  { error: (iss) => (iss.code === "invalid_type" ? "must be a [[schedules]] table" : undefined) },
);

export const schedulesSchema = z._default(
  z.array(entrySchema, { error: "must be a list of [[schedules]] tables" }),
  [],
);

export type ScheduleEntryFile = z.output<typeof entrySchema>;

export const SCHEDULE_ENTRY_KEYS: readonly string[] = Object.keys(entrySchema.shape);
export const LOOPS_KEYS: readonly string[] = Object.keys(loopsTable.shape);
export const SCHEDULE_KEYS: readonly string[] = Object.keys(scheduleTable.shape);
