// Loads the TOML config: finds the file, parses it, validates every key at once, applies
// defaults and environment overrides, and returns a frozen Config plus warnings. Never prints.
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parse, TomlError } from "smol-toml";
import * as z from "zod/mini";
import { UNSAFE_EXTRA_ARGS } from "../claude/index.js";
import { closestName, ioErrorWords } from "../domain/index.js";
import { checkAcrossKeys, type Problem } from "./config-checks.js";
import type { Config, ConfigWarning, LoadedConfig, ProjectConfig } from "./config-types.js";
import { ConfigError } from "./errors.js";
import { formatPath } from "./key-path.js";
import { displayName, expandHome, homeDirOf, locateConfigFile, resolveDataDir, type Env } from "./paths.js";
import { buildFilesConfig, buildVoiceConfig } from "./media-config.js";
import { ENTRY_TABLES, fileSchema, KNOWN_KEYS, USER_IDS_EXPECTED, type FileConfig } from "./schema.js";
import { buildScheduling } from "./schedule-config.js";
import { buildWebhooks } from "./webhooks-config.js";

export type LoadConfigOptions = {
  /** The --config flag, when given. */
  configPath?: string | undefined;
  env: Env;
  cwd?: string;
  /** How the person runs set-up where they are, for hints (default "telecode init"; a clone's is "npx telecode init"). */
  initCommand?: string;
};

function unknownKeyProblem(tablePath: readonly PropertyKey[], key: string): string {
  const where = formatPath(tablePath);
  const full = formatPath([...tablePath, key]);
  const entryTable = ENTRY_TABLES[String(tablePath[0])];
  const table = entryTable !== undefined && tablePath.length === 2 ? entryTable : where;
  let hint = closestName(key, KNOWN_KEYS[table] ?? []);
  if (hint !== undefined) hint = where === "" ? hint : `${where}.${hint}`;
  else {
    // The right key in the wrong table ("bot_token" at the top level) is a common slip.
    const home = Object.entries(KNOWN_KEYS).find(
      ([t, keys]) => t !== "" && !Object.values(ENTRY_TABLES).includes(t) && keys.includes(key),
    );
    if (home) hint = `${home[0]}.${key}`;
  }
  return `${full} is not a known key${hint === undefined ? "" : `; did you mean ${hint}?`}`;
}

/** Zod's English messages, for the few checks that have no message of their own (zod/mini sets no locale). */
const ENGLISH = z.locales.en().localeError;

function issueProblems(issue: z.core.$ZodIssue): string[] {
  if (issue.code === "unrecognized_keys") return issue.keys.map((key) => unknownKeyProblem(issue.path, key));
  const key = formatPath(issue.path);
  if (issue.code === "invalid_key") {
    const inner = issue.issues[0]?.message ?? "is not a valid name";
    return [`${key} ${inner}`];
  }
  if (key === "" || issue.message.startsWith(`${key}:`)) return [issue.message];
  return [`${key} ${issue.message}`];
}

function readText(path: string, mustExist: boolean, initCommand: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !mustExist) return null;
    if (code === "ENOENT") {
      throw new ConfigError(
        "config.not_found",
        `No config file at ${path}. Run \`${initCommand} --config ${path}\` to create it, or pass the right --config path.`,
        { file: path, cause },
      );
    }
    const what =
      code === "EISDIR"
        ? `${path} is a directory, not a config file. Pass the TOML file itself with --config.`
        : code === "EACCES" || code === "EPERM"
          ? `Could not read ${path}: permission denied. Make it readable by the user Telecode runs as.`
          : `Could not read ${path} (${ioErrorWords(cause)}). Pass the right config file with --config.`;
    throw new ConfigError("config.unreadable", what, { file: path, cause });
  }
}

