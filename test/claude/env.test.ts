// The CLI's environment is an allowlist: Telecode's secrets stay out, and of the credentials
// only those of the configured authentication pass (subscription, API key, Bedrock, Vertex).
import { describe, expect, it } from "vitest";
import { buildChildEnv } from "../../src/claude/index.js";

const parent = {
  PATH: "/bin",
  HOME: "/home/u",
  LC_ALL: "C",
  TELECODE_BOT_TOKEN: "123:secret",
  GITHUB_TOKEN: "gh-secret",
  ANTHROPIC_API_KEY: "sk-ant",
  ANTHROPIC_AUTH_TOKEN: "gateway-token",
  ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
  CLAUDE_CODE_MAX_RETRIES: "2",
  CLAUDE_CODE_OAUTH_TOKEN: "oauth-token",
  CLAUDE_CODE_USE_BEDROCK: "1",
  CLAUDE_CODE_USE_FOUNDRY: "1",
  AWS_REGION: "eu-west-1",
  AWS_ACCESS_KEY_ID: "AKIA",
  AWS_SECRET_ACCESS_KEY: "aws-secret",
  ANTHROPIC_BEDROCK_BASE_URL: "https://bedrock.example",
  GOOGLE_APPLICATION_CREDENTIALS: "/home/u/gcp.json",
  CLOUD_ML_REGION: "us-east5",
  ANTHROPIC_VERTEX_PROJECT_ID: "proj",
  HTTPS_PROXY: "http://proxy",
  MY_TOOL_HOME: "/opt/tool",
  // Telecode started from a Claude Code hook: the CLI sets its own for its hooks, and one passed
  // down would mark every process as a hook's (process/end-tree.ts).
  CLAUDE_PROJECT_DIR: "/home/u/elsewhere",
};

const common = {
  PATH: "/bin",
  HOME: "/home/u",
  LC_ALL: "C",
  ANTHROPIC_BASE_URL: "http://127.0.0.1:1",
  CLAUDE_CODE_MAX_RETRIES: "2",
  HTTPS_PROXY: "http://proxy",
  TELECODE_SESSION: "1",
  // A refusal to start comes as a result naming its cause (startup-refusals.ts).
  CLAUDE_CODE_STARTUP_FAILURE_RESULTS: "1",
};

describe("buildChildEnv", () => {
  it("with the subscription login: the OAuth token only, no API key, gateway token or cloud credentials", () => {
    expect(buildChildEnv(parent)).toEqual({ ...common, CLAUDE_CODE_OAUTH_TOKEN: "oauth-token" });
  });

  it("with API billing: the API key and token, not the OAuth token", () => {
    expect(buildChildEnv(parent, { useApiBilling: true })).toEqual({
      ...common,
      ANTHROPIC_API_KEY: "sk-ant",
      ANTHROPIC_AUTH_TOKEN: "gateway-token",
    });
  });

  it("with Bedrock: AWS credentials and the Bedrock switch, nothing of Anthropic's or Google's", () => {
    expect(buildChildEnv(parent, { provider: "bedrock", useApiBilling: true })).toEqual({
      ...common,
      CLAUDE_CODE_USE_BEDROCK: "1",
      AWS_REGION: "eu-west-1",
      AWS_ACCESS_KEY_ID: "AKIA",
      AWS_SECRET_ACCESS_KEY: "aws-secret",
      ANTHROPIC_BEDROCK_BASE_URL: "https://bedrock.example",
    });
  });

  it("with Vertex: Google credentials and the Vertex switch", () => {
    expect(buildChildEnv({ ...parent, GCLOUD_PROJECT: "p" }, { provider: "vertex" })).toEqual({
      ...common,
      CLAUDE_CODE_USE_VERTEX: "1",
      GOOGLE_APPLICATION_CREDENTIALS: "/home/u/gcp.json",
      CLOUD_ML_REGION: "us-east5",
      ANTHROPIC_VERTEX_PROJECT_ID: "proj",
      GCLOUD_PROJECT: "p",
    });
  });

  it("adds names from env_allow, except those that choose how Claude logs in, and the cron switch", () => {
    const env = buildChildEnv(parent, {
      envAllow: ["MY_TOOL_HOME", "AWS_SECRET_ACCESS_KEY", "CLAUDE_CODE_USE_FOUNDRY", "ANTHROPIC_API_KEY"],
      disableCron: true,
    });
    expect(env["MY_TOOL_HOME"]).toBe("/opt/tool");
    expect(env["AWS_SECRET_ACCESS_KEY"]).toBe("aws-secret");
    expect(env["CLAUDE_CODE_USE_FOUNDRY"]).toBe("1");
    expect(env["CLAUDE_CODE_DISABLE_CRON"]).toBe("1");
    expect(env["ANTHROPIC_API_KEY"]).toBeUndefined();
    expect(buildChildEnv(parent, { envAllow: ["CLAUDE_CODE_USE_BEDROCK"] })["CLAUDE_CODE_USE_BEDROCK"]).toBeUndefined();
  });
});
