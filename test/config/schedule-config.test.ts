// The scheduling keys: [loops], [schedule] and [[schedules]], with their defaults, every
// mistake named with its key path and reported at once, and hot reload treating them as live.
import { describe, expect, it } from "vitest";
import { applyLiveChanges, ConfigError, diffConfig, loadConfig, schedulerSettingsOf } from "../../src/config/index.js";
import { thrownBy, useTempHome } from "./helpers.js";

const tempHome = useTempHome();

/** A home with projects app and web and two allowed users; returns a loader for `toml` added to it. */
function load(toml: string, t = tempHome()) {
  t.mkdir("app");
  t.mkdir("web");
  t.writeConfig(
    `[telegram]\nallowed_user_ids = [111, 222]\n[projects.app]\npath = "~/app"\n[projects.web]\npath = "~/web"\n${toml}`,
  );
  return () => loadConfig({ env: { HOME: t.home } }).config;
}

function problems(toml: string): readonly string[] {
  const error = thrownBy(load(toml));
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).problems;
}

describe("scheduling keys", () => {
  it("default to loops on, unattended, the issue's caps, the system zone, not paused, an hour of grace", () => {
    const config = load("")();
    expect(config.loops).toEqual({
      enabled: true,
      attended: false,
      caps: { minIntervalMs: 60_000, maxIterations: 50, maxLifetimeMs: 7 * 86_400_000, maxCostUsd: 5, maxPerChat: 10 },
    });
    expect(config.schedule).toEqual({
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      paused: false,
      graceMinutes: 60,
    });
    expect(config.schedules).toEqual([]);
  });

  it("read [loops], [schedule] and [[schedules]], filling each entry's zone, project and chat", () => {
    const config = load(`
[loops]
enabled = false
attended = true
min_interval_seconds = 300
max_iterations = 20
max_lifetime_days = 2
max_cost_usd = 1.5
max_per_chat = 3

[schedule]
timezone = "europe/berlin"
paused = true
grace_minutes = 15

[[schedules]]
id = "morning-review"
cron = "0 9 * * 1-5"
prompt = "Review yesterday's commits and list risky ones."

[[schedules]]
id = "deploy"
cron = "30 14 * * *"
timezone = "America/New_York"
prompt = "Check the deploy."
project = "web"
chat_id = -100123
topic = 7
permission_mode = "plan"
model = "opus"
effort = "high"
session = "continue"
run_once = true
max_run_cost_usd = 0.5
max_day_cost_usd = 2
`)();
    expect(config.loops).toEqual({
      enabled: false,
      attended: true,
      caps: {
        minIntervalMs: 300_000,
        maxIterations: 20,
        maxLifetimeMs: 2 * 86_400_000,
        maxCostUsd: 1.5,
        maxPerChat: 3,
      },
    });
    expect(config.schedule).toEqual({ timeZone: "Europe/Berlin", paused: true, graceMinutes: 15 });
    expect(config.schedules).toEqual([
      {
        id: "morning-review",
        cron: "0 9 * * 1-5",
        timeZone: "Europe/Berlin",
        prompt: "Review yesterday's commits and list risky ones.",
        project: "app",
        chatId: 111,
        topic: null,
        session: "new",
        runOnce: false,
        overrides: { permissionMode: null, model: null, effort: null },
        maxRunCostUsd: null,
        maxDayCostUsd: null,
      },
      {
        id: "deploy",
        cron: "30 14 * * *",
        timeZone: "America/New_York",
        prompt: "Check the deploy.",
        project: "web",
        chatId: -100123,
        topic: 7,
        session: "continue",
        runOnce: true,
        overrides: { permissionMode: "plan", model: "opus", effort: "high" },
        maxRunCostUsd: 0.5,
        maxDayCostUsd: 2,
      },
    ]);
    expect(schedulerSettingsOf(config)).toEqual({
      loopsEnabled: false,
      attended: true,
      caps: config.loops.caps,
      graceMs: 15 * 60_000,
      paused: true,
      defaultTimeZone: "Europe/Berlin",
    });
    expect(Object.isFrozen(config.schedules[0])).toBe(true);
  });

  it("report every mistake at once with its key path", () => {
    expect(
      problems(`
[loops]
enabled = "yes"
min_interval_seconds = 10
max_cost_usd = 0
max_per_chat = 2.5

[schedule]
timezone = "Mars/Olympus"
grace_minutes = -1

[[schedules]]
id = "a"
cron = "61 * * * *"
timezone = "+01:00"
prompt = ""
session = "old"

[[schedules]]
id = "b"
cron = "0 9 * *"
prompt = "x"
project = "nope"

[[schedules]]
id = "b"
cron = "0 9 30 2 *"
prompt = "x"
chat_id = "me"
topic = 0
effort = "extreme"
`),
    ).toEqual([
      "config.toml: loops.enabled must be true or false",
      "config.toml: loops.min_interval_seconds must be a whole number of seconds (60 or more)",
      "config.toml: loops.max_cost_usd must be an amount in US dollars above 0, such as 2.5",
      "config.toml: loops.max_per_chat must be a whole number of loops (1 or more)",
      'config.toml: schedule.timezone must be an IANA time zone such as "Europe/Berlin" or "UTC"',
      "config.toml: schedule.grace_minutes must be a whole number of minutes (0 or more)",
      "config.toml: schedules[0].cron is not a 5-field cron expression (minute hour day-of-month month day-of-week): Invalid value for minute: 61",
      'config.toml: schedules[0].timezone must be an IANA time zone such as "Europe/Berlin" or "UTC"',
      "config.toml: schedules[0].prompt must say what to do",
      'config.toml: schedules[0].session must be "new" or "continue"',
      "config.toml: schedules[1].cron has 4 fields; a cron expression has five (minute hour day-of-month month day-of-week)",
      "config.toml: schedules[2].cron never matches a date (check the day and month fields)",
      "config.toml: schedules[2].chat_id must be a numeric chat id",
      "config.toml: schedules[2].topic must be a topic's thread id: the last number in a link to the topic (t.me/c/…/42)",
      'config.toml: schedules[2].effort must be one of "low", "medium", "high", "xhigh", "max"',
    ]);
  });

  it("report an unknown project and a duplicate id, which only the whole file shows", () => {
    expect(
      problems(`
[[schedules]]
id = "b"
cron = "0 9 * * *"
prompt = "x"
project = "nope"

[[schedules]]
id = "b"
cron = "0 10 * * *"
prompt = "y"
`),
    ).toEqual([
      'config.toml: schedules[1].id "b" is already used by schedules[0]; ids must be unique',
      'config.toml: schedules[0].project must name a configured project (app, web), not "nope"',
    ]);
  });

  it("need a chat to send to when there are no allowed users", () => {
    const t = tempHome();
    t.mkdir("app");
    t.writeConfig(`[projects.app]\npath = "~/app"\n[[schedules]]\nid = "a"\ncron = "0 9 * * *"\nprompt = "x"\n`);
    const error = thrownBy(() => loadConfig({ env: { HOME: t.home } })) as ConfigError;
    expect(error.problems).toEqual([
      "config.toml: schedules[0].chat_id must be set: there are no telegram.allowed_user_ids to default to",
    ]);
  });

  it("call unknown keys errors, with a suggestion inside [[schedules]] too", () => {
    expect(
      problems(`
[loops]
max_iteration = 5
[schedule]
pause = true
[[schedules]]
id = "a"
cron = "0 9 * * *"
prompt = "x"
runonce = true
`),
    ).toEqual([
      "config.toml: loops.max_iteration is not a known key; did you mean loops.max_iterations?",
      "config.toml: schedule.pause is not a known key; did you mean schedule.paused?",
      "config.toml: schedules[0].runonce is not a known key; did you mean schedules[0].run_once?",
    ]);
  });

  it("take effect on reload without a restart", () => {
    const t = tempHome();
    const before = load(`[[schedules]]\nid = "a"\ncron = "0 9 * * *"\nprompt = "x"\n`, t)();
    const after = load(
      `[loops]\nenabled = false\n[schedule]\npaused = true\n[[schedules]]\nid = "a"\ncron = "0 10 * * *"\nprompt = "x"\n`,
      t,
    )();
    expect(diffConfig(before, after)).toEqual({ appliedKeys: ["loops", "schedule", "schedules"], restartKeys: [] });
    const applied = applyLiveChanges(before, after);
    expect(applied.loops.enabled).toBe(false);
    expect(applied.schedule.paused).toBe(true);
    expect(applied.schedules[0]?.cron).toBe("0 10 * * *");
  });
});
