// The checks `telecode init` and `telecode doctor` share: the Bot API (getMe, getUpdates over
// fetch), the Claude CLI's version and login, and the newest CLI version Telecode is tested with.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { buildChildEnv, createCliProbe, isClaudeError, type ClaudeProvider } from "../claude/index.js";
import { carriedFailure } from "../domain/index.js";
import type { Env } from "../config/index.js";
import { redactSecrets } from "../log/index.js";
import { httpAccess } from "../net/index.js";
import { tlsRefusalWords, webhookSite } from "../render/index.js";

/** Who the bot is; `readsAllGroupMessages`: Telegram's privacy mode is off for it. */
export type BotInfo = { id: number; username: string; firstName: string; readsAllGroupMessages: boolean };

export type BotApiFailure = {
  ok: false;
  /** `rejected`: Telegram answered with an error (e.g. 401 for a bad token); `unreachable`: no answer. */
  reason: "rejected" | "unreachable";
  /** Safe to show: the token is redacted. */
  description: string;
  /** What to do, when the failure says (a certificate this computer does not trust). */
  hint?: string;
};

export type TelegramUser = { id: number; firstName: string; lastName?: string; username?: string };

export type IncomingMessage = { updateId: number; from: TelegramUser; text: string; date: number };

/** `telegramTimeMs`: Telegram's clock as its answer's Date header gave it (to the second), when it did. */
type BotApiResult<T> = { ok: true; result: T; telegramTimeMs?: number } | BotApiFailure;

/** A bot at a Bot API server, reached as the environment `env` says (through its proxy, if any), as the bridge reaches it. */
export type BotApiAt = { apiRoot: string; token: string; env: Env };

/** How requests to the Bot API go out, when through a proxy ("through http://proxy:3128 (HTTPS_PROXY)"); undefined when directly or unusable. */
export function botApiRoute(at: Pick<BotApiAt, "apiRoot" | "env">): string | undefined {
  try {
    return httpAccess(at.env).routeOf(new URL(at.apiRoot));
  } catch {
    return undefined;
  }
}

export async function callBotApi<T>(
  { apiRoot, token, env }: BotApiAt,
  method: string,
  params: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<BotApiResult<T>> {
  const url = `${apiRoot}/bot${token}/${method}`;
  let response: Response;
  try {
    response = await httpAccess(env).fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params),
      signal: signal ?? AbortSignal.timeout(15_000),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : "";
    const message = error instanceof Error ? `${error.message}${cause}` : String(error);
    const hint = tlsRefusalWords(error);
    return {
      ok: false,
      reason: "unreachable",
      description: redactSecrets(message, [token]),
      ...(hint === undefined ? {} : { hint }),
    };
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    const route = botApiRoute({ apiRoot, env });
    return {
      ok: false,
      reason: "unreachable",
      description:
        route === undefined
          ? `HTTP ${response.status} with a body that is not JSON (is api_root a Bot API server?)`
          : `HTTP ${response.status} with a body that is not JSON, not the Bot API's answer: does the proxy let ${new URL(apiRoot).host} through?`,
    };
  }
  const answer = body as { ok?: unknown; result?: unknown; description?: unknown; error_code?: unknown };
  if (answer.ok === true) {
    const telegramTimeMs = Date.parse(response.headers.get("date") ?? "");
    return { ok: true, result: answer.result as T, ...(Number.isNaN(telegramTimeMs) ? {} : { telegramTimeMs }) };
  }
  const description = typeof answer.description === "string" ? answer.description : `HTTP ${response.status}`;
  return {
    ok: false,
    reason: "rejected",
    description: redactSecrets(
      `${typeof answer.error_code === "number" ? `${answer.error_code} ` : ""}${description}`,
      [token],
    ),
  };
}

/** Asks Telegram who the bot is; the token is valid exactly when this succeeds. */
export async function getMe(
  at: BotApiAt,
  signal?: AbortSignal,
): Promise<{ ok: true; bot: BotInfo; telegramTimeMs?: number } | BotApiFailure> {
  const result = await callBotApi<{
    id: number;
    username?: string;
    first_name?: string;
    can_read_all_group_messages?: boolean;
  }>(at, "getMe", {}, signal);
  if (!result.ok) return result;
  return {
    ok: true,
    bot: {
      id: result.result.id,
      username: result.result.username ?? "",
      firstName: result.result.first_name ?? "",
      readsAllGroupMessages: result.result.can_read_all_group_messages === true,
    },
    ...(result.telegramTimeMs === undefined ? {} : { telegramTimeMs: result.telegramTimeMs }),
  };
}

