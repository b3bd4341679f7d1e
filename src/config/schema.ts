// The config file's schema (DESIGN.md §9 plus the limits Telecode added), in the file's own
// snake_case names, with every default. Messages complete "<key path> …" for a person to read.
import { z } from "zod";
import { AUTH_ENV_KEYS, unsafeArgNameProblem, type ClaudeProvider } from "../claude/index.js";
import { filesSchema, MEDIA_KNOWN_KEYS, voiceSchema } from "./media-config.js";
import { loopsSchema, scheduleSchema, schedulesSchema, SCHEDULE_ENTRY_KEYS } from "./schedule-schema.js";
import {
  BOOL,
  duration,
  EFFORTS,
  ENV_NAME,
  isHttpUrl,
  permissionModeSchema,
  PROJECT_NAME,
  quoted,
  STRING,
  tableError,
} from "./schema-parts.js";
import { webhookServerSchema, webhooksSchema, WEBHOOK_KEYS, WEBHOOK_SERVER_KEYS } from "./webhooks-schema.js";

export { CONFIG_PERMISSION_MODES, EFFORTS, PROJECT_NAME, type Effort } from "./schema-parts.js";

export const DEFAULT_API_ROOT = "https://api.telegram.org";

/** Where Claude's model calls go; decides which credentials reach the CLI (src/claude/env.ts). */
export const PROVIDERS = ["anthropic", "bedrock", "vertex"] as const satisfies readonly ClaudeProvider[];

/** The shape @BotFather hands out; also the pattern the log redacts. */
export const BOT_TOKEN_PATTERN = /^\d+:[A-Za-z0-9_-]{30,}$/;

export const TOKEN_EXPECTED = 'must look like "123456789:AA…" (the token @BotFather gave you)';
export const USER_IDS_EXPECTED = "must be a non-empty list of numeric user ids";

function stringList(itemError: string, item: z.ZodString = z.string({ error: itemError })) {
  return z.array(item, { error: "must be a list of strings" }).default([]);
}

function isUserIdList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((id) => typeof id === "number" && Number.isSafeInteger(id) && id > 0);
}

const telegramSchema = z
  .strictObject(
    {
      bot_token: z
        .string({ error: STRING })
        .refine((t) => t === "" || BOT_TOKEN_PATTERN.test(t), { error: TOKEN_EXPECTED })
        .default(""),
      allowed_user_ids: z.custom<number[]>(isUserIdList, { error: USER_IDS_EXPECTED }).default([]),
      api_root: z
        .string({ error: STRING })
        .refine(isHttpUrl, { error: 'must be an http(s) URL such as "https://api.telegram.org"' })
        .default(DEFAULT_API_ROOT),
      notify_unauthorised: z.boolean({ error: BOOL }).default(true),
    },
    tableError("telegram"),
  )
  .prefault({});

const claudeSchema = z
  .strictObject(
    {
      path: z
        .string({ error: STRING })
        .min(1, { error: 'must not be empty (use "claude" to find it on PATH)' })
        .default("claude"),
      permission_mode: permissionModeSchema().default("default"),
      model: z.string({ error: STRING }).default(""),
      effort: z
        .enum(["", ...EFFORTS], { error: `must be one of ${quoted(EFFORTS)}, or "" for the CLI's default` })
        .default(""),
      allowed_tools: stringList(STRING),
      // Checked against dangerously_allow_unsafe_args in config-checks.ts.
      extra_args: stringList(STRING),
      dangerously_allow_unsafe_args: stringList(
        STRING,
        z.string({ error: STRING }).refine((name) => unsafeArgNameProblem(name) === undefined, {
          error: (iss) => unsafeArgNameProblem(String(iss.input)),
        }),
      ),
      provider: z.enum(PROVIDERS, { error: `must be one of ${quoted(PROVIDERS)}` }).default("anthropic"),
      use_api_billing: z.boolean({ error: BOOL }).default(false),
      dangerously_skip_permissions: z.boolean({ error: BOOL }).default(false),
      env_allow: stringList(
        STRING,
        z
          .string({ error: STRING })
          .regex(ENV_NAME, { error: "must be an environment variable name" })
          .refine((name) => !Object.hasOwn(AUTH_ENV_KEYS, name), {
            error: (iss) =>
              `names ${String(iss.input)}, which decides how Claude logs in; set ${AUTH_ENV_KEYS[String(iss.input)]} instead`,
          }),
      ),
    },
    tableError("claude"),
  )
  .prefault({});

