// The checks behind `telecode doctor`, as data: each is ✓, ! (worth knowing) or ✗ (must be
// fixed, with how). Runs what it can even when the config does not load.
import {
  ConfigError,
  homeDirOf,
  isExistingFolder,
  loadConfig,
  locateConfigFile,
  type Config,
  type ConfigWarning,
  type Env,
} from "../config/index.js";
import { formatDurationMs } from "../domain/index.js";
import { buildChildEnv, PROVIDER_SWITCH } from "../claude/index.js";
import { instanceState, openStore, StoreError, type PrepareFailure } from "../store/index.js";
import { dataDirProblem } from "./data-dir.js";
import { initCommand } from "./invocation.js";
import { checkClaudeStarts } from "./doctor-claude-start.js";
import { botApiRoute, checkClaudeLogin, getBotWebhook, getMe, probeClaude } from "./doctor-probes.js";
import { fail, ok, warn, type CheckResult } from "./doctor-result.js";
import { PINNED_CLAUDE_VERSION } from "./doctor-tested-range.js";
import { judgeClaudeVersion } from "./doctor-version.js";
import { checkTriggers } from "./doctor-triggers.js";
import { checkWebhooks } from "./doctor-webhooks.js";
import { checkRunSurvival } from "./doctor-survival.js";
import { checkInstalledService } from "./doctor-service.js";
import { checkLongPdfs } from "./doctor-pdf.js";
import { checkWorktrees } from "./doctor-worktrees.js";

export type { CheckResult, CheckStatus } from "./doctor-result.js";

export type DoctorOptions = { configPath?: string | undefined; env: Env; cwd: string; platform: NodeJS.Platform };

function warningCheck(warning: ConfigWarning, file: string): CheckResult | undefined {
  switch (warning.code) {
    case "config.readable_by_others":
      return fail("config permissions", "readable by other users (it may hold the bot token)", `chmod 600 ${file}`);
    case "claude.skip_permissions":
      return warn(
        "approvals",
        "claude.dangerously_skip_permissions is on: every tool runs without asking",
        "set it to false unless this machine is a disposable sandbox",
      );
    case "claude.unsafe_args":
      return warn("approvals", warning.message, "remove claude.dangerously_allow_unsafe_args unless you mean it");
    case "claude.api_key_missing":
      return undefined; // the Claude login check says it, with its fix
    case "project.folder_missing":
      return undefined; // the project's own check says it
  }
}

function checkConfig(options: DoctorOptions, init: string): { results: CheckResult[]; config: Config | null } {
  try {
    const { config, warnings } = loadConfig({
      configPath: options.configPath,
      env: options.env,
      cwd: options.cwd,
      initCommand: init,
    });
    if (config.file === null) {
      const expected = locateConfigFile({ flag: options.configPath, env: options.env, cwd: options.cwd }).path;
      return { results: [fail("config", `no config file at ${expected}`, `run \`${init}\``)], config };
    }
    const results = [ok("config", config.file)];
    for (const warning of warnings) {
      const check = warningCheck(warning, config.file);
      if (check !== undefined) results.push(check);
    }
    return { results, config };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const detail = error.problems.length > 0 ? error.problems.join("\n") : error.message;
    const fix =
      error.code === "config.not_found"
        ? `run \`${init}\`, or pass the right --config`
        : `edit the file (docs/configuration.md lists every key) or run \`${init}\`; the other checks run once it loads`;
    return { results: [fail("config", detail, fix)], config: null };
  }
}

/** Telegram's Date header is to the second, and comes a network trip late: a minute is no skew. */
const CLOCK_SKEW_MS = 60_000;

/** This computer's clock against Telegram's (`aheadMs`: how far ahead, negative when behind). */
function clockCheck(aheadMs: number): CheckResult {
  if (Math.abs(aheadMs) < CLOCK_SKEW_MS) return ok("clock", "in step with Telegram's");
  const by = `${formatDurationMs(Math.abs(aheadMs))} ${aheadMs > 0 ? "ahead of" : "behind"}`;
  return warn(
    "clock",
    `this computer's clock is ${by} Telegram's: schedules run at the wrong times, and a message sent while Telecode was down is taken for ${aheadMs > 0 ? "older" : "newer"} than it is`,
    "set the clock right: turn on network time (`sudo timedatectl set-ntp true`; on a Mac, Date & Time settings); in WSL, `sudo hwclock -s`",
  );
}