function parseToml(path: string, text: string): Record<string, unknown> {
  try {
    return parse(text);
  } catch (cause) {
    if (!(cause instanceof TomlError)) throw cause;
    const firstLine = cause.message.split("\n", 1)[0] ?? "invalid TOML";
    const problem = `${displayName(path)}:${cause.line}:${cause.column}: not valid TOML: ${firstLine}`;
    throw new ConfigError(
      "config.invalid",
      `${path} is not valid TOML.\n  ${problem}\nFix the line shown and run again.`,
      { file: path, problems: [problem], cause },
    );
  }
}

/** The projects in file order (a folder that is missing now is a warning: see warningsFor). */
function buildProjects(file: FileConfig, baseDir: string, home: string): ProjectConfig[] {
  const folder = (path: string): string => resolve(baseDir, expandHome(path, home));
  return Object.entries(file.projects).map(([name, project]) =>
    Object.freeze({
      name,
      path: folder(project.path),
      isDefault: project.default,
      worktreesDir: project.worktrees_dir === "" ? null : folder(project.worktrees_dir),
      worktreeBase: project.worktree_base === "" ? null : project.worktree_base,
    }),
  );
}

/** Builds the frozen config; problems that span tables ([[webhooks]], [[schedules]] against projects) go to `problems`. */
function buildConfig(
  file: FileConfig,
  filePath: string | null,
  options: LoadConfigOptions,
  baseDir: string,
  problems: string[],
): Config {
  const home = homeDirOf(options.env);
  const projects = buildProjects(file, baseDir, home);
  const defaultProject = projects.find((p) => p.isDefault) ?? projects[0] ?? null;
  const envToken = options.env["TELECODE_BOT_TOKEN"];
  const envClaude = options.env["TELECODE_CLAUDE_PATH"];
  const claudePath = envClaude !== undefined && envClaude !== "" ? envClaude : file.claude.path;
  const allowedUserIds = Object.freeze([...file.telegram.allowed_user_ids]);
  const webhooks = buildWebhooks(file, { projects, defaultProject, allowedUserIds }, problems);
  const scheduling = buildScheduling(file, { projects, defaultProject, allowedUserIds }, problems);
  const t = file.telegram;
  const c = file.claude;
  const l = file.limits;
  return Object.freeze({
    file: filePath,
    telegram: Object.freeze({
      botToken: envToken !== undefined && envToken !== "" ? envToken : t.bot_token === "" ? null : t.bot_token,
      allowedUserIds,
      apiRoot: t.api_root.replace(/\/+$/, ""),
      notifyUnauthorised: t.notify_unauthorised,
      groupApprovals: t.group_approvals,
      groupSessions: t.group_sessions,
    }),
    claude: Object.freeze({
      path: claudePath.includes("/") ? resolve(baseDir, expandHome(claudePath, home)) : claudePath,
      permissionMode: c.permission_mode,
      model: c.model === "" ? null : c.model,
      effort: c.effort === "" ? null : c.effort,
      allowedTools: Object.freeze([...c.allowed_tools]),
      extraArgs: Object.freeze([...c.extra_args]),
      dangerouslyAllowUnsafeArgs: Object.freeze([...c.dangerously_allow_unsafe_args]),
      provider: c.provider,
      useApiBilling: c.use_api_billing,
      dangerouslySkipPermissions: c.dangerously_skip_permissions,
      promptSuggestions: c.prompt_suggestions,
      envAllow: Object.freeze([...c.env_allow]),
    }),
    projects: Object.freeze(projects),
    defaultProject,
    limits: Object.freeze({
      idleSessionMinutes: l.idle_session_minutes,
      stallNoteMinutes: l.stall_note_minutes,
      hardSilenceMinutes: l.hard_silence_minutes,
      approvalTimeoutMinutes: l.approval_timeout_minutes,
      drainSeconds: l.drain_seconds,
      offlineMaxAgeMinutes: l.offline_max_age_minutes,
      planRearm: l.plan_rearm,
      rearmCeilingMinutes: l.rearm_ceiling_minutes,
    }),
    budget: Object.freeze({
      perRunUsd: file.budget.per_run_usd ?? null,
      perChatUsd: file.budget.per_chat_usd ?? null,
      perDayUsd: file.budget.per_day_usd ?? null,
      warnPercent: file.budget.warn_percent,
    }),
    state: Object.freeze({ dir: resolveDataDir({ fromFile: file.state.dir, env: options.env, relativeTo: baseDir }) }),
    webhookServer: webhooks.webhookServer,
    webhooks: webhooks.webhooks,
    files: buildFilesConfig(file.files, (path) => expandHome(path, home)),
    voice: buildVoiceConfig(file.voice),
    ...scheduling,
  });
}

