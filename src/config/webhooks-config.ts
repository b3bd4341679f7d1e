// Builds the validated [webhook_server] and [[webhooks]] config: defaults resolved (the default
// project, the first allowed user as chat), and the checks that span tables: duplicate ids and
// paths, unknown projects, and unauthenticated webhooks on an address other machines can reach.
import { closestName } from "../domain/index.js";
import {
  formatListenAddress,
  isLoopbackHost,
  parseListenAddress,
  type WebhookConfig,
  type WebhookServerConfig,
} from "../triggers/index.js";
import type { ProjectConfig } from "./config-types.js";
import type { FileWebhook, FileWebhookServer } from "./webhooks-schema.js";

export type WebhooksContext = {
  projects: readonly ProjectConfig[];
  defaultProject: ProjectConfig | null;
  allowedUserIds: readonly number[];
};

function buildServer(file: FileWebhookServer): WebhookServerConfig {
  // The schema accepted the address, so it parses.
  const listen = parseListenAddress(file.listen) ?? { host: "127.0.0.1", port: 8765 };
  return Object.freeze({
    listen,
    maxBodyBytes: file.max_body_bytes,
    requestsPerMinute: file.requests_per_minute,
    requestsPerMinutePerWebhook: file.requests_per_minute_per_webhook,
  });
}

function projectOf(hook: FileWebhook, key: string, context: WebhooksContext, problems: string[]): string {
  if (hook.project === undefined) {
    if (context.defaultProject === null)
      problems.push(`${key}.project must be set: there is no [projects.NAME] table to default to`);
    return context.defaultProject?.name ?? "";
  }
  const names = context.projects.map((p) => p.name);
  if (!names.includes(hook.project)) {
    const hint = closestName(hook.project, names);
    problems.push(
      `${key}.project ${JSON.stringify(hook.project)} is not a [projects.NAME] table${hint === undefined ? "" : `; did you mean ${JSON.stringify(hint)}?`}`,
    );
  }
  return hook.project;
}

function chatOf(hook: FileWebhook, key: string, context: WebhooksContext, problems: string[]): number {
  const chatId = hook.chat_id ?? context.allowedUserIds[0];
  if (chatId === undefined)
    problems.push(`${key}.chat_id must be set: telegram.allowed_user_ids is empty, so there is no one to default to`);
  return chatId ?? 0;
}

function checkUnique(hooks: readonly FileWebhook[], field: "id" | "path", problems: string[]): void {
  const first = new Map<string, number>();
  hooks.forEach((hook, index) => {
    const earlier = first.get(hook[field]);
    if (earlier === undefined) first.set(hook[field], index);
    else
      problems.push(
        `webhooks[${index}].${field} ${JSON.stringify(hook[field])} is already the ${field} of webhooks[${earlier}]; each webhook needs its own`,
      );
  });
}

/** Builds both tables, appending every problem (each starting with its key path) to `problems`. */
export function buildWebhooks(
  file: { webhook_server: FileWebhookServer; webhooks: readonly FileWebhook[] },
  context: WebhooksContext,
  problems: string[],
): { webhookServer: WebhookServerConfig; webhooks: readonly WebhookConfig[] } {
  const webhookServer = buildServer(file.webhook_server);
  checkUnique(file.webhooks, "id", problems);
  checkUnique(file.webhooks, "path", problems);
  const isPublic = !isLoopbackHost(webhookServer.listen.host);
  const webhooks = file.webhooks.map((hook, index): WebhookConfig => {
    const key = `webhooks[${index}]`;
    if (isPublic && hook.auth === "none")
      problems.push(
        `${key}.auth must not be "none" while webhook_server.listen (${formatListenAddress(webhookServer.listen)}) is reachable from other machines; use "hmac-sha256" or "bearer", or listen on 127.0.0.1`,
      );
    const events = hook.event === undefined ? [] : typeof hook.event === "string" ? [hook.event] : hook.event;
    return Object.freeze({
      id: hook.id,
      path: hook.path,
      auth: hook.auth,
      secretEnv: hook.secret_env ?? null,
      events: Object.freeze([...events]),
      prompt: hook.prompt,
      project: projectOf(hook, key, context, problems),
      chatId: chatOf(hook, key, context, problems),
      topic: hook.topic ?? null,
      overrides: Object.freeze({
        permissionMode: hook.permission_mode ?? null,
        model: hook.model === undefined || hook.model === "" ? null : hook.model,
        effort: hook.effort ?? null,
        maxCostUsdPerRun: hook.max_cost_usd_per_run ?? null,
        maxCostUsdPerDay: hook.max_cost_usd_per_day ?? null,
      }),
    });
  });
  return { webhookServer, webhooks: Object.freeze(webhooks) };
}