async function checkTelegram(config: Config, init: string, env: Env): Promise<CheckResult[]> {
  const { botToken, apiRoot, allowedUserIds } = config.telegram;
  const results: CheckResult[] = [];
  if (botToken === null) {
    results.push(fail("bot token", "not set", `set telegram.bot_token or TELECODE_BOT_TOKEN (\`${init}\` does it)`));
  } else {
    const at = { apiRoot, token: botToken, env };
    const me = await getMe(at);
    const route = botApiRoute(at);
    const through = route === undefined ? "" : ` ${route}`;
    if (me.ok) {
      results.push(
        ok("Bot API", `reachable at ${apiRoot}${through}`),
        ok("bot token", `valid: @${me.bot.username}`),
        ok(
          "groups",
          me.bot.readsAllGroupMessages
            ? "privacy mode is off: in a group the bot gets every message"
            : "privacy mode is on: in a group where the bot is no admin, Telegram hands it only commands and replies to its messages, not @mentions (make it an admin there, or turn privacy mode off in @BotFather with /setprivacy and add it to the group again)",
        ),
      );
      if (me.telegramTimeMs !== undefined) results.push(clockCheck(Date.now() - me.telegramTimeMs));
      const webhook = await getBotWebhook(at);
      if (webhook.ok && webhook.site !== undefined)
        results.push(
          warn(
            "bot webhook",
            `set, to ${webhook.site}: Telegram sends this bot's messages there, not to Telecode`,
            "Telecode removes it when it starts; if another program set it, give Telecode a bot of its own (@BotFather, /newbot)",
          ),
        );
    } else if (me.reason === "unreachable") {
      results.push(
        fail(
          "Bot API",
          `cannot reach ${apiRoot}${through}: ${me.description}`,
          me.hint ??
            (route === undefined
              ? "check the network, or telegram.api_root; behind a proxy, set HTTPS_PROXY (as for Claude Code)"
              : "check the proxy and the network, or telegram.api_root"),
        ),
      );
    } else {
      results.push(
        ok("Bot API", `reachable at ${apiRoot}${through}`),
        fail(
          "bot token",
          `rejected by Telegram (${me.description})`,
          `copy the token from @BotFather (/token) and run \`${init}\``,
        ),
      );
    }
  }
  results.push(
    allowedUserIds.length > 0
      ? ok("allowed users", allowedUserIds.join(", "))
      : fail(
          "allowed users",
          "telegram.allowed_user_ids is empty, so nobody can use the bot",
          `add your user id, or run \`${init}\` to find it`,
        ),
  );
  if (config.projects.length === 0)
    results.push(fail("projects", "none configured", `add a [projects.NAME] table with a path, or run \`${init}\``));
  for (const project of config.projects) {
    const label = `project ${project.name}`;
    const path = `${project.path}${project.isDefault || config.projects.length === 1 ? " (default)" : ""}`;
    results.push(
      isExistingFolder(project.path)
        ? ok(label, path)
        : fail(
            label,
            `${path} is not an existing folder, so its messages fail`,
            `put the folder back (or mount its drive), or fix projects.${project.name}.path`,
          ),
    );
  }
  return results;
}

/**
 * Claude Code's telemetry switched on in Telecode's environment (it passes) with its exporter's
 * OTEL_* variables beside it, which pass only through env_allow: without them Claude Code's
 * telemetry does not go where the person pointed it.
 */
function checkTelemetryEnv(config: Config, env: Env): CheckResult[] {
  const child = buildChildEnv(env, config.claude);
  if (["", "0", "false"].includes(child["CLAUDE_CODE_ENABLE_TELEMETRY"] ?? "")) return [];
  const held = Object.keys(env)
    .filter((name) => name.startsWith("OTEL_") && child[name] === undefined)
    .sort();
  if (held.length === 0) return [];
  return [
    warn(
      "Claude telemetry",
      `CLAUDE_CODE_ENABLE_TELEMETRY is on, but ${held.join(", ")} ${held.length === 1 ? "does" : "do"} not reach Claude Code`,
      `name ${held.length === 1 ? "it" : "them"} in claude.env_allow (docs/configuration.md, "What reaches the CLI's environment")`,
    ),
  ];
}