/**
 * Whether `path` is a folder now: a project's may be moved, or on a drive not mounted. Any
 * path that cannot be a folder (gone, through a file, unreadable) is not one, never a throw.
 */
export function isExistingFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function warningsFor(config: Config, env: NodeJS.ProcessEnv): ConfigWarning[] {
  const warnings: ConfigWarning[] = [];
  if (config.file !== null) {
    const mode = statSync(config.file, { throwIfNoEntry: false })?.mode ?? 0;
    if ((mode & 0o044) !== 0) {
      warnings.push({
        code: "config.readable_by_others",
        message: `${config.file} is readable by other users and may hold your bot token; run \`chmod 600 ${config.file}\`.`,
      });
    }
  }
  if (config.claude.dangerouslySkipPermissions) {
    warnings.push({
      code: "claude.skip_permissions",
      message:
        "claude.dangerously_skip_permissions is on: Claude runs every tool without asking. Turn it off unless this machine is a disposable sandbox.",
    });
  }
  const unsafe = config.claude.dangerouslyAllowUnsafeArgs;
  if (unsafe.length > 0) {
    const reasons = Object.entries(UNSAFE_EXTRA_ARGS)
      .filter(([flag]) => unsafe.includes(flag))
      .map(([flag, why]) => `${flag}: ${why}`);
    warnings.push({
      code: "claude.unsafe_args",
      message: `claude.dangerously_allow_unsafe_args lets ${unsafe.join(", ")} reach Claude Code (${reasons.join("; ")}), so approvals can be bypassed. Remove it unless you mean it.`,
    });
  }
  // A folder missing now (a drive not mounted, a folder moved) fails only that project's runs, each
  // saying so; it does not keep Telecode, or `telecode run` elsewhere, from starting.
  for (const project of config.projects) {
    if (isExistingFolder(project.path)) continue;
    warnings.push({
      code: "project.folder_missing",
      message: `projects.${project.name}.path: ${project.path} is not an existing folder now, so messages for project ${project.name} fail (saying so) until there is one.`,
    });
  }
  const hasKey = ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"].some((name) => (env[name] ?? "") !== "");
  if (config.claude.useApiBilling && config.claude.provider === "anthropic" && !hasKey) {
    warnings.push({
      code: "claude.api_key_missing",
      message:
        "claude.use_api_billing is on, but ANTHROPIC_API_KEY is not set in Telecode's environment, so Claude Code is not logged in and every run will fail. Set ANTHROPIC_API_KEY where Telecode runs (for the service too, in its environment), or set claude.use_api_billing = false and run `claude auth login` on this machine.",
    });
  }
  return warnings;
}

/** The order problems are listed in: the file's tables as documented, unknown top-level keys last. */
const TABLE_ORDER = [
  "telegram",
  "claude",
  "projects",
  "limits",
  "budget",
  "state",
  "loops",
  "schedule",
  "schedules",
  "webhook_server",
  "webhooks",
  "files",
  "voice",
];

function schemaProblems(issues: readonly z.core.$ZodIssue[]): Problem[] {
  return issues.flatMap((issue) => {
    const table = typeof issue.path[0] === "string" ? issue.path[0] : "";
    return issueProblems(issue).map((text): Problem => ({ table, source: "file", text }));
  });
}

