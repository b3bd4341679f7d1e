// The webhook lines of `telecode doctor`: where the server listens, each webhook's URL and
// where its runs go, and warnings for an address other machines can reach and for secret
// variables that are not set in this environment.
import type { Config, Env } from "../config/index.js";
import { findMissingSecrets, formatListenAddress, isLoopbackHost, webhookUrl } from "../triggers/index.js";
import { ok, warn, type CheckResult } from "./doctor-result.js";

/** Nothing when no webhook is configured: the server does not start then. */
export function checkWebhooks(config: Config, env: Env): CheckResult[] {
  if (config.webhooks.length === 0) return [];
  const { listen } = config.webhookServer;
  const where = formatListenAddress(listen);
  const results = [
    isLoopbackHost(listen.host)
      ? ok("webhook server", `listens on ${where} (this machine only; a tunnel or proxy brings GitHub's deliveries in)`)
      : warn(
          "webhook server",
          `listens on ${where}, which other machines can reach (every webhook is authenticated)`,
          "listen on 127.0.0.1 behind a tunnel or an HTTPS reverse proxy, unless you mean to expose it",
        ),
  ];
  const missing = new Map(findMissingSecrets(config.webhooks, env).map((m) => [m.webhookId, m.variable]));
  for (const hook of config.webhooks) {
    const events = hook.events.length === 0 ? "" : `, events ${hook.events.join(", ")}`;
    const detail = `${webhookUrl(listen, hook.path)} (${hook.auth}${events}) → project ${hook.project}, chat ${hook.chatId}${hook.topic === null ? "" : `, topic ${hook.topic}`}`;
    const variable = missing.get(hook.id);
    results.push(
      variable === undefined
        ? ok(`webhook ${hook.id}`, detail)
        : warn(
            `webhook ${hook.id}`,
            `${detail}\n${variable} is not set here, and Telecode will not start without it`,
            `set ${variable} in the environment Telecode runs in (for a service, in its unit)`,
          ),
    );
  }
  return results;
}
