// The checks behind `telecode doctor`, as data: each is ✓, ! (worth knowing) or ✗ (must be
// fixed, with how). Runs what it can even when the config does not load.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ConfigError,
  homeDirOf,
  loadConfig,
  locateConfigFile,
  resolveDataDir,
  type Config,
  type Env,
} from "../config/index.js";
import { openStore } from "../store/index.js";
import { checkClaudeLogin, compareVersions, getMe, probeClaude, testedClaudeVersion } from "./doctor-probes.js";
import { checkRunSurvival } from "./doctor-survival.js";

export type CheckStatus = "ok" | "warn" | "fail";

export type CheckResult = Readonly<{ status: CheckStatus; label: string; detail: string; fix?: string }>;

export type DoctorOptions = { configPath?: string | undefined; env: Env; cwd: string; platform: NodeJS.Platform };

const ok = (label: string, detail: string): CheckResult => ({ status: "ok", label, detail });
const warn = (label: string, detail: string, fix?: string): CheckResult => ({
  status: "warn",
  label,
  detail,
  ...(fix === undefined ? {} : { fix }),
});
const fail = (label: string, detail: string, fix: string): CheckResult => ({ status: "fail", label, detail, fix });

function checkConfig(options: DoctorOptions): { results: CheckResult[]; config: Config | null } {
  try {
    const { config, warnings } = loadConfig({ configPath: options.configPath, env: options.env, cwd: options.cwd });
    if (config.file === null) {
      const expected = locateConfigFile({ flag: options.configPath, env: options.env, cwd: options.cwd }).path;
      return { results: [fail("config", `no config file at ${expected}`, "run `telecode init`")], config };
    }
    const results = [ok("config", config.file)];
    for (const warning of warnings) {
      if (warning.code === "config.readable_by_others")
        results.push(
          fail("config permissions", "readable by other users (it may hold the bot token)", `chmod 600 ${config.file}`),
        );
      else
        results.push(
          warn(
            "approvals",
            "claude.dangerously_skip_permissions is on: every tool runs without asking",
            "set it to false unless this machine is a disposable sandbox",
          ),
        );
    }
    return { results, config };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const detail = error.problems.length > 0 ? error.problems.join("\n") : error.message;
    const fix =
      error.code === "config.not_found"
        ? "run `telecode init`, or pass the right --config"
        : "edit the file (docs/configuration.md lists every key) or run `telecode init`";
    return { results: [fail("config", detail, fix)], config: null };
  }
}

async function checkTelegram(config: Config): Promise<CheckResult[]> {
  const { botToken, apiRoot, allowedUserIds } = config.telegram;
  const results: CheckResult[] = [];
  if (botToken === null) {
    results.push(
      fail("bot token", "not set", "set telegram.bot_token or TELECODE_BOT_TOKEN (`telecode init` does it)"),
    );
  } else {
    const me = await getMe(apiRoot, botToken);
    if (me.ok) {
      results.push(ok("Bot API", `reachable at ${apiRoot}`), ok("bot token", `valid: @${me.bot.username}`));
    } else if (me.reason === "unreachable") {
      results.push(
        fail(
          "Bot API",
          `cannot reach ${apiRoot}: ${me.description}`,
          "check the network or proxy, or telegram.api_root",
        ),
      );
    } else {
      results.push(
        ok("Bot API", `reachable at ${apiRoot}`),
        fail(
          "bot token",
          `rejected by Telegram (${me.description})`,
          "copy the token from @BotFather (/token) and run `telecode init`",
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
          "add your user id, or run `telecode init` to find it",
        ),
  );
  if (config.projects.length === 0)
    results.push(
      fail("projects", "none configured", "add a [projects.NAME] table with a path, or run `telecode init`"),
    );
  for (const project of config.projects)
    results.push(
      ok(
        `project ${project.name}`,
        `${project.path}${project.isDefault || config.projects.length === 1 ? " (default)" : ""}`,
      ),
    );
  return results;
}

async function checkClaude(config: Config | null, options: DoctorOptions): Promise<CheckResult[]> {
  const envPath = options.env["TELECODE_CLAUDE_PATH"];
  const command = config?.claude.path ?? (envPath !== undefined && envPath !== "" ? envPath : "claude");
  const tested = testedClaudeVersion();
  const results: CheckResult[] = [];
  const probe = await probeClaude(command, options.env);
  const install = `npm i -g @anthropic-ai/claude-code@${tested}`;
  if (!probe.found) results.push(fail("Claude CLI", probe.description, `${install}, or set claude.path`));
  else if (compareVersions(probe.version, tested) < 0)
    results.push(
      fail("Claude CLI", `${probe.version} is older than ${tested}, the version Telecode is tested with`, install),
    );
  else if (compareVersions(probe.version, tested) > 0)
    results.push(
      warn(
        "Claude CLI",
        `${probe.version} is newer than ${tested}, the version Telecode is tested with`,
        `if something misbehaves: ${install}`,
      ),
    );
  else results.push(ok("Claude CLI", `${probe.version} (the tested version)`));
  const login = checkClaudeLogin({
    env: options.env,
    homeDir: homeDirOf(options.env),
    useApiBilling: config?.claude.useApiBilling ?? false,
    platform: options.platform,
  });
  if (login.status === "ok") results.push(ok("Claude login", login.how));
  else if (login.status === "unknown") results.push(warn("Claude login", login.description, login.fix));
  else results.push(fail("Claude login", login.description, login.fix));
  return results;
}

function checkState(dir: string): CheckResult[] {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const probe = join(dir, `.doctor-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    return [
      fail(
        "data directory",
        `${dir} is not writable (${code})`,
        "fix its permissions, or set state.dir / TELECODE_DATA_DIR",
      ),
    ];
  }
  const results = [ok("data directory", dir)];
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
    } finally {
      store.close();
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    results.push(
      fail(
        "database",
        message.split("\n", 1)[0] ?? message,
        "see the message; moving the file aside starts a new database",
      ),
    );
  }
  return results;
}

/** Every check, in the order a person fixes things. */
export async function collectDoctorChecks(options: DoctorOptions): Promise<CheckResult[]> {
  const { results, config } = checkConfig(options);
  if (config !== null && config.file !== null) results.push(...(await checkTelegram(config)));
  results.push(...(await checkClaude(config, options)));
  const dataDir = config?.state.dir ?? resolveDataDir({ fromFile: "", env: options.env, relativeTo: options.cwd });
  results.push(...checkState(dataDir));
  results.push(checkRunSurvival(options));
  return results;
}