export const projectSchema = z.strictObject(
  {
    path: z.string({ error: 'must be a directory path such as "~/code/app"' }).min(1, { error: "must not be empty" }),
    default: z.boolean({ error: BOOL }).default(false),
  },
  { error: (iss) => (iss.code === "invalid_type" ? "must be a table with a path" : undefined) },
);

const projectsSchema = z
  .record(
    z.string().regex(PROJECT_NAME, {
      error: "is not a usable project name (letters, digits, - _ . and at most 32 characters)",
    }),
    projectSchema,
    {
      error: (iss) => (iss.code === "invalid_type" ? "must be a table of [projects.NAME] tables" : undefined),
    },
  )
  .prefault({});

const limitsSchema = z
  .strictObject(
    {
      idle_session_minutes: duration("minutes", 10_080, "a week").default(30),
      stall_note_minutes: duration("minutes", 1_440, "a day").default(10),
      hard_silence_minutes: duration("minutes", 10_080, "a week").default(120),
      approval_timeout_minutes: duration("minutes", 10_080, "a week").default(0),
      drain_seconds: duration("seconds", 3_600, "an hour").default(60),
      // Telegram keeps undelivered updates for 24 hours: an older message never arrives.
      offline_max_age_minutes: duration("minutes", 1_440, "a day").default(60),
      plan_rearm: z.boolean({ error: BOOL }).default(true),
      rearm_ceiling_minutes: duration("minutes", 1_440, "a day").default(30),
    },
    tableError("limits"),
  )
  .prefault({});

const stateSchema = z.strictObject({ dir: z.string({ error: STRING }).default("") }, tableError("state")).prefault({});

export const fileSchema = z.strictObject({
  telegram: telegramSchema,
  claude: claudeSchema,
  projects: projectsSchema,
  limits: limitsSchema,
  state: stateSchema,
  webhook_server: webhookServerSchema,
  webhooks: webhooksSchema,
  files: filesSchema,
  voice: voiceSchema,
  loops: loopsSchema,
  schedule: scheduleSchema,
  schedules: schedulesSchema,
});

export type FileConfig = z.output<typeof fileSchema>;

/** Each table's keys with their schemas, for checks that read one key of a table with problems. */
export const TABLE_FIELDS = {
  telegram: telegramSchema.unwrap().shape,
  claude: claudeSchema.unwrap().shape,
  limits: limitsSchema.unwrap().shape,
  state: stateSchema.unwrap().shape,
};

/** Every key the file may hold, by table; the candidates for "did you mean". */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  "": [
    "telegram",
    "claude",
    "projects",
    "limits",
    "state",
    "webhook_server",
    "webhooks",
    "files",
    "voice",
    "loops",
    "schedule",
    "schedules",
  ],
  telegram: Object.keys(telegramSchema.unwrap().shape),
  claude: Object.keys(claudeSchema.unwrap().shape),
  limits: Object.keys(limitsSchema.unwrap().shape),
  state: Object.keys(stateSchema.unwrap().shape),
  project: Object.keys(projectSchema.shape),
  webhook_server: WEBHOOK_SERVER_KEYS,
  webhook: WEBHOOK_KEYS,
  ...MEDIA_KNOWN_KEYS,
  loops: Object.keys(loopsSchema.unwrap().shape),
  schedule: Object.keys(scheduleSchema.unwrap().shape),
  schedule_entry: SCHEDULE_ENTRY_KEYS,
};

/** Tables whose entries are named or numbered ([projects.NAME], [[webhooks]], [[schedules]]): their keys' table in KNOWN_KEYS. */
export const ENTRY_TABLES: Readonly<Record<string, string>> = {
  projects: "project",
  webhooks: "webhook",
  schedules: "schedule_entry",
};
