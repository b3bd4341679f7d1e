// The webhook server's lifecycle: started only when webhooks exist, it reads their secrets,
// binds [webhook_server] listen through @hono/node-server and, on stop, closes the socket and
// waits for hand-offs still in progress. Hands each accepted delivery on in the background.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Logger } from "../ports/index.js";
import { TriggerError } from "./errors.js";
import { formatListenAddress, webhookUrl, type ListenAddress } from "./listen-address.js";
import { createReplayGuard } from "./replay-guard.js";
import { readWebhookSecrets } from "./webhook-auth.js";
import type {
  DeliveryIdStore,
  TriggerHandler,
  WebhookConfig,
  WebhookServerConfig,
  WebhookTrigger,
} from "./webhook-types.js";

export type StartWebhookServerOptions = {
  server: WebhookServerConfig;
  webhooks: readonly WebhookConfig[];
  /** Where each webhook's `secret_env` is read. */
  env: Readonly<Record<string, string | undefined>>;
  onTrigger: TriggerHandler;
  logger: Logger;
  /** Delivery ids that outlive a restart; without it they are kept in memory only. */
  deliveries?: DeliveryIdStore;
  /** Epoch milliseconds, for rate limits and receipt times; default Date.now. */
  now?: () => number;
};

export type WebhookServer = {
  /** Where it listens (the real port when the config asked for port 0). */
  readonly address: ListenAddress;
  /** Each webhook's URL on this machine, by webhook id. */
  readonly urls: ReadonlyMap<string, string>;
  /** Stops accepting, lets requests in progress finish, then waits for hand-offs in progress. */
  stop(): Promise<void>;
};

/** Slow senders are cut off; GitHub itself gives up after 10 seconds. */
const REQUEST_TIMEOUT_MS = 30_000;
const HEADERS_TIMEOUT_MS = 15_000;

/** Why listening failed, in words rather than an errno code where it is a common one, and what to do. */
function whyNotListening(cause: NodeJS.ErrnoException): { why: string; fix: string } {
  const elsewhere = "set webhook_server.listen to another";
  switch (cause.code) {
    case "EADDRINUSE":
      return {
        why: "another program uses that address (EADDRINUSE)",
        fix: `stop what uses that address, or ${elsewhere}`,
      };
    case "EACCES":
      return {
        why: "Telecode may not use that port (EACCES; ports below 1024 need privileges)",
        fix: "set webhook_server.listen to a port of 1024 or above",
      };
    case "EADDRNOTAVAIL":
      return { why: "this computer has no such address (EADDRNOTAVAIL)", fix: `${elsewhere}, such as 127.0.0.1` };
    default:
      return { why: cause.code ?? cause.message, fix: `check that nothing else uses that address, or ${elsewhere}` };
  }
}

function listen(http: Server, address: ListenAddress): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (cause: NodeJS.ErrnoException): void => {
      const where = formatListenAddress(address);
      const { why, fix } = whyNotListening(cause);
      reject(
        new TriggerError(
          "triggers.listen_failed",
          `Telecode could not listen for webhooks on ${where}: ${why}. On the computer running Telecode, ${fix}.`,
          { cause, details: { listen: where } },
        ),
      );
    };
    http.once("error", onError);
    http.listen(address.port, address.host, () => {
      http.off("error", onError);
      resolve((http.address() as AddressInfo).port);
    });
  });
}

/**
 * Starts the webhook server, or returns null without binding anything when no webhook is
 * configured. Throws TriggerError `triggers.secret_missing` (naming every unset variable),
 * `triggers.listen_failed` (address in use, not allowed), `triggers.invalid_config`.
 */
export async function startWebhookServer(options: StartWebhookServerOptions): Promise<WebhookServer | null> {
  const { webhooks, logger } = options;
  if (webhooks.length === 0) return null;
  // Hono is loaded only when webhooks exist: every command that reads the config starts without it.
  const [{ createAdaptorServer }, { createWebhookApp }] = await Promise.all([
    import("@hono/node-server"),
    import("./webhook-app.js"),
  ]);
  const now = options.now ?? Date.now;
  const secrets = readWebhookSecrets(webhooks, options.env);
  for (const secret of secrets.values()) logger.addSecret(secret.toString("utf8"));

  const replay = createReplayGuard({ webhookIds: webhooks.map((h) => h.id), store: options.deliveries });
  const inFlight = new Set<Promise<void>>();
  const handOff = (trigger: WebhookTrigger): void => {
    const done = Promise.resolve()
      .then(() => options.onTrigger(trigger))
      .catch((err: unknown) => {
        const { webhookId, deliveryId } = trigger;
        logger.event("webhook.handler_failed", { webhookId, deliveryId, err }, "error");
        // Not run: the sender's redelivery (the same id) is run, not taken for a replay.
        if (deliveryId === null) return;
        try {
          replay.forget(webhookId, deliveryId);
        } catch (error) {
          logger.event("webhook.forget_failed", { webhookId, deliveryId, err: error }, "error");
        }
      });
    inFlight.add(done);
    void done.then(() => inFlight.delete(done));
  };

  const app = createWebhookApp({
    server: options.server,
    webhooks,
    secrets,
    replay,
    now,
    logger,
    handOff,
  });
  const http = createAdaptorServer({
    fetch: app.fetch,
    // Leave the process's global Request/Response alone: grammY and the engine share them.
    overrideGlobalObjects: false,
    serverOptions: { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: HEADERS_TIMEOUT_MS },
  }) as Server;
  const port = await listen(http, options.server.listen);
  const address: ListenAddress = Object.freeze({ host: options.server.listen.host, port });
  const urls = new Map(webhooks.map((hook) => [hook.id, webhookUrl(address, hook.path)]));
  logger.event("webhook.listening", { listen: formatListenAddress(address), webhooks: [...urls.keys()] });

  let stopped: Promise<void> | undefined;
  return {
    address,
    urls,
    stop() {
      stopped ??= (async () => {
        await new Promise<void>((resolve) => {
          http.close(() => resolve());
          http.closeIdleConnections();
        });
        await Promise.all(inFlight);
        logger.event("webhook.stopped", { listen: formatListenAddress(address) });
      })();
      return stopped;
    },
  };
}
