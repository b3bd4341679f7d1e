// The schema of [webhook_server] and [[webhooks]] (issue 10 §3), in the file's snake_case
// names with their defaults. Checks that need other tables (projects, users, the listen
// address) are in webhooks-config.ts.
import * as z from "zod/mini";
import { DEFAULT_LISTEN, parseListenAddress, parsePromptTemplate, WEBHOOK_AUTHS } from "../triggers/index.js";
import {
  dollars,
  EFFORTS,
  ENV_NAME,
  permissionModeSchema,
  quoted,
  STRING,
  tableError,
  topicId,
} from "./schema-parts.js";

export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
const WEBHOOK_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
/** Literal paths only: no Hono route syntax (":param", "*"), no "." or ".." segments, no "//". */
const WEBHOOK_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+$/;

function count(unit: string, max: number) {
  const error = `must be a whole number of ${unit} from 1 to ${max}`;
  return z.int({ error }).check(z.minimum(1, { error }), z.maximum(max, { error }));
}

const usd = () => z.optional(dollars());

function isEventFilter(value: unknown): value is string | string[] {
  const isName = (v: unknown): boolean => typeof v === "string" && /^[a-z0-9_.-]+$/i.test(v);
  return isName(value) || (Array.isArray(value) && value.length > 0 && value.every(isName));
}

const webhookServerTable = z.strictObject(
  {
    listen: z._default(
      z.string({ error: STRING }).check(
        z.refine((text) => parseListenAddress(text) !== null, {
          error: `must be "host:port" with an IP address or localhost, such as "${DEFAULT_LISTEN}"`,
        }),
      ),
      DEFAULT_LISTEN,
    ),
    max_body_bytes: z._default(count("bytes", 100 * 1_048_576), DEFAULT_MAX_BODY_BYTES),
    requests_per_minute: z._default(count("requests", 10_000), 60),
    requests_per_minute_per_webhook: z._default(count("requests", 10_000), 20),
  },
  tableError("webhook_server"),
);
export const webhookServerSchema = z.prefault(webhookServerTable, {});

const webhookSchema = z
  .strictObject(
    {
      id: z.string({ error: STRING }).check(
        z.regex(WEBHOOK_ID, {
          error: "must be a name of letters, digits, - _ and . (at most 64 characters)",
        }),
      ),
      path: z.string({ error: STRING }).check(
        z.regex(WEBHOOK_PATH, {
          error: 'must be a URL path such as "/hooks/github" (letters, digits, - _ . ~ between slashes)',
        }),
      ),
      auth: z.enum(WEBHOOK_AUTHS, { error: `must be one of ${quoted(WEBHOOK_AUTHS)}` }),
      secret_env: z.optional(
        z.string({ error: STRING }).check(z.regex(ENV_NAME, { error: "must be an environment variable name" })),
      ),
      event: z.optional(
        z.custom<string | string[]>(isEventFilter, {
          error: 'must be an event name such as "push", or a list of them',
        }),
      ),
      prompt: z.string({ error: STRING }).check(
        z.minLength(1, { error: "must not be empty" }),
        z.superRefine((text, ctx) => {
          const parsed = parsePromptTemplate(text);
          if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.problem });
        }),
      ),
      project: z.optional(z.string({ error: STRING })),
      chat_id: z.optional(
        z.custom<number>((v) => typeof v === "number" && Number.isSafeInteger(v) && v !== 0, {
          error: "must be a numeric Telegram chat id",
        }),
      ),
      topic: z.optional(topicId()),
      permission_mode: z.optional(permissionModeSchema()),
      model: z.optional(z.string({ error: STRING })),
      effort: z.optional(z.enum(EFFORTS, { error: `must be one of ${quoted(EFFORTS)}` })),
      max_cost_usd_per_run: usd(),
      max_cost_usd_per_day: usd(),
    },
    { error: (iss) => (iss.code === "invalid_type" ? "must be a table ([[webhooks]])" : undefined) },
  )
  .check(
    z.superRefine((hook, ctx) => {
      if (hook.auth !== "none" && hook.secret_env === undefined)
        ctx.addIssue({
          code: "custom",
          path: ["secret_env"],
          message: `must be set with auth = "${hook.auth}": the name of the environment variable holding the secret`,
        });
      if (hook.auth === "none" && hook.secret_env !== undefined)
        ctx.addIssue({
          code: "custom",
          path: ["secret_env"],
          message: 'is only read with auth = "hmac-sha256" or "bearer"; remove it or choose one of those',
        });
    }),
  );

export const webhooksSchema = z._default(
  z.array(webhookSchema, { error: "must be a list of [[webhooks]] tables" }),
  [],
);

export const WEBHOOK_SERVER_KEYS: readonly string[] = Object.keys(webhookServerTable.shape);
export const WEBHOOK_KEYS: readonly string[] = Object.keys(webhookSchema.shape);

export type FileWebhookServer = z.output<typeof webhookServerSchema>;
export type FileWebhook = z.output<typeof webhookSchema>;