/** The site the bot's webhook points at (path left out), or undefined when it has none. */
export async function getBotWebhook(at: BotApiAt): Promise<{ ok: true; site: string | undefined } | BotApiFailure> {
  const info = await callBotApi<{ url?: string }>(at, "getWebhookInfo", {});
  if (!info.ok) return info;
  const url = info.result.url;
  return { ok: true, site: url === undefined || url === "" ? undefined : webhookSite(url) };
}

/**
 * Removes the bot's webhook, if it has one, so polling gets its messages (Telegram sends them to
 * one or the other); the site it pointed at, or undefined when there was none.
 */
export async function removeBotWebhook(
  at: BotApiAt,
): Promise<{ ok: true; removedSite: string | undefined } | BotApiFailure> {
  const webhook = await getBotWebhook(at);
  if (!webhook.ok) return webhook;
  if (webhook.site === undefined) return { ok: true, removedSite: undefined };
  const removed = await callBotApi<boolean>(at, "deleteWebhook", {});
  return removed.ok ? { ok: true, removedSite: webhook.site } : removed;
}

type WireUpdate = {
  update_id: number;
  message?: {
    date?: number;
    text?: string;
    from?: { id: number; is_bot?: boolean; first_name?: string; last_name?: string; username?: string };
  };
};

/**
 * Long-polls for updates from `offset` and returns the messages people sent, plus the offset
 * that acknowledges everything seen (pass it to the next call).
 */
export async function getMessages(
  at: BotApiAt,
  options: { offset?: number; timeoutSeconds: number; signal?: AbortSignal },
): Promise<{ ok: true; messages: IncomingMessage[]; nextOffset: number | undefined } | BotApiFailure> {
  const params: Record<string, unknown> = { timeout: options.timeoutSeconds, allowed_updates: ["message"] };
  if (options.offset !== undefined) params["offset"] = options.offset;
  const signal = options.signal ?? AbortSignal.timeout((options.timeoutSeconds + 15) * 1000);
  const result = await callBotApi<WireUpdate[]>(at, "getUpdates", params, signal);
  if (!result.ok) return result;
  const messages: IncomingMessage[] = [];
  let nextOffset = options.offset;
  for (const update of result.result) {
    nextOffset = Math.max(nextOffset ?? 0, update.update_id + 1);
    const from = update.message?.from;
    if (!from || from.is_bot === true) continue;
    messages.push({
      updateId: update.update_id,
      from: {
        id: from.id,
        firstName: from.first_name ?? "",
        ...(from.last_name === undefined ? {} : { lastName: from.last_name }),
        ...(from.username === undefined ? {} : { username: from.username }),
      },
      text: update.message?.text ?? "",
      date: update.message?.date ?? 0,
    });
  }
  return { ok: true, messages, nextOffset };
}

/** "Ada Lovelace (@ada, id 42)". */
export function describeUser(user: TelegramUser): string {
  const name = [user.firstName, user.lastName].filter((p) => p !== undefined && p !== "").join(" ") || "someone";
  return `${name} (${user.username === undefined ? "" : `@${user.username}, `}id ${user.id})`;
}

export type ClaudeProbe =
  | { found: true; version: string; path: string }
  /** `lookedFor`: where it was looked for, when no such file could be run. */
  | { found: false; description: string; lookedFor?: string };

/**
 * Finds and asks the CLI for its version exactly as `telecode` and `telecode run` do (the
 * engine's probe, in the environment the engine gives the CLI); `command` is claude.path. With
 * `cacheFile` (the state directory's), a binary the engine already probed is not asked again.
 */