function invalid(file: string, fileExists: boolean, found: readonly Problem[]): ConfigError {
  const rank = (p: Problem): number => {
    const index = TABLE_ORDER.indexOf(p.table);
    return index < 0 ? TABLE_ORDER.length : index;
  };
  const sorted = [...found].sort((a, b) => rank(a) - rank(b));
  const name = displayName(file);
  const problems = sorted.map((p) => `${p.source === "env" ? "environment" : name}: ${p.text}`);
  const count = problems.length === 1 ? "a problem" : `${problems.length} problems`;
  return new ConfigError(
    "config.invalid",
    `${fileExists ? file : "The environment"} has ${count}:\n${problems.map((p) => `  ${p}`).join("\n")}\nFix ${problems.length === 1 ? "it" : "them"} and run again (docs/configuration.md lists every key).`,
    { file: fileExists ? file : null, problems },
  );
}

/**
 * Finds, reads and validates the config. A missing file at the default location means "all
 * defaults"; a missing --config or TELECODE_CONFIG file is an error. Throws ConfigError
 * (`config.not_found`, `config.unreadable`, `config.invalid`) listing every problem at once.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const location = locateConfigFile({
    flag: options.configPath,
    env: options.env,
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  });
  const text = readText(location.path, location.source !== "default", options.initCommand ?? "telecode init");
  const raw = text === null ? {} : parseToml(location.path, text);
  const filePath = text === null ? null : location.path;
  const baseDir = filePath === null ? (options.cwd ?? process.cwd()) : dirname(filePath);
  // Each file is checked once: zod's compiled fast path would cost more to build (~2 ms) than it saves.
  const parsed = fileSchema.safeParse(raw, { jitless: true, error: ENGLISH });
  const problems = [
    ...(parsed.success ? [] : schemaProblems(parsed.error.issues)),
    ...checkAcrossKeys(raw, { env: options.env }),
  ];
  if (!parsed.success || problems.length > 0) throw invalid(location.path, filePath !== null, problems);
  const spanning: string[] = [];
  const config = buildConfig(parsed.data, filePath, options, baseDir, spanning);
  if (spanning.length > 0) {
    const found = spanning.map((text): Problem => ({ table: /^[a-z_]+/.exec(text)?.[0] ?? "", source: "file", text }));
    throw invalid(location.path, filePath !== null, found);
  }
  return Object.freeze({ config, warnings: Object.freeze(warningsFor(config, options.env)) });
}

/**
 * Checks what serving Telegram needs beyond a loadable config: a bot token, allowed users and
 * a project. Throws ConfigError `config.incomplete` naming every missing piece.
 */
export function requireTelegram(config: Config, initCommand = "telecode init"): void {
  const problems: string[] = [];
  if (config.telegram.botToken === null)
    problems.push("telegram.bot_token must be set (or TELECODE_BOT_TOKEN in the environment)");
  if (config.telegram.allowedUserIds.length === 0) problems.push(`telegram.allowed_user_ids ${USER_IDS_EXPECTED}`);
  if (config.projects.length === 0) problems.push("projects must have at least one [projects.NAME] table with a path");
  if (problems.length === 0) return;
  if (config.file === null) {
    throw new ConfigError(
      "config.incomplete",
      `No config file was found, and serving Telegram needs a bot token and allowed users. Run \`${initCommand}\` to set them up.`,
      {
        file: null,
        problems,
      },
    );
  }
  const name = displayName(config.file);
  throw new ConfigError(
    "config.incomplete",
    `${config.file} is not ready to serve Telegram:\n${problems.map((p) => `  ${name}: ${p}`).join("\n")}\nRun \`${initCommand}\` or edit the file, then run again.`,
    {
      file: config.file,
      problems: problems.map((p) => `${name}: ${p}`),
    },
  );
}
