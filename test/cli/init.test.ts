// `telecode init` against the shared local Bot API fake and a temp HOME: scripted flags,
// finding the user id from a message, and an interactive run driven through @clack/prompts.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runInit } from "../../src/cli/init.js";
import { loadConfig } from "../../src/config/index.js";
import { capturedIo, type CapturedIo } from "../support/captured-io.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";
import { startHttpProxy } from "../support/proxies.js";
import { startTlsFront } from "../support/tls-front.js";

/** This checkout: where a newcomer runs `npm start` and `npx telecode init`. */
const telecodeDir = resolve(import.meta.dirname, "../..");
const telecodeBin = join(telecodeDir, "bin", "telecode.js");

let fake: FakeBotApi;
let home: string;
let project: string;
let configPath: string;

beforeEach(async () => {
  fake = await startFakeBotApi({ bot: { username: "tc_test_bot" } });
  home = mkdtempSync(join(tmpdir(), "telecode-init-"));
  project = join(home, "code", "app");
  mkdirSync(project, { recursive: true });
  configPath = join(home, ".config", "telecode", "config.toml");
});
afterEach(async () => {
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

/** An io whose CLI lookups cannot find a real `claude`, so init's CLI check is quick and offline. */
function capture(env: Record<string, string> = {}): CapturedIo {
  return capturedIo({ HOME: home, PATH: "/nonexistent", TELECODE_CLAUDE_PATH: join(home, "no-claude"), ...env });
}

const flags = (...extra: string[]): string[] => ["--bot-token", fake.token, "--api-root", fake.apiRoot, ...extra];

describe("telecode init, non-interactive", () => {
  it("writes a 0600 config from flags alone and prints the next command", async () => {
    const c = capture();
    const code = await runInit(
      flags("--user-id", "42,43", "--project-dir", project, "--mode", "plan", "--config", configPath),
      c,
      { cwd: home },
    );
    expect(c.err()).toBe("");
    expect(code).toBe(0);
    expect(statSync(configPath).mode & 0o777).toBe(0o600);
    const { config, warnings } = loadConfig({ configPath, env: { HOME: home } });
    expect(warnings).toEqual([]);
    expect(config.telegram).toMatchObject({ botToken: fake.token, allowedUserIds: [42, 43], apiRoot: fake.apiRoot });
    expect(config.claude.permissionMode).toBe("plan");
    expect(config.projects).toEqual([
      { name: "app", path: project, isDefault: true, worktreesDir: null, worktreeBase: null },
    ]);
    expect(c.out()).toContain("Bot token works: @tc_test_bot");
    // Outside a clone and with no `telecode` on PATH, only the full path works.
    expect(c.out()).toContain(`\`node ${telecodeBin} doctor --config ${configPath}\``);
    expect(c.out()).toMatch(/Claude Code CLI not found \(looked for: .*no-claude\)\. Install it with/);
  });

  it("finds the user id from the first new message with --yes, skipping older ones, and acknowledges it", async () => {
    fake.addUser({ id: 666, firstName: "Stranger" });
    fake.addUser({ id: 42, firstName: "Ada", username: "ada" });
    fake.sendText(666, "sent before init started");
    const c = capture();
    const running = runInit(flags("--yes", "--wait-seconds", "60"), c, { cwd: project });
    await fake.waitFor(() => fake.calls("getUpdates").length >= 2 && fake.pollsWaiting() > 0, {
      what: "init's long poll",
    });
    fake.sendText(42, "hello bot");
    expect(await running).toBe(0);
    expect(c.out()).toContain('Message from Ada (@ada, id 42): "hello bot"');
    expect(c.out()).not.toContain("Stranger");
    const { config } = loadConfig({ env: { HOME: home } });
    expect(config.telegram.allowedUserIds).toEqual([42]);
    expect(config.projects[0]?.path).toBe(project);
    await fake.waitFor(() => fake.pendingUpdates() === 0, { what: "acknowledged updates" });
    // The person is answered in the chat they wrote from, with the command that starts Telecode.
    const note = fake.lastBotMessage(42)?.text ?? "";
    expect(note).toContain("Telecode is set up for you, Ada: this bot answers only you (user id 42).");
    expect(note).toContain(`Start it on your computer with node ${telecodeBin}, then send me a task here.`);
    expect(fake.botMessages(666)).toEqual([]);
    expect(c.out()).toContain("Answered Ada (@ada, id 42) in Telegram.");
  });

  it("behind a proxy, checks the token, learns the user id and answers them through it", async () => {
    const port = Number(new URL(fake.apiRoot).port);
    const proxy = await startHttpProxy({ "telegram.test": port });
    try {
      fake.addUser({ id: 42, firstName: "Ada" });
      const c = capture({ HTTP_PROXY: proxy.url });
      const apiRoot = `http://telegram.test:${port}`;
      const args = ["--bot-token", fake.token, "--api-root", apiRoot, "--yes", "--wait-seconds", "60"];
      const running = runInit(args, c, { cwd: project });
      await fake.waitFor(() => fake.pollsWaiting() > 0, { what: "init's long poll" });
      fake.sendText(42, "hello bot");
      expect(await running).toBe(0);
      expect(c.out()).toContain("Bot token works: @tc_test_bot");
      expect(fake.lastBotMessage(42)?.text).toContain("Telecode is set up for you, Ada");
      const asked = proxy.seen.map((seen) => seen.split("/").at(-1));
      for (const method of ["getMe", "getUpdates", "sendMessage"]) expect(asked).toContain(method);
    } finally {
      await proxy.close();
    }
  });

  it("removes a webhook on the bot, which would keep its messages from init, and says so", async () => {
    fake.addUser({ id: 42, firstName: "Ada" });
    fake.setWebhook("https://hooks.example.com/telegram/s3cret");
    const c = capture();
    const running = runInit(flags("--yes", "--wait-seconds", "60"), c, { cwd: project });
    await fake.waitFor(() => fake.pollsWaiting() > 0, { what: "init's long poll" });
    fake.sendText(42, "hello bot");
    expect(await running).toBe(0);
    expect(fake.webhookUrl).toBe("");
    const said = `${c.out()}${c.err()}`;
    expect(said).toContain(
      "This bot had a webhook (https://hooks.example.com); Telegram sends a bot's messages to a webhook or to polling, not both, so Telecode removed it.",
    );
    expect(said).not.toContain("s3cret");
  });

  it("names the commands that work from a clone: npx telecode, and npm start", async () => {
    const c = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", project), c, { cwd: telecodeDir })).toBe(0);
    expect(c.out()).toContain(
      "Next: `npx telecode doctor` to check everything, then `npm start` (or `npx telecode`) to start the bridge (or `npx telecode service install` to keep it running).",
    );
  });

  it("names plain `telecode` when that is this install on PATH", async () => {
    const bin = join(home, "bin");
    mkdirSync(bin);
    symlinkSync(telecodeBin, join(bin, "telecode"));
    const c = capture({ PATH: bin });
    expect(
      await runInit(flags("--user-id", "1", "--project-dir", project, "--config", configPath), c, { cwd: home }),
    ).toBe(0);
    expect(c.out()).toContain(`Next: \`telecode doctor --config ${configPath}\``);
  });

  it("does not take Telecode's own checkout as the project with --yes", async () => {
    const c = capture();
    expect(await runInit(flags("--user-id", "1", "--yes"), c, { cwd: telecodeDir })).toBe(1);
    expect(c.err()).toContain(`The current directory (${telecodeDir}) is Telecode itself, not a project for Claude.`);
    expect(c.err()).toContain("Pass --project-dir");
    expect(existsSync(configPath)).toBe(false);
  });

  it("--auth api-key turns on API billing and warns when ANTHROPIC_API_KEY is not set", async () => {
    const noKey = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", project, "--auth", "api-key"), noKey)).toBe(0);
    expect(loadConfig({ env: { HOME: home } }).config.claude.useApiBilling).toBe(true);
    expect(noKey.out()).toContain(
      "! Claude login: claude.use_api_billing is on but neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN is set.",
    );
    const withKey = capture({ ANTHROPIC_API_KEY: "sk-test-key" });
    expect(
      await runInit(flags("--user-id", "1", "--project-dir", project, "--auth", "api-key", "--yes"), withKey),
    ).toBe(0);
    expect(withKey.out()).not.toContain("ANTHROPIC_API_KEY nor");
    expect(withKey.out()).toContain("Claude login: API billing (ANTHROPIC_API_KEY is set)");
    const login = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", project, "--yes"), login)).toBe(0);
    expect(loadConfig({ env: { HOME: home } }).config.claude.useApiBilling).toBe(false);
    const bad = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", project, "--auth", "oauth", "--yes"), bad)).toBe(1);
    expect(bad.err()).toContain("--auth must be login or api-key (got oauth).");
  });

  it("keeps the token out of the file when it comes from TELECODE_BOT_TOKEN", async () => {
    const c = capture({ TELECODE_BOT_TOKEN: fake.token });
    expect(await runInit(["--api-root", fake.apiRoot, "--user-id", "1", "--project-dir", project], c)).toBe(0);
    const text = readFileSync(configPath, "utf8");
    expect(text).not.toContain(fake.token);
    expect(loadConfig({ env: { HOME: home, TELECODE_BOT_TOKEN: fake.token } }).config.telegram.botToken).toBe(
      fake.token,
    );
  });

  it("refuses a token Telegram rejects, and writes nothing", async () => {
    const c = capture();
    const code = await runInit(
      [
        "--bot-token",
        "123:AAnot-the-right-token-for-this-fake-bot",
        "--api-root",
        fake.apiRoot,
        "--user-id",
        "1",
        "--project-dir",
        project,
      ],
      c,
    );
    expect(code).toBe(1);
    expect(c.err()).toContain("Telegram refused this token (401 Unauthorized)");
    expect(c.err()).not.toContain("AAnot-the-right-token");
    expect(existsSync(configPath)).toBe(false);
  });

  it("says what to do when the Bot API's certificate is not trusted here", async () => {
    const front = await startTlsFront(Number(new URL(fake.apiRoot).port));
    try {
      const c = capture();
      const args = ["--bot-token", fake.token, "--api-root", front.root, "--user-id", "1", "--project-dir", project];
      expect(await runInit(args, c)).toBe(1);
      expect(c.err()).toContain(
        `Could not reach the Telegram Bot API at ${front.root} (fetch failed: self-signed certificate): the certificate on the way is not one this computer trusts, as when a company proxy or firewall inspects TLS: give Node that company's CA certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment Telecode starts in (Claude Code needs it too).`,
      );
    } finally {
      await front.close();
    }
  });

  it("says the Bot API cannot be reached", async () => {
    const port = await freePort();
    const c = capture();
    const code = await runInit(
      ["--bot-token", fake.token, "--api-root", `http://127.0.0.1:${port}`, "--user-id", "1", "--project-dir", project],
      c,
    );
    expect(code).toBe(1);
    expect(c.err()).toContain(`Could not reach the Telegram Bot API at http://127.0.0.1:${port}`);
  });

  it("asks for the missing flags instead of guessing", async () => {
    const noUser = capture();
    expect(await runInit(flags("--project-dir", project), noUser)).toBe(1);
    expect(noUser.err()).toContain("pass --user-id, or --yes");
    const noToken = capture();
    expect(await runInit(["--api-root", fake.apiRoot], noToken)).toBe(1);
    expect(noToken.err()).toContain("pass --bot-token or set TELECODE_BOT_TOKEN");
    const badId = capture();
    expect(await runInit(flags("--user-id", "me", "--project-dir", project), badId)).toBe(1);
    expect(badId.err()).toContain("--user-id must be a numeric Telegram user id (got me)");
  });

  it("never prints a token or API key pasted into the wrong flag", async () => {
    const otherToken = `987654321:${"B".repeat(35)}`;
    const asId = capture();
    expect(await runInit(flags("--user-id", otherToken, "--project-dir", project), asId)).toBe(1);
    expect(asId.err()).toContain("--user-id must be a numeric Telegram user id (got 987654321:[redacted])");
    expect(asId.out() + asId.err()).not.toContain("B".repeat(35));
    const asMode = capture({ ANTHROPIC_API_KEY: "key-from-the-environment" });
    expect(await runInit(flags("--user-id", "1", "--project-dir", project, "--mode", fake.token), asMode)).toBe(1);
    expect(asMode.err()).toContain("--mode must be one of");
    expect(asMode.out() + asMode.err()).not.toContain(fake.token);
    const keyAsMode = capture({ ANTHROPIC_API_KEY: "key-from-the-environment" });
    expect(
      await runInit(flags("--user-id", "1", "--project-dir", project, "--mode", "key-from-the-environment"), keyAsMode),
    ).toBe(1);
    expect(keyAsMode.err()).toContain("(got [redacted])");
    expect(existsSync(configPath)).toBe(false);
  });

  it("refuses a project directory that does not exist, and an unknown mode", async () => {
    const missing = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", join(home, "nope")), missing)).toBe(1);
    expect(missing.err()).toContain(`The project directory must exist: ${join(home, "nope")} does not exist`);
    const mode = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", project, "--mode", "yolo"), mode)).toBe(1);
    expect(mode.err()).toContain("--mode must be one of default, acceptEdits, plan, plan-auto, auto, dontAsk");
    expect(existsSync(configPath)).toBe(false);
  });

  it("checks --mode and --wait-seconds before it asks Telegram anything", async () => {
    const before = fake.calls("getMe").length + fake.calls("getUpdates").length;
    const mode = capture();
    expect(await runInit(flags("--project-dir", project, "--mode", "plan_auto"), mode)).toBe(1);
    expect(mode.err()).toContain("--mode must be one of default, acceptEdits, plan, plan-auto");
    const wait = capture();
    expect(await runInit(flags("--project-dir", project, "--wait-seconds", "abc"), wait)).toBe(1);
    expect(wait.err()).toContain("--wait-seconds must be a positive number of seconds.");
    expect(fake.calls("getMe").length + fake.calls("getUpdates").length).toBe(before);
    expect(existsSync(configPath)).toBe(false);
  });

  it("replaces an existing config only with --yes", async () => {
    mkdirSync(join(home, ".config", "telecode"), { recursive: true });
    writeFileSync(configPath, "# mine\n");
    const kept = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", project), kept)).toBe(1);
    expect(kept.err()).toContain("already exists. Pass --yes to replace it");
    expect(readFileSync(configPath, "utf8")).toBe("# mine\n");
    const replaced = capture();
    expect(await runInit(flags("--user-id", "1", "--project-dir", project, "--yes"), replaced)).toBe(0);
    expect(loadConfig({ env: { HOME: home } }).config.telegram.allowedUserIds).toEqual([1]);
  });

  it("prints help, and refuses unknown flags with exit code 2", async () => {
    const help = capture();
    expect(await runInit(["--help"], help)).toBe(0);
    expect(help.out()).toContain("--project-dir DIR");
    const bad = capture();
    expect(await runInit(["--colour"], bad)).toBe(2);
    expect(bad.err()).toContain("--colour");
  });
});

describe("telecode init, interactive", () => {
  /** A scripted terminal: waits for a prompt to appear on the output, then types the answer. */
  function terminal() {
    const input = new PassThrough();
    const output = new PassThrough();
    let screen = "";
    let seen = 0;
    const listeners = new Set<() => void>();
    output.on("data", (d: Buffer) => {
      screen += d.toString();
      for (const l of listeners) l();
    });
    return {
      input,
      output,
      screen: () => screen,
      /** Waits for `text` to appear after what earlier waits consumed, then types `keys`. */
      answer(text: string, keys: string): Promise<void> {
        return new Promise((resolve) => {
          const check = (): void => {
            const at = screen.indexOf(text, seen);
            if (at < 0) return;
            listeners.delete(check);
            seen = at + text.length;
            // clack draws a prompt before it listens for "submit" in the same synchronous
            // step; typing from inside the draw would be lost, so type once that step is over.
            setImmediate(() => {
              input.write(keys);
              resolve();
            });
          };
          listeners.add(check);
          check();
        });
      },
    };
  }

  it("asks every question, re-asks a refused token, lets the person pick who is allowed", async () => {
    fake.addUser({ id: 666, firstName: "Stranger" });
    fake.addUser({ id: 42, firstName: "Ada", username: "ada" });
    const t = terminal();
    const c = capture();
    const running = runInit(["--api-root", fake.apiRoot], c, {
      interactive: true,
      input: t.input,
      output: t.output,
      cwd: project,
    });

    await t.answer("Bot token", "123:AAnot-the-right-token-for-this-fake-bot\r");
    await t.answer("Telegram refused this token", "");
    await t.answer("Bot token", `${fake.token}\r`);
    await t.answer("Now send any message to @tc_test_bot", "");
    await fake.waitFor(() => fake.pollsWaiting() > 0, { what: "init's long poll" });
    fake.sendText(666, "me too");
    await t.answer("Allow Stranger (id 666) to use this bot?", "n\r");
    await fake.waitFor(() => fake.pollsWaiting() > 0, { what: "init's next long poll" });
    fake.sendText(42, "it's me");
    await t.answer("Allow Ada (@ada, id 42) to use this bot?", "y\r");
    await t.answer("Project directory", "\r");
    await t.answer("Permission mode", "\x1b[B\r");
    await t.answer("How does Claude Code sign in?", "\x1b[B\r");

    expect(await running).toBe(0);
    const { config } = loadConfig({ env: { HOME: home } });
    expect(config.telegram).toMatchObject({ botToken: fake.token, allowedUserIds: [42] });
    expect(config.projects[0]?.path).toBe(project);
    expect(config.claude.permissionMode).toBe("acceptEdits");
    expect(config.claude.useApiBilling).toBe(true);
    expect(t.screen()).toContain("claude.use_api_billing is on but neither ANTHROPIC_API_KEY");
    expect(t.screen()).toContain(`Wrote ${configPath}`);
    expect(t.screen()).toContain(`node ${telecodeBin} doctor`);
  });

  it("in Telecode's own checkout, offers no project directory: Enter asks for one", async () => {
    const t = terminal();
    const running = runInit(["--api-root", fake.apiRoot, "--bot-token", fake.token, "--user-id", "1"], capture(), {
      interactive: true,
      input: t.input,
      output: t.output,
      cwd: telecodeDir,
    });
    await t.answer("Project directory", "\r");
    await t.answer("Type the path of the project Claude should work in.", `${project}\r`);
    await t.answer("Permission mode", "\r");
    await t.answer("How does Claude Code sign in?", "\r");
    expect(await running).toBe(0);
    const { config } = loadConfig({ env: { HOME: home } });
    expect(config.projects[0]?.path).toBe(project);
    expect(config.claude.useApiBilling).toBe(false);
    expect(t.screen()).toContain("`npm start` (or `npx telecode`)");
  });

  it("writes nothing when the person cancels", async () => {
    const t = terminal();
    const c = capture();
    const running = runInit(["--api-root", fake.apiRoot], c, {
      interactive: true,
      input: t.input,
      output: t.output,
      cwd: project,
    });
    await t.answer("Bot token", "\x03");
    expect(await running).toBe(1);
    expect(c.err()).toContain("Set-up cancelled; nothing was written.");
    expect(existsSync(configPath)).toBe(false);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
