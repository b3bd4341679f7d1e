// The webhook routes on Hono: one POST route per configured path. A request passes small steps
// in order (overall rate, content type, body cap, auth, event filter, replay, the webhook's own
// rate, payload) and is then handed on as a trigger. Refusals carry a status and no body.
import { getConnInfo } from "@hono/node-server/conninfo";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Logger } from "../ports/index.js";
import { TriggerError } from "./errors.js";
import { decodePayload, isAcceptedContentType } from "./payload.js";
import { parsePromptTemplate, renderWebhookPrompt, webhookSummary, type PromptTemplate } from "./prompt-template.js";
import { createRateLimiter, type RateLimiter } from "./rate-limiter.js";
import type { ReplayGuard } from "./replay-guard.js";
import { isBearerValid, isSignatureValid } from "./webhook-auth.js";
import type { WebhookConfig, WebhookServerConfig, WebhookTrigger } from "./webhook-types.js";

export type WebhookAppOptions = {
  server: WebhookServerConfig;
  webhooks: readonly WebhookConfig[];
  /** By webhook id, for every webhook whose auth is not "none". */
  secrets: ReadonlyMap<string, Buffer>;
  replay: ReplayGuard;
  now: () => number;
  logger: Logger;
  /** Called for each accepted delivery; must not block (the response waits for it). */
  handOff: (trigger: WebhookTrigger) => void;
};

/** GitHub's ids are UUIDs; anything outside this is refused rather than stored. */
const DELIVERY_ID = /^[A-Za-z0-9._:-]{1,128}$/;

type Refusal = 400 | 401 | 413 | 415 | 429;

function remoteOf(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

function templateOf(hook: WebhookConfig): PromptTemplate {
  const parsed = parsePromptTemplate(hook.prompt);
  // The config checks templates at load; one that slipped past must not start runs.
  if (!parsed.ok) {
    throw new TriggerError(
      "triggers.invalid_config",
      `The prompt of webhook ${hook.id} ${parsed.problem}. Fix it in the config and start again.`,
      { details: { webhookId: hook.id } },
    );
  }
  return parsed.template;
}

/** Builds the app; nothing listens until the server passes `app.fetch` to a Node server. */
export function createWebhookApp(options: WebhookAppOptions): Hono {
  const { logger, now, replay } = options;
  const overall = createRateLimiter(options.server.requestsPerMinute);
  const app = new Hono();

  const refuse = (
    c: Context,
    hook: WebhookConfig,
    status: Refusal,
    reason: string,
    headers?: Record<string, string>,
  ) => {
    logger.event("webhook.refused", { webhookId: hook.id, status, reason, remote: remoteOf(c) }, "warn");
    return c.body(null, status, headers);
  };
  const ignore = (c: Context, hook: WebhookConfig, reason: string, fields: Record<string, unknown>) => {
    logger.event("webhook.ignored", { webhookId: hook.id, reason, ...fields });
    return c.body(null, 200);
  };
  const rateLimited = (c: Context, hook: WebhookConfig, limiter: RateLimiter, reason: string) => {
    const decision = limiter.take(now());
    if (decision.ok) return null;
    return refuse(c, hook, 429, reason, { "Retry-After": String(decision.retryAfterSeconds) });
  };

  for (const hook of options.webhooks) {
    const template = templateOf(hook);
    const ownLimit = createRateLimiter(options.server.requestsPerMinutePerWebhook);
    const secret = options.secrets.get(hook.id);

    const limitOverall: MiddlewareHandler = async (c, next) =>
      rateLimited(c, hook, overall, "rate_overall") ?? (await next());
    const checkContentType: MiddlewareHandler = async (c, next) =>
      isAcceptedContentType(c.req.header("content-type")) ? await next() : refuse(c, hook, 415, "content_type");
    const capBody = bodyLimit({
      maxSize: options.server.maxBodyBytes,
      onError: (c) => refuse(c, hook, 413, "body_too_large"),
    });
    const isAuthentic = (c: Context, body: Uint8Array): boolean => {
      if (hook.auth === "none") return true;
      if (secret === undefined) return false;
      return hook.auth === "hmac-sha256"
        ? isSignatureValid(secret, body, c.req.header("x-hub-signature-256"))
        : isBearerValid(secret, c.req.header("authorization"));
    };

    app.post(hook.path, limitOverall, checkContentType, capBody, async (c) => {
      const body = new Uint8Array(await c.req.arrayBuffer());
      // From here to the hand-off nothing awaits, so two copies of one delivery cannot both pass.
      if (!isAuthentic(c, body)) return refuse(c, hook, 401, "auth");
      const event = c.req.header("x-github-event") ?? null;
      if (event === "ping") return ignore(c, hook, "ping", { event });
      if (hook.events.length > 0 && (event === null || !hook.events.includes(event)))
        return ignore(c, hook, "event", { event });
      const deliveryId = c.req.header("x-github-delivery") ?? c.req.header("idempotency-key") ?? null;
      if (deliveryId !== null && !DELIVERY_ID.test(deliveryId)) return refuse(c, hook, 400, "delivery_id");
      if (deliveryId !== null && replay.hasSeen(hook.id, deliveryId))
        return ignore(c, hook, "duplicate", { deliveryId });
      const limited = rateLimited(c, hook, ownLimit, "rate_webhook");
      if (limited !== null) return limited;
      const decoded = decodePayload(body, c.req.header("content-type"));
      if (!decoded.ok) return refuse(c, hook, decoded.status, decoded.status === 415 ? "content_type" : "payload");
      const prompt = renderWebhookPrompt(template, decoded.payload, hook.id);
      // Recorded only now, when nothing can stop the hand-off: a refused delivery may come again.
      const receivedAtMs = now();
      if (deliveryId !== null) replay.record(hook.id, deliveryId, receivedAtMs);
      logger.event("webhook.accepted", { webhookId: hook.id, deliveryId, event, bytes: body.length });
      options.handOff({
        webhookId: hook.id,
        deliveryId,
        event,
        prompt,
        summary: webhookSummary(template, decoded.payload),
        project: hook.project,
        chatId: hook.chatId,
        overrides: hook.overrides,
        receivedAtMs,
      });
      return c.body(null, 202);
    });
  }

  app.notFound((c) => {
    logger.event("webhook.not_found", { method: c.req.method, path: c.req.path, remote: remoteOf(c) }, "debug");
    return c.body(null, 404);
  });
  app.onError((err, c) => {
    // A sender that hangs up mid-body lands here too; it gets no answer it could read anyway.
    logger.event("webhook.failed", { path: c.req.path, err }, "warn");
    return c.body(null, 500);
  });
  return app;
}
