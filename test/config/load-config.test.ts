// Loading the config: where it is found, defaults, overrides, and every error a person can
// make, each named with the file, the key and what was expected, all reported at once.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, locateConfigFile, requireTelegram } from "../../src/config/index.js";
import { thrownBy, TOKEN, useTempHome } from "./helpers.js";

const tempHome = useTempHome();

function configError(fn: () => unknown): ConfigError {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe("finding the config file", () => {
  it("prefers --config, then TELECODE_CONFIG, then XDG_CONFIG_HOME, then ~/.config", () => {
    const env = { HOME: "/h", TELECODE_CONFIG: "/env/c.toml", XDG_CONFIG_HOME: "/xdg" };
    expect(locateConfigFile({ flag: "~/flag.toml", env, cwd: "/cwd" })).toEqual({
      path: "/h/flag.toml",
      source: "flag",
    });
    expect(locateConfigFile({ flag: "rel.toml", env, cwd: "/cwd" })).toEqual({ path: "/cwd/rel.toml", source: "flag" });
    expect(locateConfigFile({ env, cwd: "/cwd" })).toEqual({ path: "/env/c.toml", source: "env" });
    expect(locateConfigFile({ env: { HOME: "/h", XDG_CONFIG_HOME: "/xdg" } })).toEqual({
      path: "/xdg/telecode/config.toml",
      source: "default",
    });
    expect(locateConfigFile({ env: { HOME: "/h", XDG_CONFIG_HOME: "relative" } })).toEqual({
      path: "/h/.config/telecode/config.toml",
      source: "default",
    });
  });

  it("runs on defaults when there is no file at the default place", () => {
    const { home } = tempHome();
    const { config, warnings } = loadConfig({ env: { HOME: home } });
    expect(warnings).toEqual([]);
    expect(config.file).toBeNull();
    expect(config.telegram).toEqual({
      botToken: null,
      allowedUserIds: [],
      apiRoot: "https://api.telegram.org",
      notifyUnauthorised: true,
      groupApprovals: "anyone",
      groupSessions: "shared",
    });
    expect(config.claude).toEqual({
      path: "claude",
      permissionMode: "default",
      model: null,
      effort: null,
      allowedTools: [],
      extraArgs: [],
      dangerouslyAllowUnsafeArgs: [],
      provider: "anthropic",
      useApiBilling: false,
      dangerouslySkipPermissions: false,
      promptSuggestions: true,
      envAllow: [],
    });
    expect(config.projects).toEqual([]);
    expect(config.defaultProject).toBeNull();
    expect(config.limits).toEqual({
      idleSessionMinutes: 30,
      stallNoteMinutes: 10,
      hardSilenceMinutes: 120,
      approvalTimeoutMinutes: 0,
      drainSeconds: 60,
      offlineMaxAgeMinutes: 60,
      planRearm: true,
      rearmCeilingMinutes: 30,
    });
    expect(config.budget).toEqual({ perRunUsd: null, perChatUsd: null, perDayUsd: null, warnPercent: 80 });
    expect(config.state.dir).toBe(join(home, ".local", "share", "telecode"));
  });

  it("fails with config.not_found when --config or TELECODE_CONFIG names a missing file", () => {
    const { home } = tempHome();
    const byFlag = configError(() => loadConfig({ configPath: join(home, "nope.toml"), env: { HOME: home } }));
    expect(byFlag.code).toBe("config.not_found");
    expect(byFlag.message).toBe(
      `No config file at ${join(home, "nope.toml")}. Run \`telecode init --config ${join(home, "nope.toml")}\` to create it, or pass the right --config path.`,
    );
    const inClone = configError(() =>
      loadConfig({ configPath: join(home, "nope.toml"), env: { HOME: home }, initCommand: "npx telecode init" }),
    );
    expect(inClone.message).toContain("Run `npx telecode init --config");
    const byEnv = configError(() => loadConfig({ env: { HOME: home, TELECODE_CONFIG: join(home, "nope.toml") } }));
    expect(byEnv.code).toBe("config.not_found");
  });
});

describe("a valid file", () => {
  it("becomes a frozen, typed config with paths resolved", () => {
    const t = tempHome();
    const app = t.mkdir("code/app");
    t.mkdir(".config/telecode/side");
    const file = t.writeConfig(`
[telegram]
bot_token = "${TOKEN}"
allowed_user_ids = [111, 222]
api_root = "http://127.0.0.1:8081/"
notify_unauthorised = false
group_approvals = "requester"
group_sessions = "per_person"

[claude]
path = "~/bin/claude"
permission_mode = "plan-auto"
model = "opus"
effort = "xhigh"
allowed_tools = ["Read", "Bash(git *)"]
extra_args = ["--verbose", "--add-dir", "/tmp"]
use_api_billing = true
env_allow = ["GITHUB_TOKEN"]

[projects.app]
path = "~/code/app"
worktrees_dir = "~/code/app-worktrees"
worktree_base = "main"

[projects.side]
path = "side"
default = true

[limits]
drain_seconds = 5
plan_rearm = false

[state]
dir = "~/data"
`);
    const { config, warnings } = loadConfig({ env: { HOME: t.home, ANTHROPIC_API_KEY: "sk-ant-test" } });
    expect(warnings).toEqual([]);
    expect(config.file).toBe(file);
    expect(config.telegram).toEqual({
      botToken: TOKEN,
      allowedUserIds: [111, 222],
      apiRoot: "http://127.0.0.1:8081",
      notifyUnauthorised: false,
      groupApprovals: "requester",
      groupSessions: "per_person",
    });
    expect(config.claude).toMatchObject({
      path: join(t.home, "bin", "claude"),
      permissionMode: "plan-auto",
      model: "opus",
      effort: "xhigh",
      allowedTools: ["Read", "Bash(git *)"],
      extraArgs: ["--verbose", "--add-dir", "/tmp"],
      useApiBilling: true,
      envAllow: ["GITHUB_TOKEN"],
    });
    expect(config.projects).toEqual([
      {
        name: "app",
        path: app,
        isDefault: false,
        worktreesDir: join(t.home, "code", "app-worktrees"),
        worktreeBase: "main",
      },
      {
        name: "side",
        path: join(t.home, ".config", "telecode", "side"),
        isDefault: true,
        worktreesDir: null,
        worktreeBase: null,
      },
    ]);
    expect(config.defaultProject?.name).toBe("side");
    expect(config.limits).toMatchObject({ drainSeconds: 5, planRearm: false, idleSessionMinutes: 30 });
    expect(config.state.dir).toBe(join(t.home, "data"));
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.telegram)).toBe(true);
    expect(Object.isFrozen(config.telegram.allowedUserIds)).toBe(true);
    expect(Object.isFrozen(config.projects[0])).toBe(true);
  });

  it("takes the first project as default when none is marked", () => {
    const t = tempHome();
    t.mkdir("a");
    t.mkdir("b");
    t.writeConfig(`[projects.b]\npath = "~/b"\n[projects.a]\npath = "~/a"\n`);
    expect(loadConfig({ env: { HOME: t.home } }).config.defaultProject?.name).toBe("b");
  });

  it("lets the environment supply the token, the CLI path and the data directory", () => {
    const t = tempHome();
    t.writeConfig(`[telegram]\nbot_token = "${TOKEN}"\n[claude]\npath = "claude"\n`);
    const other = "987654321:ZZHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0";
    const env = {
      HOME: t.home,
      TELECODE_BOT_TOKEN: other,
      TELECODE_CLAUDE_PATH: "/opt/claude/bin/claude",
      TELECODE_DATA_DIR: "/var/tc",
    };
    const { config } = loadConfig({ env });
    expect(config.telegram.botToken).toBe(other);
    expect(config.claude.path).toBe("/opt/claude/bin/claude");
    expect(config.state.dir).toBe("/var/tc");
    expect(loadConfig({ env: { HOME: t.home, XDG_DATA_HOME: "/xdg-data" } }).config.state.dir).toBe(
      "/xdg-data/telecode",
    );
  });
});

