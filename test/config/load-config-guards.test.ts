// The config's guards against bypasses and overflows: unsafe CLI flags only with an explicit,
// warned opt-in; credentials chosen by provider and billing; bounded durations; a bad token in
// the environment refused like one in the file; and every problem reported in one pass.
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config/index.js";
import { thrownBy, TOKEN, useTempHome } from "./helpers.js";

const tempHome = useTempHome();

function problemsOf(fn: () => unknown): readonly string[] {
  const error = thrownBy(fn);
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems;
}

const SETTINGS_BYPASS = `extra_args = ["--settings", '{"permissions":{"allow":["Bash"]}}']`;

describe("claude.extra_args and claude.dangerously_allow_unsafe_args", () => {
  it("refuses a --settings that could allow tools, and says how to allow it on purpose", () => {
    const t = tempHome();
    t.writeConfig(`[claude]\n${SETTINGS_BYPASS}\n`);
    expect(problemsOf(() => loadConfig({ env: { HOME: t.home } }))).toEqual([
      'config.toml: claude.extra_args: "--settings" is refused because its permission rules and hooks can allow tools without asking, so it could bypass approvals; list "--settings" in claude.dangerously_allow_unsafe_args if you really mean it.',
    ]);
  });

  it("accepts it when the opt-in names it, with a warning that says what it can do", () => {
    const t = tempHome();
    t.writeConfig(`[claude]\n${SETTINGS_BYPASS}\ndangerously_allow_unsafe_args = ["--settings"]\n`);
    const { config, warnings } = loadConfig({ env: { HOME: t.home } });
    expect(config.claude.dangerouslyAllowUnsafeArgs).toEqual(["--settings"]);
    expect(warnings.map((w) => w.code)).toEqual(["claude.unsafe_args"]);
    expect(warnings[0]?.message).toContain("lets --settings reach Claude Code");
    expect(warnings[0]?.message).toContain("approvals can be bypassed");
  });

  it("refuses an opt-in for a managed, safe or unknown flag, without a second confusing problem", () => {
    const t = tempHome();
    t.writeConfig(
      `[claude]\n${SETTINGS_BYPASS}\ndangerously_allow_unsafe_args = ["--settings", "--model", "--add-dir", "--nope"]\n`,
    );
    expect(problemsOf(() => loadConfig({ env: { HOME: t.home } }))).toEqual([
      'config.toml: claude.dangerously_allow_unsafe_args[1] names "--model", a flag Telecode manages, which cannot be allowed (set claude.model (or /model in a chat) instead)',
      'config.toml: claude.dangerously_allow_unsafe_args[2] names "--add-dir", which is always allowed; remove it',
      expect.stringContaining(
        'config.toml: claude.dangerously_allow_unsafe_args[3] names "--nope", which is not a flag',
      ),
    ]);
  });
});

describe("credentials: provider, billing and env_allow", () => {
  it("refuses API billing with a cloud provider, an unknown provider, and auth variables in env_allow", () => {
    const t = tempHome();
    t.writeConfig(`[claude]\nprovider = "bedrock"\nuse_api_billing = true\nenv_allow = ["ANTHROPIC_AUTH_TOKEN"]\n`);
    expect(problemsOf(() => loadConfig({ env: { HOME: t.home } }))).toEqual([
      "config.toml: claude.env_allow[0] names ANTHROPIC_AUTH_TOKEN, which decides how Claude logs in; set claude.use_api_billing = true instead",
      'config.toml: claude.use_api_billing applies only to claude.provider = "anthropic"; with "bedrock" Claude uses that cloud\'s credentials, so set it to false.',
    ]);
    t.writeConfig(`[claude]\nprovider = "azure"\n`);
    expect(problemsOf(() => loadConfig({ env: { HOME: t.home } }))).toEqual([
      'config.toml: claude.provider must be one of "anthropic", "bedrock", "vertex"',
    ]);
  });

  it("reads the provider", () => {
    const t = tempHome();
    t.writeConfig(`[claude]\nprovider = "vertex"\n`);
    expect(loadConfig({ env: { HOME: t.home } }).config.claude.provider).toBe("vertex");
  });
});

describe("TELECODE_BOT_TOKEN", () => {
  it("is validated like the token in the file, and never quoted", () => {
    const t = tempHome();
    const env = { HOME: t.home, TELECODE_BOT_TOKEN: "my secret token with spaces" };
    const error = thrownBy(() => loadConfig({ env })) as ConfigError;
    expect(error.code).toBe("config.invalid");
    expect(error.problems).toEqual([
      'environment: TELECODE_BOT_TOKEN must look like "123456789:AA…" (the token @BotFather gave you)',
    ]);
    expect(error.message).toMatch(/^The environment has a problem:/);
    expect(error.message).not.toContain("my secret");
    expect(loadConfig({ env: { HOME: t.home, TELECODE_BOT_TOKEN: TOKEN } }).config.telegram.botToken).toBe(TOKEN);
    t.writeConfig(`[limits]\ndrain_seconds = -1\n`);
    expect(problemsOf(() => loadConfig({ env }))).toHaveLength(2);
  });
});

describe("durations", () => {
  const maxima: [string, number, string][] = [
    ["idle_session_minutes", 10_080, "minutes (a week)"],
    ["stall_note_minutes", 1_440, "minutes (a day)"],
    ["hard_silence_minutes", 10_080, "minutes (a week)"],
    ["approval_timeout_minutes", 10_080, "minutes (a week)"],
    ["drain_seconds", 3_600, "seconds (an hour)"],
    ["offline_max_age_minutes", 1_440, "minutes (a day)"],
    ["rearm_ceiling_minutes", 1_440, "minutes (a day)"],
  ];

  it.each(maxima)("%s accepts up to %i and refuses more, naming the key and the maximum", (key, max, unit) => {
    const t = tempHome();
    t.writeConfig(`[limits]\n${key} = ${max}\n`);
    expect(() => loadConfig({ env: { HOME: t.home } })).not.toThrow();
    t.writeConfig(`[limits]\n${key} = ${max + 1}\n`);
    expect(problemsOf(() => loadConfig({ env: { HOME: t.home } }))).toEqual([
      `config.toml: limits.${key} must be at most ${max} ${unit}`,
    ]);
  });

  it("keeps every timer under Node's limit (2^31 ms), three times the stall note included", () => {
    const minutes = Object.fromEntries(maxima.map(([key, max]) => [key, key.endsWith("_seconds") ? max / 60 : max]));
    expect(Math.max(...Object.values(minutes), (minutes["stall_note_minutes"] ?? 0) * 3) * 60_000).toBeLessThan(
      2 ** 31,
    );
  });
});

describe("every problem at once", () => {
  it("reports the default project next to schema problems", () => {
    const t = tempHome();
    t.mkdir("a");
    t.writeConfig(`
[claude]
effort = "extreme"
[projects.a]
path = "~/a"
default = true
[projects.b]
path = "~/b"
default = true
[projects.c]
path = 5
[limits]
approval_timeout_minutes = 40000
`);
    expect(problemsOf(() => loadConfig({ env: { HOME: t.home } }))).toEqual([
      expect.stringContaining("config.toml: claude.effort must be one of"),
      'config.toml: projects.c.path must be a directory path such as "~/code/app"',
      "config.toml: projects: only one project may have default = true (a, b do)",
      "config.toml: limits.approval_timeout_minutes must be at most 10080 minutes (a week)",
    ]);
  });
});
