// The CLI's environment is an allowlist: Telecode's secrets stay out; the API key only with billing.
import { describe, expect, it } from "vitest";
import { buildChildEnv } from "../../src/claude/index.js";

const parent = {
  PATH: "/bin",
  HOME: "/home/u",
  LC_ALL: "C",
  TELECODE_BOT_TOKEN: "123:secret",
  GITHUB_TOKEN: "gh-secret",
  ANTHROPIC_API_KEY: "sk-ant",
  ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
  CLAUDE_CODE_MAX_RETRIES: "2",
  AWS_REGION: "eu-west-1",
  HTTPS_PROXY: "http://proxy",
  MY_TOOL_HOME: "/opt/tool",
};

describe("buildChildEnv", () => {
  it("passes the allowlist and nothing else", () => {
    const env = buildChildEnv(parent);
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      LC_ALL: "C",
      ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
      CLAUDE_CODE_MAX_RETRIES: "2",
      AWS_REGION: "eu-west-1",
      HTTPS_PROXY: "http://proxy",
      TELECODE_SESSION: "1",
    });
  });

  it("adds the API key only with API billing, names from env_allow, and the cron switch", () => {
    const env = buildChildEnv(parent, {
      useApiBilling: true,
      envAllow: ["MY_TOOL_HOME", "ANTHROPIC_API_KEY"],
      disableCron: true,
    });
    expect(env["ANTHROPIC_API_KEY"]).toBe("sk-ant");
    expect(env["MY_TOOL_HOME"]).toBe("/opt/tool");
    expect(env["CLAUDE_CODE_DISABLE_CRON"]).toBe("1");
    expect(buildChildEnv(parent, { envAllow: ["ANTHROPIC_API_KEY"] })["ANTHROPIC_API_KEY"]).toBeUndefined();
  });
});