describe("errors", () => {
  it("names file, key and expectation for a bad user id list", () => {
    const t = tempHome();
    t.writeConfig(`[telegram]\nallowed_user_ids = ["me"]\n`);
    const error = configError(() => loadConfig({ env: { HOME: t.home } }));
    expect(error.code).toBe("config.invalid");
    expect(error.problems).toEqual([
      "config.toml: telegram.allowed_user_ids must be a non-empty list of numeric user ids",
    ]);
    expect(error.message).toContain(join(t.home, ".config", "telecode", "config.toml"));
  });

  it("lists every problem at once, not only the first", () => {
    const t = tempHome();
    t.writeConfig(`
[telegram]
bot_token = "not-a-token"
allowed_user_ids = 5
api_root = "ftp://example.org"
notify_unauthorised = "yes"
group_approvals = "admins"
group_sessions = "each"

[claude]
permission_mode = "yolo"
effort = "extreme"
extra_args = ["--resume=abc", "-p", "--verbose"]
env_allow = ["NOT A NAME"]
allowed_tools = [1]

[projects.missing]
path = "~/does/not/exist"
worktree_base = "--orphan"

[limits]
drain_seconds = -1
stall_note_minutes = 1.5

[state]
dir = 3
`);
    const error = configError(() => loadConfig({ env: { HOME: t.home } }));
    expect(error.problems).toEqual([
      'config.toml: telegram.bot_token must look like "123456789:AA…" (the token @BotFather gave you)',
      "config.toml: telegram.allowed_user_ids must be a non-empty list of numeric user ids",
      'config.toml: telegram.api_root must be an http(s) URL such as "https://api.telegram.org"',
      "config.toml: telegram.notify_unauthorised must be true or false",
      'config.toml: telegram.group_approvals must be one of "anyone", "requester"',
      'config.toml: telegram.group_sessions must be one of "shared", "per_person"',
      'config.toml: claude.permission_mode must be one of "default", "acceptEdits", "plan", "plan-auto", "auto", "dontAsk"',
      'config.toml: claude.effort must be one of "low", "medium", "high", "xhigh", "max", or "" for the CLI\'s default',
      "config.toml: claude.allowed_tools[0] must be a string",
      "config.toml: claude.env_allow[0] must be an environment variable name",
      'config.toml: claude.extra_args: "--resume=abc" is a flag Telecode manages; Telecode resumes sessions itself.',
      'config.toml: claude.extra_args: "-p" (--print) is a flag Telecode manages; Telecode chooses print or control mode itself.',
      "config.toml: projects.missing.worktree_base must be a branch, tag or commit, not an option",
      "config.toml: limits.stall_note_minutes must be a whole number of minutes (0 or more)",
      "config.toml: limits.drain_seconds must be a whole number of seconds (0 or more)",
      "config.toml: state.dir must be a string",
    ]);
    expect(error.message).toMatch(/has 16 problems/);
  });

  it("refuses two default projects", () => {
    const t = tempHome();
    t.mkdir("a");
    t.mkdir("b");
    t.writeConfig(`[projects.a]\npath = "~/a"\ndefault = true\n[projects.b]\npath = "~/b"\ndefault = true\n`);
    const error = configError(() => loadConfig({ env: { HOME: t.home } }));
    expect(error.problems).toEqual(["config.toml: projects: only one project may have default = true (a, b do)"]);
  });

  it("loads a project whose folder is missing now, with a warning that names it (only its runs fail)", () => {
    const t = tempHome();
    t.mkdir("a");
    t.writeConfig(`[projects.a]\npath = "~/a"\ndefault = true\n[projects.ext]\npath = "~/ext/app"\n`);
    const loaded = loadConfig({ env: { HOME: t.home } });
    expect(loaded.config.projects.map((p) => p.name)).toEqual(["a", "ext"]);
    expect(loaded.warnings).toContainEqual({
      code: "project.folder_missing",
      message: `projects.ext.path: ${join(t.home, "ext", "app")} is not an existing folder now, so messages for project ext fail (saying so) until there is one.`,
    });
    expect(loaded.warnings.filter((w) => w.code === "project.folder_missing")).toHaveLength(1);

    // A path through a file (ENOTDIR, not ENOENT) is a missing folder too, not a crash.
    writeFileSync(join(t.home, "notes.txt"), "");
    t.writeConfig(`[projects.a]\npath = "~/a"\ndefault = true\n[projects.odd]\npath = "~/notes.txt/app"\n`);
    expect(loadConfig({ env: { HOME: t.home } }).warnings.map((w) => w.code)).toContain("project.folder_missing");
  });

  it("refuses bypassPermissions as a mode and points at the explicit switch", () => {
    const t = tempHome();
    t.writeConfig(`[claude]\npermission_mode = "bypassPermissions"\n`);
    expect(configError(() => loadConfig({ env: { HOME: t.home } })).problems).toEqual([
      "config.toml: claude.permission_mode must not be bypassPermissions; set claude.dangerously_skip_permissions = true to bypass approvals",
    ]);
  });

  it("calls unknown keys errors and suggests the key that was meant", () => {
    const t = tempHome();
    t.mkdir("a");
    t.writeConfig(`
bot_token = "x"
[telegram]
allowed_users = [1]
[limit]
x = 1
[claude]
permision_mode = "plan"
colour = "red"
[projects.a]
paht = "~/a"
`);
    expect(configError(() => loadConfig({ env: { HOME: t.home } })).problems).toEqual([
      "config.toml: telegram.allowed_users is not a known key; did you mean telegram.allowed_user_ids?",
      "config.toml: claude.permision_mode is not a known key; did you mean claude.permission_mode?",
      "config.toml: claude.colour is not a known key",
      'config.toml: projects.a.path must be a directory path such as "~/code/app"',
      "config.toml: projects.a.paht is not a known key; did you mean projects.a.path?",
      "config.toml: bot_token is not a known key; did you mean telegram.bot_token?",
      "config.toml: limit is not a known key; did you mean limits?",
    ]);
  });

  it("reads [budget]'s caps, and says what is wrong with one", () => {
    const t = tempHome();
    t.writeConfig(`[budget]\nper_run_usd = 1.5\nper_chat_usd = 4\nper_day_usd = 10\nwarn_percent = 0\n`);
    expect(loadConfig({ env: { HOME: t.home } }).config.budget).toEqual({
      perRunUsd: 1.5,
      perChatUsd: 4,
      perDayUsd: 10,
      warnPercent: 0,
    });
    t.writeConfig(`[budget]\nper_run_usd = 0\nper_day = 10\nwarn_percent = 100\nper_chat_usd = "5"\n`);
    expect(configError(() => loadConfig({ env: { HOME: t.home } })).problems).toEqual([
      "config.toml: budget.per_run_usd must be an amount in US dollars above 0, such as 2.5",
      "config.toml: budget.per_chat_usd must be an amount in US dollars above 0, such as 2.5",
      "config.toml: budget.warn_percent must be a whole number of percent from 0 to 99",
      "config.toml: budget.per_day is not a known key; did you mean budget.per_day_usd?",
    ]);
  });

  it("points at the line and column of a TOML syntax error", () => {
    const t = tempHome();
    t.writeConfig(`[telegram]\nallowed_user_ids = [1,\n`);
    const error = configError(() => loadConfig({ env: { HOME: t.home } }));
    expect(error.code).toBe("config.invalid");
    expect(error.problems[0]).toMatch(/^config\.toml:\d+:\d+: not valid TOML: /);
  });

  it("says so when the file cannot be read", () => {
    const t = tempHome();
    const dir = join(t.home, "dir.toml");
    mkdirSync(dir);
    const error = configError(() => loadConfig({ configPath: dir, env: { HOME: t.home } }));
    expect(error.code).toBe("config.unreadable");
    expect(error.message).toBe(`${dir} is a directory, not a config file. Pass the TOML file itself with --config.`);
    // XDG_CONFIG_HOME naming a file: the path runs through it.
    const file = join(t.home, "not-a-folder");
    writeFileSync(file, "");
    const through = configError(() => loadConfig({ env: { HOME: t.home, XDG_CONFIG_HOME: file } }));
    expect(through.message).toBe(
      `Could not read ${file}/telecode/config.toml (ENOTDIR: a part of the path is a file, not a folder). Pass the right config file with --config.`,
    );
  });
});

