// What the webhook server is given (the validated [webhook_server] and [[webhooks]] config),
// what it hands on (a trigger), and the port it remembers delivery ids through. Types only.
import type { PermissionMode } from "../domain/index.js";
import type { ListenAddress } from "./listen-address.js";

export const WEBHOOK_AUTHS = ["hmac-sha256", "bearer", "none"] as const;

/** hmac-sha256: GitHub's X-Hub-Signature-256 over the raw body; bearer: Authorization: Bearer; none: loopback only. */
export type WebhookAuth = (typeof WEBHOOK_AUTHS)[number];

/** How a webhook's runs differ from the chat's settings; null keeps the chat's (or config's) value. */
export type RunOverrides = Readonly<{
  permissionMode: PermissionMode | null;
  model: string | null;
  /** Checked against the config's effort levels at load. */
  effort: string | null;
  /** A run that costs more is to be cancelled; null: no cap. */
  maxCostUsdPerRun: number | null;
  /** Once the webhook's runs cost this much in a day, later deliveries start nothing; null: no cap. */
  maxCostUsdPerDay: number | null;
}>;

export type WebhookConfig = Readonly<{
  id: string;
  /** Starts with "/"; matched exactly. */
  path: string;
  auth: WebhookAuth;
  /** The environment variable holding the secret; null only with auth "none". */
  secretEnv: string | null;
  /** X-GitHub-Event values that start a run; empty: every event (except GitHub's "ping"). */
  events: readonly string[];
  /** The prompt template, checked at load (see prompt-template.ts). */
  prompt: string;
  /** A [projects.NAME] name, checked at load. */
  project: string;
  chatId: number;
  /** A forum topic of `chatId` (its thread id), or null; the app makes `chatId` the topic's own. */
  topic: number | null;
  overrides: RunOverrides;
}>;

export type WebhookServerConfig = Readonly<{
  listen: ListenAddress;
  /** Larger bodies are refused with 413 while they are being read. */
  maxBodyBytes: number;
  /** Requests to any webhook path, authenticated or not. */
  requestsPerMinute: number;
  /** Authenticated deliveries to one webhook. */
  requestsPerMinutePerWebhook: number;
}>;

/** One authenticated, accepted delivery: what the composition root turns into an unattended run. */
export type WebhookTrigger = Readonly<{
  webhookId: string;
  /** X-GitHub-Delivery or Idempotency-Key; null when the sender gave none. */
  deliveryId: string | null;
  /** X-GitHub-Event; null when the sender gave none. */
  event: string | null;
  /** The webhook's template with the payload's fields in an "untrusted external input" block. */
  prompt: string;
  /** What it asks, for the chat: the template's first line with the values in place (see webhookSummary). */
  summary?: string;
  project: string;
  chatId: number;
  overrides: RunOverrides;
  receivedAtMs: number;
}>;

/**
 * Called once per accepted delivery, after the 202 has been sent. It should return once the
 * run is queued, not when it ends: stopping the server waits for calls still in progress.
 * It throws (or rejects) only when the delivery was not run: that is logged
 * (`webhook.handler_failed`) and its id forgotten, so the sender's redelivery is run.
 */
export type TriggerHandler = (trigger: WebhookTrigger) => void | Promise<void>;

/** Where delivery ids outlive a restart (SQLite in production). Calls are synchronous. */
export type DeliveryIdStore = {
  /** Up to `limit` ids recorded for `webhookId`, newest first. */
  recent(webhookId: string, limit: number): readonly string[];
  /** Records an accepted delivery and forgets that webhook's oldest beyond the newest `keep`. */
  add(webhookId: string, deliveryId: string, receivedAtMs: number, keep: number): void;
  /** Forgets one delivery (it was not run): the same id is accepted again. */
  remove(webhookId: string, deliveryId: string): void;
};
