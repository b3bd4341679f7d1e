// Who may trigger a webhook: secrets read from the environment variables the config names,
// GitHub's X-Hub-Signature-256 and bearer tokens, both compared in constant time.
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { TriggerError } from "./errors.js";
import type { WebhookConfig } from "./webhook-types.js";

type Env = Readonly<Record<string, string | undefined>>;

export type MissingSecret = Readonly<{ webhookId: string; variable: string }>;

/** Webhooks whose secret variable is unset or empty in `env`. */
export function findMissingSecrets(webhooks: readonly WebhookConfig[], env: Env): MissingSecret[] {
  return webhooks
    .filter((hook) => hook.secretEnv !== null && (env[hook.secretEnv] ?? "") === "")
    .map((hook) => ({ webhookId: hook.id, variable: hook.secretEnv ?? "" }));
}

/**
 * Each authenticated webhook's secret, by webhook id. Throws TriggerError
 * `triggers.secret_missing` naming every variable that is unset or empty.
 */
export function readWebhookSecrets(webhooks: readonly WebhookConfig[], env: Env): ReadonlyMap<string, Buffer> {
  const missing = findMissingSecrets(webhooks, env);
  if (missing.length > 0) {
    const names = [...new Set(missing.map((m) => m.variable))];
    const which = missing.map((m) => `${m.variable} (webhook ${m.webhookId})`).join(", ");
    throw new TriggerError(
      "triggers.secret_missing",
      `The webhook secret ${names.length === 1 ? "variable is" : "variables are"} not set: ${which}. Set ${names.length === 1 ? "it" : "them"} in the environment Telecode runs in (for a service, in its unit), or change webhooks.secret_env.`,
      { details: { variables: names } },
    );
  }
  const secrets = new Map<string, Buffer>();
  for (const hook of webhooks)
    if (hook.secretEnv !== null) secrets.set(hook.id, Buffer.from(env[hook.secretEnv] ?? "", "utf8"));
  return secrets;
}

const SIGNATURE = /^sha256=([0-9a-f]{64})$/i;

/** GitHub's `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`, checked in constant time. */
export function isSignatureValid(secret: Buffer, body: Uint8Array, header: string | undefined): boolean {
  const match = SIGNATURE.exec(header?.trim() ?? "");
  if (match === null) return false;
  const given = Buffer.from(match[1] ?? "", "hex");
  const expected = createHmac("sha256", secret).update(body).digest();
  return timingSafeEqual(given, expected);
}

/** `Authorization: Bearer <secret>`; the digests are compared so the length leaks nothing either. */
export function isBearerValid(secret: Buffer, header: string | undefined): boolean {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  if (match === null) return false;
  const digest = (value: Buffer): Buffer => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(Buffer.from(match[1] ?? "", "utf8")), digest(secret));
}