describe("warnings", () => {
  it("warns when the file is readable by others and when approvals are bypassed", () => {
    const t = tempHome();
    const file = t.writeConfig(`[claude]\ndangerously_skip_permissions = true\n`);
    chmodSync(file, 0o644);
    const { config, warnings } = loadConfig({ env: { HOME: t.home } });
    expect(config.claude.dangerouslySkipPermissions).toBe(true);
    expect(warnings.map((w) => w.code)).toEqual(["config.readable_by_others", "claude.skip_permissions"]);
    expect(warnings[0]?.message).toContain(`chmod 600 ${file}`);
    chmodSync(file, 0o600);
    expect(loadConfig({ env: { HOME: t.home } }).warnings.map((w) => w.code)).toEqual(["claude.skip_permissions"]);
  });

  it("warns when API billing is on but no API key is set, since every run would fail", () => {
    const t = tempHome();
    t.writeConfig(`[claude]\nuse_api_billing = true\n`);
    const [warning, ...rest] = loadConfig({ env: { HOME: t.home } }).warnings;
    expect(rest).toEqual([]);
    expect(warning?.code).toBe("claude.api_key_missing");
    expect(warning?.message).toContain("ANTHROPIC_API_KEY is not set");
    expect(warning?.message).toContain("claude auth login");
    expect(loadConfig({ env: { HOME: t.home, ANTHROPIC_API_KEY: "sk-ant-test" } }).warnings).toEqual([]);
    expect(loadConfig({ env: { HOME: t.home, ANTHROPIC_AUTH_TOKEN: "gateway-token" } }).warnings).toEqual([]);
  });
});

