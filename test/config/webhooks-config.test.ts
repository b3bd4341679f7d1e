// [webhook_server] and [[webhooks]] at load: defaults, every key read, and each mistake named
// with its key path, all at once (bad auth, missing secret_env, duplicates, unknown project,
// a broken template, an unauthenticated webhook on a public address).
import { describe, expect, it } from "vitest";
import { applyLiveChanges, ConfigError, diffConfig, loadConfig } from "../../src/config/index.js";
import { thrownBy, useTempHome } from "./helpers.js";

const tempHome = useTempHome();

/** A home with projects "app" and "site", allowed user 111, and `body` appended (`top` before every table). */
function load(body: string, top = "") {
  const t = tempHome();
  t.mkdir("code/app");
  t.mkdir("code/site");
  t.writeConfig(`${top}
[telegram]
allowed_user_ids = [111, 222]

[projects.app]
path = "~/code/app"

[projects.site]
path = "~/code/site"
default = true
${body}`);
  return () => loadConfig({ env: { HOME: t.home } });
}

function problemsOf(body: string, top = ""): readonly string[] {
  const error = thrownBy(load(body, top));
  expect(error).toBeInstanceOf(ConfigError);
  expect((error as ConfigError).code).toBe("config.invalid");
  return (error as ConfigError).problems;
}

