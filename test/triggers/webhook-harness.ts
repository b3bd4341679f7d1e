// A real webhook server on 127.0.0.1 (port 0), with a controllable clock, a log file to read
// back, and the triggers it hands on collected in order. Stopped after each test.
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach } from "vitest";
import { createLogger, type ClosableLogger } from "../../src/log/index.js";
import {
  startWebhookServer,
  type DeliveryIdStore,
  type WebhookConfig,
  type WebhookServer,
  type WebhookServerConfig,
  type WebhookTrigger,
} from "../../src/triggers/index.js";
import { useTempDirs } from "../support/temp-dirs.js";

export const SECRET = "It's a Secret to Everybody";

export function webhook(fields: Partial<WebhookConfig> & Pick<WebhookConfig, "id" | "path">): WebhookConfig {
  return {
    auth: "hmac-sha256",
    secretEnv: "HOOK_SECRET",
    events: [],
    prompt: "Review the push to {{ref}} by {{pusher.name}}",
    project: "app",
    chatId: 111,
    topic: null,
    overrides: { permissionMode: "plan", model: null, effort: null, maxCostUsdPerRun: 1, maxCostUsdPerDay: null },
    ...fields,
  };
}

/** A loopback server on any free port, with limits high enough not to matter. */
export const SERVER: WebhookServerConfig = {
  listen: { host: "127.0.0.1", port: 0 },
  maxBodyBytes: 1_048_576,
  requestsPerMinute: 1_000,
  requestsPerMinutePerWebhook: 1_000,
};

export const GITHUB = webhook({ id: "github", path: "/hooks/github", events: ["push"] });

export function signature(body: string | Uint8Array, secret = SECRET): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

export type Harness = {
  server: WebhookServer;
  /** Triggers handed on so far, in order. */
  triggers: WebhookTrigger[];
  /** Resolves with the next trigger handed on (the n-th overall, counting from 1). */
  nextTrigger(): Promise<WebhookTrigger>;
  post(path: string, init?: { body?: string | Uint8Array; headers?: Record<string, string> }): Promise<Response>;
  url(path: string): string;
  /** The log's JSON lines so far. */
  logLines(): Record<string, unknown>[];
  logText(): string;
};

export type HarnessOptions = {
  webhooks?: readonly WebhookConfig[];
  server?: Partial<WebhookServerConfig>;
  env?: Record<string, string>;
  now?: () => number;
  deliveries?: DeliveryIdStore;
  onTrigger?: (trigger: WebhookTrigger) => void | Promise<void>;
};

/** Call at module level; the returned function starts a server for one test. */
export function useWebhookServer(): (options?: HarnessOptions) => Promise<Harness> {
  const tempDir = useTempDirs("hooks");
  const running: { server: WebhookServer | null; logger: ClosableLogger }[] = [];
  afterEach(async () => {
    for (const { server, logger } of running.splice(0)) {
      await server?.stop();
      logger.close();
    }
  });
  return async (options = {}) => {
    const dataDir = tempDir();
    const logger = createLogger({ dataDir, stderr: null, level: "debug" });
    const triggers: WebhookTrigger[] = [];
    const waiting: ((t: WebhookTrigger) => void)[] = [];
    let taken = 0;
    const server = await startWebhookServer({
      server: { ...SERVER, ...options.server },
      webhooks: options.webhooks ?? [GITHUB],
      env: options.env ?? { HOOK_SECRET: SECRET },
      logger,
      ...(options.now === undefined ? {} : { now: options.now }),
      ...(options.deliveries === undefined ? {} : { deliveries: options.deliveries }),
      onTrigger: async (trigger) => {
        triggers.push(trigger);
        waiting.shift()?.(trigger);
        await options.onTrigger?.(trigger);
      },
    });
    running.push({ server, logger });
    if (server === null) throw new Error("the server did not start");
    const url = (path: string): string => `http://127.0.0.1:${server.address.port}${path}`;
    const logText = (): string => readFileSync(join(dataDir, "logs", "telecode.log"), "utf8");
    return {
      server,
      triggers,
      nextTrigger: () => {
        taken += 1;
        const ready = triggers[taken - 1];
        return ready !== undefined ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
      },
      post: (path, init = {}) =>
        fetch(url(path), {
          method: "POST",
          headers: init.headers ?? {},
          ...(init.body === undefined ? {} : { body: init.body }),
        }),
      url,
      logText,
      logLines: () =>
        logText()
          .split("\n")
          .filter((line) => line !== "")
          .map((line) => JSON.parse(line) as Record<string, unknown>),
    };
  };
}

/** Headers GitHub sends with a push delivery, signed with `secret`. */
export function githubHeaders(body: string, delivery: string, event = "push", secret = SECRET): Record<string, string> {
  return {
    "content-type": "application/json",
    "x-github-event": event,
    "x-github-delivery": delivery,
    "x-hub-signature-256": signature(body, secret),
  };
}