export async function probeClaude(command: string, env: Env, cacheFile?: string): Promise<ClaudeProbe> {
  try {
    const probe = createCliProbe(cacheFile === undefined ? {} : { cacheFile });
    const info = await probe.ask(command, buildChildEnv({ ...env }));
    return info.version === ""
      ? { found: false, description: `${info.path} --version printed no version; is it the Claude Code CLI?` }
      : { found: true, version: info.version, path: info.path };
  } catch (error) {
    if (!isClaudeError(error, "claude.not_found")) throw error;
    const lookedFor = error.details["lookedFor"];
    return {
      found: false,
      description: carriedFailure(error)?.what ?? error.message,
      ...(typeof lookedFor === "string" ? { lookedFor } : {}),
    };
  }
}

/** -1, 0 or 1, comparing dotted numeric versions ("2.1.9" < "2.1.10"). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

export type LoginCheck =
  | { status: "ok"; how: string }
  | { status: "unknown"; description: string; fix: string }
  | { status: "missing"; description: string; fix: string };

/** Whether the CLI can reach a model with what Telecode passes it (src/claude/env.ts). */
export function checkClaudeLogin(options: {
  env: Env;
  homeDir: string;
  useApiBilling: boolean;
  provider: ClaudeProvider;
  platform: NodeJS.Platform;
}): LoginCheck {
  const { env, homeDir } = options;
  const has = (name: string): boolean => (env[name] ?? "") !== "";
  const stored = (...parts: string[]): string | undefined => (existsSync(join(...parts)) ? join(...parts) : undefined);
  if (options.provider === "bedrock") {
    const named = ["AWS_BEARER_TOKEN_BEDROCK", "AWS_ACCESS_KEY_ID", "AWS_PROFILE"].find(has);
    const file = stored(env["AWS_SHARED_CREDENTIALS_FILE"] ?? join(homeDir, ".aws", "credentials"));
    if (named !== undefined || file !== undefined) return { status: "ok", how: `Bedrock (${named ?? file} is set)` };
    return {
      status: "unknown",
      description: "Bedrock: no AWS credentials in the environment or ~/.aws (an instance role may still work)",
      fix: "set AWS_PROFILE or AWS credentials in Telecode's environment, and AWS_REGION",
    };
  }
  if (options.provider === "vertex") {
    const gcloud = env["CLOUDSDK_CONFIG"] ?? join(homeDir, ".config", "gcloud");
    const file = has("GOOGLE_APPLICATION_CREDENTIALS")
      ? "GOOGLE_APPLICATION_CREDENTIALS"
      : stored(gcloud, "application_default_credentials.json");
    if (!has("ANTHROPIC_VERTEX_PROJECT_ID"))
      return {
        status: "missing",
        description: "Vertex: ANTHROPIC_VERTEX_PROJECT_ID is not set",
        fix: "set ANTHROPIC_VERTEX_PROJECT_ID and CLOUD_ML_REGION in Telecode's environment",
      };
    if (file !== undefined) return { status: "ok", how: `Vertex (${file})` };
    return {
      status: "unknown",
      description: "Vertex: no Google credentials found (a metadata server may still work)",
      fix: "run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS",
    };
  }
  if (options.useApiBilling) {
    const key = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"].find(has);
    return key !== undefined
      ? { status: "ok", how: `API billing (${key} is set)` }
      : {
          status: "missing",
          description: "claude.use_api_billing is on but neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set",
          fix: "export ANTHROPIC_API_KEY for Telecode, or set claude.use_api_billing = false",
        };
  }
  if (has("CLAUDE_CODE_OAUTH_TOKEN")) return { status: "ok", how: "CLAUDE_CODE_OAUTH_TOKEN is set" };
  const credentials = stored(env["CLAUDE_CONFIG_DIR"] ?? join(homeDir, ".claude"), ".credentials.json");
  if (credentials !== undefined) return { status: "ok", how: `logged in (${credentials})` };
  const unpassed = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"].find(has);
  const fix =
    unpassed !== undefined
      ? `${unpassed} is set but not passed to the CLI: set claude.use_api_billing = true, or run \`claude auth login\``
      : "run `claude auth login`, or set claude.use_api_billing = true and ANTHROPIC_API_KEY";
  if (options.platform === "darwin")
    return { status: "unknown", description: "no stored login found (on macOS it may be in the keychain)", fix };
  return {
    status: "missing",
    description: "Claude Code is not logged in on this machine (no stored login, no CLAUDE_CODE_OAUTH_TOKEN)",
    fix,
  };
}