describe("requireTelegram", () => {
  it("names every missing piece of a file that cannot serve yet", () => {
    const t = tempHome();
    t.writeConfig(`[claude]\nmodel = "opus"\n`);
    const { config } = loadConfig({ env: { HOME: t.home } });
    const error = configError(() => requireTelegram(config));
    expect(error.code).toBe("config.incomplete");
    expect(error.problems).toEqual([
      "config.toml: telegram.bot_token must be set (or TELECODE_BOT_TOKEN in the environment)",
      "config.toml: telegram.allowed_user_ids must be a non-empty list of numeric user ids",
      "config.toml: projects must have at least one [projects.NAME] table with a path",
    ]);
  });

  it("sends a person without a config file to telecode init", () => {
    const { home } = tempHome();
    const error = configError(() => requireTelegram(loadConfig({ env: { HOME: home } }).config));
    expect(error.message).toContain("telecode init");
  });

  it("accepts a complete config, with the token from the environment", () => {
    const t = tempHome();
    t.mkdir("app");
    t.writeConfig(`[telegram]\nallowed_user_ids = [1]\n[projects.app]\npath = "~/app"\n`);
    const { config } = loadConfig({ env: { HOME: t.home, TELECODE_BOT_TOKEN: TOKEN } });
    expect(() => requireTelegram(config)).not.toThrow();
  });
});
