// Issue 16, bypasses, with the real CLI: a --settings in claude.extra_args that allows Bash is
// refused at load (run, serve, doctor); only the explicit opt-in lets it through, loudly. The
// CLI's environment holds only the credentials of the configured login, and a malformed
// TELECODE_BOT_TOKEN is refused like one in the file.
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { useWorld } from "./helpers.js";

const newWorld = useWorld();

const ALLOW_BASH = `extra_args = ["--settings", '{"permissions":{"allow":["Bash"]}}']`;
const touch = reply.bash("touch bypassed.txt", "Create a file");

describe("claude.extra_args cannot bypass approvals", () => {
  it("refuses --settings at load: run, serve and doctor say why, and no CLI is started", async () => {
    const world = await newWorld([touch, reply.text("Done.")]);
    await world.writeConfig({ claude: ["use_api_billing = true", ALLOW_BASH] });
    const run = await world.run(["--approve", "none", "Create the file"]);
    expect(run.code).toBe(2);
    expect(run.err).toContain('claude.extra_args: "--settings" is refused because its permission rules and hooks');
    expect(run.err).toContain("claude.dangerously_allow_unsafe_args");
    const serve = await world.telecode(["--config", world.configPath]);
    expect(serve.code).toBe(78);
    expect(serve.err).toContain('"--settings" is refused');
    const doctor = await world.telecode(["doctor", "--config", world.configPath]);
    expect(doctor.out).toMatch(/✗ config .*"--settings" is refused/);
    expect(world.api.requests()).toEqual([]);
    expect(existsSync(join(world.ws.cwd, "bypassed.txt"))).toBe(false);
  });

  it("lets it through only with claude.dangerously_allow_unsafe_args, warning at run, start and in doctor", async () => {
    const world = await newWorld([touch, reply.text("Done.")]);
    await world.writeConfig({
      claude: ["use_api_billing = true", ALLOW_BASH, 'dangerously_allow_unsafe_args = ["--settings"]'],
    });
    const run = await world.run(["--approve", "none", "Create the file"]);
    expect(run.code).toBe(0);
    expect(run.err).toContain("⚠ claude.dangerously_allow_unsafe_args lets --settings reach Claude Code");
    // The settings allowed Bash although nobody could approve it: the bypass the person asked for.
    expect(existsSync(join(world.ws.cwd, "bypassed.txt"))).toBe(true);

    const doctor = await world.telecode(["doctor", "--config", world.configPath]);
    expect(doctor.out).toMatch(/! approvals +claude\.dangerously_allow_unsafe_args lets --settings/);

    const serve = world.spawnTelecode(["--config", world.configPath]);
    await serve.started;
    expect(serve.stderr()).toContain("telecode: warning: claude.dangerously_allow_unsafe_args lets --settings");
    serve.child.kill("SIGTERM");
    expect((await serve.exited).code).toBe(0);
    const log = await readFile(join(world.dataDir, "logs", "telecode.log"), "utf8");
    const warning = log
      .split("\n")
      .filter((line) => line.includes('"config.warning"'))
      .map((line) => JSON.parse(line) as { code?: string; level?: number });
    expect(warning).toEqual([expect.objectContaining({ code: "claude.unsafe_args", level: 40 })]);
  }, 120_000);
});

/** The CLI's own environment, as its Bash tool's parent process holds it (Linux /proc). */
const PRINT_CLI_ENV = "tr '\\0' '\\n' < /proc/$PPID/environ";

function cliEnvironment(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split("\n")
      .filter((line) => line.includes("="))
      .map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
}

const secrets = {
  AWS_ACCESS_KEY_ID: "AKIAFAKE",
  AWS_SECRET_ACCESS_KEY: "aws-secret-value",
  GITHUB_TOKEN: "gh-secret-value",
  MY_TOOL_HOME: "/opt/tool",
};

describe.skipIf(process.platform !== "linux")("credentials reaching the CLI", () => {
  it("with the subscription login: the OAuth token, not the API key, gateway token or AWS secrets", async () => {
    const world = await newWorld([reply.bash(PRINT_CLI_ENV, "Show the environment"), reply.text("Shown.")]);
    await world.writeConfig({ claude: ['env_allow = ["MY_TOOL_HOME"]'] });
    const env = {
      ...world.ws.env,
      ...secrets,
      ANTHROPIC_API_KEY: "sk-ant-api03-not-for-the-subscription",
      ANTHROPIC_AUTH_TOKEN: "gateway-token-value",
      CLAUDE_CODE_OAUTH_TOKEN: "oauth-token-value",
    };
    expect((await world.run(["--approve", "all", "Show env"], env)).code).toBe(0);
    const [first, second] = world.api.requests();
    // The model calls used the subscription's token: nothing billed the API.
    expect(first?.headers["authorization"]).toBe("Bearer oauth-token-value");
    expect(first?.headers["x-api-key"]).toBeUndefined();
    const cli = cliEnvironment(second?.toolResults[0]?.text ?? "");
    expect(cli["PATH"]).toBeDefined();
    expect(cli["MY_TOOL_HOME"]).toBe("/opt/tool");
    expect(cli["CLAUDE_CODE_OAUTH_TOKEN"]).toBe("oauth-token-value");
    for (const name of ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"])
      expect(cli[name], name).toBeUndefined();
    expect(cli["GITHUB_TOKEN"]).toBeUndefined();
  });

  it("with API billing: the API key, not the OAuth token or AWS secrets", async () => {
    const world = await newWorld([reply.bash(PRINT_CLI_ENV, "Show the environment"), reply.text("Shown.")]);
    await world.writeConfig();
    const env = { ...world.ws.env, ...secrets, CLAUDE_CODE_OAUTH_TOKEN: "oauth-token-value" };
    expect((await world.run(["--approve", "all", "Show env"], env)).code).toBe(0);
    const [first, second] = world.api.requests();
    expect(first?.headers["x-api-key"]).toBe("test-key");
    const cli = cliEnvironment(second?.toolResults[0]?.text ?? "");
    expect(cli["ANTHROPIC_API_KEY"]).toBe("test-key");
    for (const name of ["CLAUDE_CODE_OAUTH_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "MY_TOOL_HOME"])
      expect(cli[name], name).toBeUndefined();
  });
});

describe("TELECODE_BOT_TOKEN", () => {
  it("is refused like a malformed token in the file, without being shown", async () => {
    const world = await newWorld();
    await world.writeConfig();
    const env = { ...world.ws.env, TELECODE_BOT_TOKEN: "my secret token with spaces" };
    const serve = await world.telecode(["--config", world.configPath], env);
    expect(serve.code).toBe(78);
    expect(serve.err).toContain(
      'environment: TELECODE_BOT_TOKEN must look like "123456789:AA…" (the token @BotFather gave you)',
    );
    expect(serve.err).not.toContain("my secret token");
    expect(world.tg.calls()).toEqual([]);
  });
});