async function checkClaude(config: Config, options: DoctorOptions): Promise<CheckResult[]> {
  const probe = await probeClaude(config.claude.path, options.env);
  const results: CheckResult[] = [];
  if (!probe.found)
    results.push(
      fail(
        "Claude CLI",
        // The line is already named "Claude CLI": it says only what is wrong.
        probe.lookedFor === undefined ? probe.description : `not found (looked for: ${probe.lookedFor})`,
        `npm i -g @anthropic-ai/claude-code@${PINNED_CLAUDE_VERSION}, or set claude.path`,
      ),
    );
  else {
    const verdict = judgeClaudeVersion(probe.version);
    const detail = `${verdict.detail} (${probe.path})`;
    results.push(verdict.status === "ok" ? ok("Claude CLI", detail) : warn("Claude CLI", detail, verdict.fix));
  }
  const login = checkClaudeLogin({
    env: options.env,
    homeDir: homeDirOf(options.env),
    useApiBilling: config.claude.useApiBilling,
    provider: config.claude.provider,
    platform: options.platform,
  });
  const provider = config.claude.provider;
  for (const [which, name] of Object.entries(PROVIDER_SWITCH))
    if ((options.env[name] ?? "") !== "" && which !== provider)
      results.push(
        warn(
          "Claude provider",
          `${name} is set, but Telecode does not pass it: claude.provider is "${provider}"`,
          `set claude.provider = "${which}" to use it`,
        ),
      );
  results.push(...checkTelemetryEnv(config, options.env));
  if (login.status === "ok") results.push(ok("Claude login", login.how));
  else if (login.status === "unknown") results.push(warn("Claude login", login.description, login.fix));
  else results.push(fail("Claude login", login.description, login.fix));
  results.push(...checkClaudeStarts(options.env, homeDirOf(options.env)));
  return results;
}

function checkState(config: Config, nowMs: number): CheckResult[] {
  const dir = config.state.dir;
  const problem = dataDirProblem(dir);
  if (problem !== undefined) return [fail("data directory", problem.detail, problem.fix)];
  const instance = instanceState(dir);
  const results = [
    ok("data directory", dir),
    ok(
      "instance",
      instance.running
        ? `Telecode is running on this data directory${instance.pid === null ? "" : ` (pid ${instance.pid})`}`
        : "no Telecode is running on this data directory",
    ),
  ];
  try {
    const store = openStore(dir);
    try {
      const integrity = store.integrityCheck();
      results.push(
        integrity === "ok"
          ? ok(
              "database",
              `${store.path} (schema ${store.schemaVersion}${store.appliedMigrations.length > 0 ? ", just migrated" : ""})`,
            )
          : fail(
              "database",
              `integrity check: ${integrity}`,
              `stop Telecode and move ${store.path} aside; it starts a new one`,
            ),
      );
      if (integrity === "ok") results.push(...checkTriggers(config, store, nowMs));
    } finally {
      store.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const why = error instanceof StoreError ? (error.details["why"] as PrepareFailure | undefined) : undefined;
    results.push(fail("database", message.split("\n", 1)[0] ?? message, DATABASE_FIX[why ?? "other"]));
  }
  return results;
}

/** What to do about a database that could not be prepared, by why. */
const DATABASE_FIX: Readonly<Record<PrepareFailure, string>> = {
  disk_full: "free some space on that disk; the database is kept as it is",
  read_only: "fix the permissions of the data directory and its files",
  damaged: "stop Telecode and move the file aside; it starts a new database",
  other: "see the message; moving the file aside starts a new database",
};

/**
 * Every check, in the order a person fixes things. A config that does not load is the only
 * problem reported: the other checks would judge settings it may not have (a login it does
 * not use, a CLI or data directory it names elsewhere).
 */
export async function collectDoctorChecks(options: DoctorOptions): Promise<CheckResult[]> {
  // Hints name the set-up command as it runs where the person is (in a clone: npx telecode init).
  const init = initCommand({ env: options.env, cwd: options.cwd });
  const { results, config } = checkConfig(options, init);
  if (config === null) return results;
  if (config.file !== null)
    results.push(...(await checkTelegram(config, init, options.env)), ...checkWebhooks(config, options.env));
  results.push(
    ...(await checkClaude(config, options)),
    checkLongPdfs(options.env),
    ...(await checkWorktrees(config.projects)),
  );
  results.push(...checkState(config, Date.now()));
  results.push(checkRunSurvival(options), ...checkInstalledService({ ...options, config }));
  return results;
}
