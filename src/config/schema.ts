// The config file's schema (DESIGN.md §9 plus the limits Telecode added), in the file's own
// snake_case names, with every default. Messages complete "<key path> …" for a person to read.
import * as z from "zod/mini";
import { AUTH_ENV_KEYS, unsafeArgNameProblem, type ClaudeProvider } from "../claude/index.js";
import { filesSchema, MEDIA_KNOWN_KEYS, voiceSchema } from "./media-config.js";
import {
  LOOPS_KEYS,
  loopsSchema,
  SCHEDULE_ENTRY_KEYS,
  SCHEDULE_KEYS,
  scheduleSchema,
  schedulesSchema,
} from "./schedule-schema.js";
import {
  BOOL,
  dollars,
  duration,
  wholeNumberIn,
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

/** Who may answer a run's approvals and questions in a group: any allowed user, or only who asked for the run. */
export const GROUP_APPROVALS = ["anyone", "requester"] as const;
export const GROUP_SESSIONS = ["shared", "per_person"] as const;

/** Where Claude's model calls go; decides which credentials reach the CLI (src/claude/env.ts). */
export const PROVIDERS = ["anthropic", "bedrock", "vertex"] as const satisfies readonly ClaudeProvider[];

/** The shape @BotFather hands out; also the pattern the log redacts. */
export const BOT_TOKEN_PATTERN = /^\d+:[A-Za-z0-9_-]{30,}$/;

export const TOKEN_EXPECTED = 'must look like "123456789:AA…" (the token @BotFather gave you)';
export const USER_IDS_EXPECTED = "must be a non-empty list of numeric user ids";

function stringList(itemError: string, item: z.ZodMiniType<string> = z.string({ error: itemError })) {
  return z._default(z.array(item, { error: "must be a list of strings" }), []);
}

function isUserIdList(value: unknown): value is number[] {
  return Array.isArray(value) && value.every((id) => typeof id === "number" && Number.isSafeInteger(id) && id > 0);
}

const telegramTable = z.strictObject(
  {
    bot_token: z._default(
      z
        .string({ error: STRING })
        .check(z.refine((t) => t === "" || BOT_TOKEN_PATTERN.test(t), { error: TOKEN_EXPECTED })),
      "",
    ),
    allowed_user_ids: z._default(z.custom<number[]>(isUserIdList, { error: USER_IDS_EXPECTED }), []),
    api_root: z._default(
      z
        .string({ error: STRING })
        .check(z.refine(isHttpUrl, { error: 'must be an http(s) URL such as "https://api.telegram.org"' })),
      DEFAULT_API_ROOT,
    ),
    notify_unauthorised: z._default(z.boolean({ error: BOOL }), true),
    group_approvals: z._default(
      z.enum(GROUP_APPROVALS, { error: `must be one of ${quoted(GROUP_APPROVALS)}` }),
      "anyone",
    ),
    group_sessions: z._default(z.enum(GROUP_SESSIONS, { error: `must be one of ${quoted(GROUP_SESSIONS)}` }), "shared"),
  },
  tableError("telegram"),
);

const claudeTable = z.strictObject(
  {
    path: z._default(
      z
        .string({ error: STRING })
        .check(z.minLength(1, { error: 'must not be empty (use "claude" to find it on PATH)' })),
      "claude",
    ),
    permission_mode: z._default(permissionModeSchema(), "default"),
    model: z._default(z.string({ error: STRING }), ""),
    effort: z._default(
      z.enum(["", ...EFFORTS], { error: `must be one of ${quoted(EFFORTS)}, or "" for the CLI's default` }),
      "",
    ),
    allowed_tools: stringList(STRING),
    // Checked against dangerously_allow_unsafe_args in config-checks.ts.
    extra_args: stringList(STRING),
    dangerously_allow_unsafe_args: stringList(
      STRING,
      z.string({ error: STRING }).check(
        z.refine((name) => unsafeArgNameProblem(name) === undefined, {
          error: (iss) => unsafeArgNameProblem(String(iss.input)),
        }),
      ),
    ),
    provider: z._default(z.enum(PROVIDERS, { error: `must be one of ${quoted(PROVIDERS)}` }), "anthropic"),
    use_api_billing: z._default(z.boolean({ error: BOOL }), false),
    dangerously_skip_permissions: z._default(z.boolean({ error: BOOL }), false),
    prompt_suggestions: z._default(z.boolean({ error: BOOL }), true),
    env_allow: stringList(
      STRING,
      z.string({ error: STRING }).check(
        z.regex(ENV_NAME, { error: "must be an environment variable name" }),
        z.refine((name) => !Object.hasOwn(AUTH_ENV_KEYS, name), {
          error: (iss) =>
            `names ${String(iss.input)}, which decides how Claude logs in; set ${AUTH_ENV_KEYS[String(iss.input)]} instead`,
        }),
      ),
    ),
  },
  tableError("claude"),
);

export const projectSchema = z.strictObject(
  {
    path: z
      .string({ error: 'must be a directory path such as "~/code/app"' })
      .check(z.minLength(1, { error: "must not be empty" })),
    default: z._default(z.boolean({ error: BOOL }), false),
    worktrees_dir: z._default(z.string({ error: 'must be a directory path such as "~/code/app-worktrees"' }), ""),
    worktree_base: z._default(
      z
        .string({ error: STRING })
        .check(z.refine((ref) => !ref.startsWith("-"), { error: "must be a branch, tag or commit, not an option" })),
      "",
    ),
  },
  { error: (iss) => (iss.code === "invalid_type" ? "must be a table with a path" : undefined) },
);

const projectsSchema = z.prefault(
  z.record(
    z.string().check(
      z.regex(PROJECT_NAME, {
        error: "is not a usable project name (letters, digits, - _ . and at most 32 characters)",
      }),
    ),
    projectSchema,
    {
      error: (iss) => (iss.code === "invalid_type" ? "must be a table of [projects.NAME] tables" : undefined),
    },
  ),
  {},
);

const limitsTable = z.strictObject(
  {
    idle_session_minutes: z._default(duration("minutes", 10_080, "a week"), 30),
    stall_note_minutes: z._default(duration("minutes", 1_440, "a day"), 10),
    hard_silence_minutes: z._default(duration("minutes", 10_080, "a week"), 120),
    approval_timeout_minutes: z._default(duration("minutes", 10_080, "a week"), 0),
    drain_seconds: z._default(duration("seconds", 3_600, "an hour"), 60),
    // Telegram keeps undelivered updates for 24 hours: an older message never arrives.
    offline_max_age_minutes: z._default(duration("minutes", 1_440, "a day"), 60),
    plan_rearm: z._default(z.boolean({ error: BOOL }), true),
    rearm_ceiling_minutes: z._default(duration("minutes", 1_440, "a day"), 30),
  },
  tableError("limits"),
);

const budgetTable = z.strictObject(
  {
    per_run_usd: z.optional(dollars()),
    per_chat_usd: z.optional(dollars()),
    per_day_usd: z.optional(dollars()),
    warn_percent: z._default(wholeNumberIn("percent", 0, 99), 80),
  },
  tableError("budget"),
);

const stateTable = z.strictObject({ dir: z._default(z.string({ error: STRING }), "") }, tableError("state"));

export const fileSchema = z.strictObject({
  telegram: z.prefault(telegramTable, {}),
  claude: z.prefault(claudeTable, {}),
  projects: projectsSchema,
  limits: z.prefault(limitsTable, {}),
  budget: z.prefault(budgetTable, {}),
  state: z.prefault(stateTable, {}),
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
  telegram: telegramTable.shape,
  claude: claudeTable.shape,
  limits: limitsTable.shape,
  budget: budgetTable.shape,
  state: stateTable.shape,
};

/** Every key the file may hold, by table; the candidates for "did you mean". */
export const KNOWN_KEYS: Readonly<Record<string, readonly string[]>> = {
  "": [
    "telegram",
    "claude",
    "projects",
    "limits",
    "budget",
    "state",
    "webhook_server",
    "webhooks",
    "files",
    "voice",
    "loops",
    "schedule",
    "schedules",
  ],
  telegram: Object.keys(telegramTable.shape),
  claude: Object.keys(claudeTable.shape),
  limits: Object.keys(limitsTable.shape),
  budget: Object.keys(budgetTable.shape),
  state: Object.keys(stateTable.shape),
  project: Object.keys(projectSchema.shape),
  webhook_server: WEBHOOK_SERVER_KEYS,
  webhook: WEBHOOK_KEYS,
  ...MEDIA_KNOWN_KEYS,
  loops: LOOPS_KEYS,
  schedule: SCHEDULE_KEYS,
  schedule_entry: SCHEDULE_ENTRY_KEYS,
};

/** Tables whose entries are named or numbered ([projects.NAME], [[webhooks]], [[schedules]]): their keys' table in KNOWN_KEYS. */
export const ENTRY_TABLES: Readonly<Record<string, string>> = {
  projects: "project",
  webhooks: "webhook",
  schedules: "schedule_entry",
};