describe("webhook config", () => {
  it("has no webhooks and a loopback server by default", () => {
    const { config } = load("")();
    expect(config.webhooks).toEqual([]);
    expect(config.webhookServer).toEqual({
      listen: { host: "127.0.0.1", port: 8765 },
      maxBodyBytes: 1_048_576,
      requestsPerMinute: 60,
      requestsPerMinutePerWebhook: 20,
    });
  });

  it("reads every key, and defaults the project and the chat", () => {
    const { config } = load(`
[webhook_server]
listen = "[::1]:9000"
max_body_bytes = 65536
requests_per_minute = 30
requests_per_minute_per_webhook = 5

[[webhooks]]
id = "github-push"
path = "/hooks/github"
auth = "hmac-sha256"
secret_env = "GITHUB_WEBHOOK_SECRET"
event = "push"
prompt = "Review the push to {{ref}} by {{pusher.name}}: {{compare}}"
project = "app"
chat_id = -100123
topic = 7
permission_mode = "plan"
model = "opus"
effort = "high"
max_cost_usd_per_run = 2.5
max_cost_usd_per_day = 10

[[webhooks]]
id = "deploy"
path = "/hooks/deploy"
auth = "none"
event = ["deployment", "deployment_status"]
prompt = "Check the deploy."
`)();
    expect(config.webhookServer).toEqual({
      listen: { host: "::1", port: 9000 },
      maxBodyBytes: 65536,
      requestsPerMinute: 30,
      requestsPerMinutePerWebhook: 5,
    });
    expect(config.webhooks).toEqual([
      {
        id: "github-push",
        path: "/hooks/github",
        auth: "hmac-sha256",
        secretEnv: "GITHUB_WEBHOOK_SECRET",
        events: ["push"],
        prompt: "Review the push to {{ref}} by {{pusher.name}}: {{compare}}",
        project: "app",
        chatId: -100123,
        topic: 7,
        overrides: {
          permissionMode: "plan",
          model: "opus",
          effort: "high",
          maxCostUsdPerRun: 2.5,
          maxCostUsdPerDay: 10,
        },
      },
      {
        id: "deploy",
        path: "/hooks/deploy",
        auth: "none",
        secretEnv: null,
        events: ["deployment", "deployment_status"],
        prompt: "Check the deploy.",
        project: "site",
        chatId: 111,
        topic: null,
        overrides: { permissionMode: null, model: null, effort: null, maxCostUsdPerRun: null, maxCostUsdPerDay: null },
      },
    ]);
    expect(Object.isFrozen(config.webhooks[0]?.overrides)).toBe(true);
  });

  it("names every bad value with its key path, all at once", () => {
    expect(
      problemsOf(`
[webhook_server]
listen = "example.org:80"
max_body_bytes = 0
requests_per_minute = 1.5
rate = 3

[[webhooks]]
id = "bad id!"
path = "hooks/github"
auth = "basic"
event = 5
prompt = ""
chat_id = "me"
topic = "general"
permission_mode = "bypassPermissions"
effort = "huge"
max_cost_usd_per_run = -1
chatid = 5

[[webhooks]]
id = "two"
path = "/hooks/:name"
auth = "bearer"
prompt = "Look at {{ref | upper}}"
`),
    ).toEqual([
      'config.toml: webhook_server.listen must be "host:port" with an IP address or localhost, such as "127.0.0.1:8765"',
      "config.toml: webhook_server.max_body_bytes must be a whole number of bytes from 1 to 104857600",
      "config.toml: webhook_server.requests_per_minute must be a whole number of requests from 1 to 10000",
      "config.toml: webhook_server.rate is not a known key",
      "config.toml: webhooks[0].id must be a name of letters, digits, - _ and . (at most 64 characters)",
      'config.toml: webhooks[0].path must be a URL path such as "/hooks/github" (letters, digits, - _ . ~ between slashes)',
      'config.toml: webhooks[0].auth must be one of "hmac-sha256", "bearer", "none"',
      'config.toml: webhooks[0].event must be an event name such as "push", or a list of them',
      "config.toml: webhooks[0].prompt must not be empty",
      "config.toml: webhooks[0].chat_id must be a numeric Telegram chat id",
      "config.toml: webhooks[0].topic must be a topic's thread id: the last number in a link to the topic (t.me/c/…/42)",
      "config.toml: webhooks[0].permission_mode must not be bypassPermissions; set claude.dangerously_skip_permissions = true to bypass approvals",
      'config.toml: webhooks[0].effort must be one of "low", "medium", "high", "xhigh", "max"',
      "config.toml: webhooks[0].max_cost_usd_per_run must be an amount in US dollars above 0, such as 2.5",
      "config.toml: webhooks[0].chatid is not a known key; did you mean webhooks[0].chat_id?",
      'config.toml: webhooks[1].path must be a URL path such as "/hooks/github" (letters, digits, - _ . ~ between slashes)',
      'config.toml: webhooks[1].prompt has "{{ref | upper}}", which is not a field path; write names and numbers joined by dots, such as {{pusher.name}} or {{commits.0.message}} ({{.}} is the whole payload)',
      'config.toml: webhooks[1].secret_env must be set with auth = "bearer": the name of the environment variable holding the secret',
    ]);
  });

  it("refuses a secret_env that nothing reads, then duplicates and unknown projects", () => {
    const pair = (secondEnd: string): string => `
[[webhooks]]
id = "gh"
path = "/hooks/github"
auth = "hmac-sha256"
secret_env = "GH_SECRET"
prompt = "Review {{ref}}"
project = "ap"

[[webhooks]]
id = "gh"
path = "/hooks/github"
auth = "none"
${secondEnd}
`;
    // Values are checked first; checks across tables run once every value is well-formed.
    expect(problemsOf(pair('secret_env = "UNUSED"\nprompt = "Look {{ref"'))).toEqual([
      'config.toml: webhooks[1].prompt has a "{{" without its closing "}}"',
      'config.toml: webhooks[1].secret_env is only read with auth = "hmac-sha256" or "bearer"; remove it or choose one of those',
    ]);
    expect(problemsOf(pair('prompt = "Look"'))).toEqual([
      'config.toml: webhooks[1].id "gh" is already the id of webhooks[0]; each webhook needs its own',
      'config.toml: webhooks[1].path "/hooks/github" is already the path of webhooks[0]; each webhook needs its own',
      'config.toml: webhooks[0].project "ap" is not a [projects.NAME] table; did you mean "app"?',
    ]);
  });

  it("refuses an unauthenticated webhook on an address other machines can reach", () => {
    const hooks = `
[[webhooks]]
id = "open"
path = "/hooks/open"
auth = "none"
prompt = "Go"

[[webhooks]]
id = "signed"
path = "/hooks/signed"
auth = "bearer"
secret_env = "HOOK_TOKEN"
prompt = "Go"
`;
    expect(problemsOf(`[webhook_server]\nlisten = "0.0.0.0:8765"\n${hooks}`)).toEqual([
      'config.toml: webhooks[0].auth must not be "none" while webhook_server.listen (0.0.0.0:8765) is reachable from other machines; use "hmac-sha256" or "bearer", or listen on 127.0.0.1',
    ]);
    expect(load(`[webhook_server]\nlisten = "localhost:8765"\n${hooks}`)().config.webhooks).toHaveLength(2);
  });

  it("needs somewhere to send results: a project and a chat", () => {
    const t = tempHome();
    t.writeConfig(`
[[webhooks]]
id = "gh"
path = "/hooks/github"
auth = "none"
prompt = "Go"
`);
    const error = thrownBy(() => loadConfig({ env: { HOME: t.home } })) as ConfigError;
    expect(error.problems).toEqual([
      "config.toml: webhooks[0].project must be set: there is no [projects.NAME] table to default to",
      "config.toml: webhooks[0].chat_id must be set: telegram.allowed_user_ids is empty, so there is no one to default to",
    ]);
  });

  it("says a wrong type for webhooks is not a list of tables", () => {
    expect(problemsOf("", `webhooks = "yes"`)).toEqual(["config.toml: webhooks must be a list of [[webhooks]] tables"]);
    expect(problemsOf("", `webhook_server = 5`)).toEqual([
      "config.toml: webhook_server must be a table ([webhook_server])",
    ]);
  });

  it("apply on reload: the app restarts its webhook server with them", () => {
    const hook = (path: string) => `[[webhooks]]\nid = "gh"\npath = "${path}"\nauth = "none"\nprompt = "Go"\n`;
    const before = load(hook("/hooks/a"))().config;
    const after = load(`[webhook_server]\nlisten = "127.0.0.1:9999"\n${hook("/hooks/b")}`)().config;
    // Two temp homes, so state.dir and the project paths differ too.
    const { appliedKeys, restartKeys } = diffConfig(before, after);
    expect(appliedKeys.filter((k) => k.startsWith("webhook"))).toEqual(["webhook_server", "webhooks"]);
    expect(restartKeys.filter((k) => k.startsWith("webhook"))).toEqual([]);
    const running = applyLiveChanges(before, after);
    expect(running.webhooks[0]?.path).toBe("/hooks/b");
    expect(running.webhookServer.listen.port).toBe(9999);
  });
});
