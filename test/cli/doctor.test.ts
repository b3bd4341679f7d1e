// `telecode doctor` against the shared local Bot API fake, a temp HOME, the real pinned CLI
// and small stand-in CLIs that print other versions: ✓ when all is well, ✗ with a fix otherwise,
// ! for a CLI outside the tested range (also logged at start).
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runDoctor } from "../../src/cli/doctor.js";
import { checkLongPdfs } from "../../src/cli/doctor-pdf.js";
import { checkWorktrees } from "../../src/cli/doctor-worktrees.js";
import type { ProjectConfig } from "../../src/config/index.js";
import { describeRange, judgeClaudeVersion, logClaudeVersion, testedRange } from "../../src/cli/doctor-version.js";
import { createLogger } from "../../src/log/index.js";
import type { CommandIo } from "../../src/cli/command-io.js";
import { NO_CAPS, NO_OVERRIDES } from "../../src/schedule/index.js";
import { DATABASE_FILE, openStore } from "../../src/store/index.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";
import { startHttpProxy } from "../support/proxies.js";
import { telecodeBin } from "../support/telecode-bin.js";
import { startTlsFront, TEST_CA_FILE } from "../support/tls-front.js";
import { fillDisk, mountTmpfs, tmpfsMountable } from "../support/tmpfs.js";
import {
  pinnedVersion,
  recordedVersions,
  TESTED_RANGE_MODULE,
  testedRangeSource,
} from "../support/recorder/tested-range.js";
import { PINNED_CLAUDE_VERSION } from "../../src/cli/doctor-tested-range.js";

const REAL_CLAUDE = resolve("node_modules/.bin/claude");

/** The range Telecode ships (every version with recordings; the pinned one is among them). */
const RANGE = describeRange(testedRange());
const RANGE_RE = RANGE.replace(/\./g, "\\.");
const PINNED_RE = PINNED_CLAUDE_VERSION.replace(/\./g, "\\.");

let fake: FakeBotApi;
let home: string;
let project: string;
let configPath: string;

beforeEach(async () => {
  fake = await startFakeBotApi({ bot: { username: "tc_test_bot" } });
  home = mkdtempSync(join(tmpdir(), "telecode-doctor-"));
  project = join(home, "code", "app");
  mkdirSync(project, { recursive: true });
  configPath = join(home, ".config", "telecode", "config.toml");
  // A stored login, as `claude` leaves it after /login.
  mkdirSync(join(home, ".claude"));
  writeFileSync(join(home, ".claude", ".credentials.json"), "{}");
});
afterEach(async () => {
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

function writeConfig(body: string): void {
  mkdirSync(join(home, ".config", "telecode"), { recursive: true });
  writeFileSync(configPath, body, { mode: 0o600 });
  chmodSync(configPath, 0o600);
}

const goodConfig = (extra = ""): string =>
  `[telegram]\nbot_token = "${fake.token}"\nallowed_user_ids = [42]\napi_root = "${fake.apiRoot}"\n[projects.app]\npath = "${project}"\n${extra}`;

/** A stand-in CLI that only answers --version. */
function fakeClaude(version: string): string {
  const path = join(home, `claude-${version}`);
  writeFileSync(path, `#!/bin/sh\necho "${version} (Claude Code)"\n`, { mode: 0o755 });
  return path;
}

async function doctor(env: Record<string, string> = {}, argv: string[] = []): Promise<{ code: number; out: string }> {
  const stdout = new PassThrough();
  let out = "";
  stdout.on("data", (d: Buffer) => (out += d.toString()));
  const io: CommandIo = {
    stdout,
    stderr: new PassThrough(),
    env: {
      HOME: home,
      PATH: process.env["PATH"] ?? "",
      DISABLE_AUTOUPDATER: "1",
      TELECODE_CLAUDE_PATH: REAL_CLAUDE,
      ...env,
    },
  };
  const code = await runDoctor(argv, io, { cwd: home, platform: "linux" });
  return { code, out };
}

const line = (out: string, label: string): string =>
  out.split("\n").find((l) => l.slice(2).startsWith(label)) ?? `(no line for ${label})`;

describe("telecode doctor", () => {
  it("fails a project whose folder is missing now, with how to fix it, and checks the rest", async () => {
    const ext = join(home, "ext", "app");
    writeConfig(goodConfig(`[projects.ext]\npath = "${ext}"\n`));
    const { code, out } = await doctor();
    expect(code).toBe(1);
    expect(line(out, "project ext")).toContain(`✗ project ext`);
    expect(out).toContain(`${ext} is not an existing folder, so its messages fail`);
    expect(out).toContain("put the folder back (or mount its drive), or fix projects.ext.path");
    expect(line(out, "project app")).toContain(`✓ project app`);
    expect(line(out, "bot token")).toContain("valid: @tc_test_bot");
    expect(out).toContain("1 problem to fix.");
  });

  it("passes with a working setup and lists what it checked", async () => {
    writeConfig(goodConfig());
    const { code, out } = await doctor();
    expect(out).not.toContain("✗");
    expect(code).toBe(0);
    expect(line(out, "config ")).toContain(`✓ config`);
    expect(line(out, "Bot API")).toContain(`reachable at ${fake.apiRoot}`);
    expect(line(out, "bot token")).toContain("valid: @tc_test_bot");
    expect(line(out, "groups")).toContain(
      "privacy mode is on: in a group where the bot is no admin, Telegram hands it only commands and replies to its messages, not @mentions",
    );
    expect(out).not.toContain("bot webhook");
    expect(line(out, "allowed users")).toContain("42");
    expect(line(out, "project app")).toContain(`${project} (default)`);
    expect(line(out, "Claude CLI")).toMatch(
      new RegExp(`^✓ Claude CLI +${PINNED_RE}, within the tested range \\(${RANGE_RE}\\) \\(/`),
    );
    expect(line(out, "Claude CLI")).toContain(`(${REAL_CLAUDE})`);
    expect(line(out, "Claude login")).toContain("logged in");
    expect(line(out, "database")).toContain(join(home, ".local", "share", "telecode", DATABASE_FILE));
    expect(line(out, "long PDFs")).toMatch(/^[✓!] long PDFs/);
    expect(out).toContain("All good.");
    expect(out).not.toContain(fake.token);
  });

  it("warns of a webhook on the bot, naming its site only", async () => {
    writeConfig(goodConfig());
    fake.setWebhook("https://hooks.example.com/telegram/s3cret");
    const { code, out } = await doctor();
    expect(code).toBe(0);
    expect(line(out, "bot webhook")).toBe(
      "! bot webhook    set, to https://hooks.example.com: Telegram sends this bot's messages there, not to Telecode",
    );
    expect(out).toContain(
      "fix: Telecode removes it when it starts; if another program set it, give Telecode a bot of its own (@BotFather, /newbot)",
    );
    expect(out).not.toContain("s3cret");
  });

  it("fails with a fix for each problem: rejected token, no users, missing CLI, open permissions", async () => {
    writeConfig(goodConfig().replace(fake.token, "123:AAnot-the-right-token-for-this-fake-bot").replace("[42]", "[]"));
    chmodSync(configPath, 0o644);
    const { code, out } = await doctor({ TELECODE_CLAUDE_PATH: join(home, "missing-claude") });
    expect(code).toBe(1);
    expect(line(out, "config permissions")).toMatch(/^✗ .*readable by other users/);
    expect(out).toContain(`fix: chmod 600 ${configPath}`);
    expect(line(out, "bot token")).toMatch(/^✗ .*rejected by Telegram \(401 Unauthorized\)/);
    expect(out).toContain("fix: copy the token from @BotFather");
    expect(line(out, "allowed users")).toMatch(/^✗ /);
    expect(line(out, "Claude CLI")).toMatch(/^✗ Claude CLI +not found \(looked for: \/.*missing-claude\)$/);
    expect(out).toContain(`fix: npm i -g @anthropic-ai/claude-code@${PINNED_CLAUDE_VERSION}, or set claude.path`);
    expect(out).toContain("4 problems to fix.");
    expect(out).not.toContain("AAnot-the-right-token");
  });

  it("says the Bot API is unreachable", async () => {
    writeConfig(goodConfig());
    await fake.close();
    const { code, out } = await doctor();
    expect(code).toBe(1);
    expect(line(out, "Bot API")).toMatch(/^✗ .*cannot reach/);
    expect(out).toContain(
      "fix: check the network, or telegram.api_root; behind a proxy, set HTTPS_PROXY (as for Claude Code)",
    );
  });

  it("reaches the Bot API through the proxy the environment names, and says so", async () => {
    const proxy = await startHttpProxy({ "telegram.test": Number(new URL(fake.apiRoot).port) });
    try {
      const apiRoot = `http://telegram.test:${new URL(fake.apiRoot).port}`;
      writeConfig(goodConfig().replace(fake.apiRoot, apiRoot));
      const { out } = await doctor({ HTTP_PROXY: proxy.url });
      expect(line(out, "Bot API")).toBe(`✓ Bot API        reachable at ${apiRoot} through ${proxy.url} (HTTP_PROXY)`);
      expect(line(out, "bot token")).toMatch(/^✓ /);
      expect(proxy.seen.some((seen) => seen.endsWith("/getMe"))).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it("says when a proxy answers in the Bot API's place (one that refuses Telegram)", async () => {
    const proxy = await startHttpProxy({}, { refuseConnect: true });
    try {
      writeConfig(goodConfig().replace(fake.apiRoot, "https://api.telegram.org"));
      const { code, out } = await doctor({ HTTPS_PROXY: proxy.url });
      expect(code).toBe(1);
      expect(line(out, "Bot API")).toBe(
        `✗ Bot API        cannot reach https://api.telegram.org through ${proxy.url} (HTTPS_PROXY): HTTP 403 with a body that is not JSON, not the Bot API's answer: does the proxy let api.telegram.org through?`,
      );
      expect(out).toContain("fix: check the proxy and the network, or telegram.api_root");
      expect(proxy.seen).toEqual(["CONNECT api.telegram.org:443"]);
    } finally {
      await proxy.close();
    }
  });

  it("says how far this computer's clock is from Telegram's, when it is", async () => {
    writeConfig(goodConfig());
    expect(line((await doctor()).out, "clock")).toBe("✓ clock          in step with Telegram's");
    const behindUs = await startFakeBotApi({ now: () => Date.now() - 2 * 3_600_000 - 5 * 60_000 });
    try {
      writeConfig(goodConfig().replace(fake.apiRoot, behindUs.apiRoot).replace(fake.token, behindUs.token));
      const { out } = await doctor();
      expect(line(out, "clock")).toBe(
        "! clock          this computer's clock is 2 h 5 min ahead of Telegram's: schedules run at the wrong times, and a message sent while Telecode was down is taken for older than it is",
      );
      expect(out).toContain("fix: set the clock right: turn on network time (`sudo timedatectl set-ntp true`");
    } finally {
      await behindUs.close();
    }
  });

  it("says what to do when the Bot API's certificate is not trusted here, and trusts it with NODE_EXTRA_CA_CERTS", async () => {
    const front = await startTlsFront(Number(new URL(fake.apiRoot).port));
    try {
      writeConfig(goodConfig().replace(fake.apiRoot, front.root));
      const { code, out } = await doctor();
      expect(code).toBe(1);
      expect(line(out, "Bot API")).toMatch(
        /^✗ Bot API +cannot reach https:\/\/localhost:\d+: fetch failed: self-signed certificate/,
      );
      expect(out).toContain(
        "fix: the certificate on the way is not one this computer trusts, as when a company proxy or firewall inspects TLS: give Node that company's CA certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment Telecode starts in (Claude Code needs it too)",
      );
      // Node reads NODE_EXTRA_CA_CERTS as it starts: `telecode doctor` in a process of its own.
      const trusted = await new Promise<string>((resolve) =>
        execFile(
          process.execPath,
          [telecodeBin, "doctor", "--config", configPath],
          { env: { HOME: home, PATH: process.env["PATH"] ?? "", NODE_EXTRA_CA_CERTS: TEST_CA_FILE } },
          (_error, stdout) => resolve(stdout),
        ),
      );
      expect(line(trusted, "Bot API")).toBe(`✓ Bot API        reachable at ${front.root}`);
    } finally {
      await front.close();
    }
  });

  it("sends a person without a config to init, and still checks the CLI and the database", async () => {
    const { code, out } = await doctor();
    expect(code).toBe(1);
    expect(line(out, "config")).toMatch(/^✗ config +no config file at /);
    expect(line(out, "config")).toContain(configPath);
    // Outside a clone, with no `telecode` on PATH, the command is this install's full path.
    expect(out).toMatch(/fix: run `node \S+\/bin\/telecode\.js init`/);
    expect(line(out, "Claude CLI")).toMatch(/^✓/);
    expect(line(out, "database")).toMatch(/^✓/);
    expect(out).not.toContain("bot token");
  });

  it("lists every config problem", async () => {
    writeConfig(`[telegram]\nallowed_user_ids = "me"\n[limits]\ndrain_secs = 5\n`);
    const { code, out } = await doctor();
    expect(code).toBe(1);
    expect(out).toContain("config.toml: telegram.allowed_user_ids must be a non-empty list of numeric user ids");
    expect(out).toContain("config.toml: limits.drain_secs is not a known key; did you mean limits.drain_seconds?");
  });

  it("with a TOML syntax error reports that error only, not guesses from a config it could not read", async () => {
    rmSync(join(home, ".claude"), { recursive: true });
    writeConfig(`${goodConfig()}[claude]\nuse_api_billing = true\npath = "unterminated\n`);
    const { code, out } = await doctor({ ANTHROPIC_API_KEY: "sk-ant-api03-testtesttest" });
    expect(code).toBe(1);
    expect(line(out, "config")).toMatch(/^✗ config +/);
    expect(out).toContain("the other checks run once it loads");
    expect(out).not.toContain("Claude login");
    expect(out).not.toContain("Claude CLI");
    expect(out).toContain("1 problem to fix.");
  });

  it("finds the CLI as telecode does: on PATH, past a `claude` that cannot run", async () => {
    writeConfig(goodConfig());
    const notRunnable = join(home, "not-runnable");
    mkdirSync(join(notRunnable, "claude"), { recursive: true });
    const bin = join(home, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "claude"), `#!/bin/sh\necho "2.1.332 (Claude Code)"\n`, { mode: 0o755 });
    const found = await doctor({
      TELECODE_CLAUDE_PATH: "",
      PATH: `${notRunnable}:${bin}:${process.env["PATH"] ?? ""}`,
    });
    expect(line(found.out, "Claude CLI")).toMatch(/^✓ .*2\.1\.332/);
    expect(line(found.out, "Claude CLI")).toContain(`(${join(bin, "claude")})`);
  });

  it("warns, never fails, on a CLI older or newer than the tested range", async () => {
    writeConfig(goodConfig());
    const older = await doctor({ TELECODE_CLAUDE_PATH: fakeClaude("2.0.1") });
    expect(older.code).toBe(0);
    expect(line(older.out, "Claude CLI")).toMatch(
      new RegExp(`^! .*2\\.0\\.1 is older than the tested range \\(${RANGE_RE}\\)`),
    );
    expect(older.out).toContain(`fix: update it: npm i -g @anthropic-ai/claude-code@${PINNED_CLAUDE_VERSION}`);
    const newer = await doctor({ TELECODE_CLAUDE_PATH: fakeClaude("2.1.400") });
    expect(newer.code).toBe(0);
    expect(line(newer.out, "Claude CLI")).toMatch(
      new RegExp(
        `^! .*2\\.1\\.400 is newer than the tested range \\(${RANGE_RE}\\); lines it prints that Telecode does not know yet are left out \\(the log names their types\\)`,
      ),
    );
  });

  it("checks the login the way the CLI will be started", async () => {
    rmSync(join(home, ".claude"), { recursive: true });
    writeConfig(goodConfig());
    const none = await doctor();
    expect(none.code).toBe(1);
    expect(line(none.out, "Claude login")).toMatch(/^✗ .*Claude Code is not logged in on this machine/);
    const keyOnly = await doctor({ ANTHROPIC_API_KEY: "sk-ant-api03-testtesttest" });
    expect(keyOnly.out).toContain("set claude.use_api_billing = true");
    expect(keyOnly.out).not.toContain("testtesttest");
    writeConfig(goodConfig("[claude]\nuse_api_billing = true\n"));
    expect((await doctor()).code).toBe(1);
    const billed = await doctor({ ANTHROPIC_API_KEY: "sk-ant-api03-testtesttest" });
    expect(billed.code).toBe(0);
    expect(line(billed.out, "Claude login")).toContain("API billing");
  });

  it("warns when Claude Code's telemetry is on but its exporter's variables do not reach it", async () => {
    writeConfig(goodConfig());
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example:4318", OTEL_LOGS_EXPORTER: "otlp" };
    const held = await doctor({ CLAUDE_CODE_ENABLE_TELEMETRY: "1", ...otel });
    expect(held.code).toBe(0);
    expect(line(held.out, "Claude telemetry")).toMatch(
      /^! Claude telemetry\s+CLAUDE_CODE_ENABLE_TELEMETRY is on, but OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_LOGS_EXPORTER do not reach Claude Code$/,
    );
    expect(held.out).toContain("name them in claude.env_allow");
    // Variables for other tools' telemetry, with Claude Code's off, are none of its business.
    expect((await doctor(otel)).out).not.toContain("Claude telemetry");
    writeConfig(goodConfig('[claude]\nenv_allow = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_LOGS_EXPORTER"]\n'));
    expect((await doctor({ CLAUDE_CODE_ENABLE_TELEMETRY: "1", ...otel })).out).not.toContain("Claude telemetry");
  });

  it("fails on what would make Claude Code refuse to start: a settings file that is not JSON, a proxy that is not a URL", async () => {
    writeConfig(goodConfig());
    const settings = join(home, ".claude.json");
    // No settings file yet (Claude Code makes one at its first start): nothing to say.
    expect((await doctor()).out).not.toContain("Claude settings");
    writeFileSync(settings, '{"numStartups": 3}');
    expect(line((await doctor()).out, "Claude settings")).toMatch(/^✓ Claude settings +\S+\.claude\.json$/);

    writeFileSync(settings, "{ broken");
    const secret = "http://user:hunter2@proxy";
    const broken = await doctor({ HTTPS_PROXY: "notaurl", http_proxy: secret });
    expect(broken.code).toBe(1);
    expect(line(broken.out, "Claude settings")).toMatch(
      new RegExp(
        `^✗ Claude settings +${settings.replace(/\./g, "\\.")} is not valid JSON \\(.+\\), so Claude Code will not start$`,
      ),
    );
    expect(broken.out).toContain(
      "fix: correct the JSON in it, or move the file aside to start Claude Code with default settings",
    );
    expect(line(broken.out, "proxy")).toMatch(
      /^✗ proxy +HTTPS_PROXY is not a complete URL, so Claude Code will not start$/,
    );
    expect(broken.out).toContain(
      "fix: set HTTPS_PROXY to a complete URL (such as http://proxy.example.com:8080) or unset it where Telecode is started, then restart Telecode",
    );
    // A proxy that is a URL passes, and its value (a password in it) is never shown.
    expect(broken.out.match(/✗ proxy/g)).toHaveLength(1);
    expect(broken.out).not.toContain("hunter2");
  });

  it("warns about bypassed approvals without failing", async () => {
    writeConfig(goodConfig("[claude]\ndangerously_skip_permissions = true\n"));
    const { code, out } = await doctor();
    expect(code).toBe(0);
    expect(line(out, "approvals")).toMatch(/^! .*every tool runs without asking/);
  });

  it("fails on a data directory that cannot be written and on a damaged database", async () => {
    writeFileSync(join(home, "a-file"), "");
    writeConfig(goodConfig(`[state]\ndir = "${join(home, "a-file", "data")}"\n`));
    const unwritable = await doctor();
    expect(unwritable.code).toBe(1);
    expect(line(unwritable.out, "data directory")).toMatch(/^✗ .*cannot be created: part of its path is a file/);

    const data = join(home, "data");
    mkdirSync(data);
    writeFileSync(join(data, DATABASE_FILE), "not a database, but long enough to be read as a header by SQLite");
    writeConfig(goodConfig(`[state]\ndir = "${data}"\n`));
    const damaged = await doctor();
    expect(damaged.code).toBe(1);
    expect(line(damaged.out, "database")).toMatch(/^✗ .*: the file is damaged \(file is not a database\)\./);
    expect(damaged.out).toContain("fix: stop Telecode and move the file aside; it starts a new database");
  });

  // Where this machine lets a test mount a small tmpfs (as root in a container); skipped elsewhere.
  it.runIf(tmpfsMountable)("fails a data directory on a full disk, saying it is full", async () => {
    const data = join(home, "full");
    mkdirSync(data);
    const unmount = mountTmpfs(data, "256k");
    try {
      fillDisk(data);
      writeConfig(goodConfig(`[state]\ndir = "${data}"\n`));
      const { code, out } = await doctor();
      expect(code).toBe(1);
      expect(line(out, "data directory")).toMatch(/^✗ data directory +.* is on a full disk \(0 KiB free\)$/);
      expect(out).toContain("fix: free some space there, or set state.dir");
    } finally {
      unmount();
    }
  });

  it.runIf(tmpfsMountable)("fails a data directory on a read-only file system, saying so", async () => {
    const data = join(home, "read-only");
    mkdirSync(data);
    const unmount = mountTmpfs(data, "256k", { readOnly: true });
    try {
      writeConfig(goodConfig(`[state]\ndir = "${data}"\n`));
      const { code, out } = await doctor();
      expect(code).toBe(1);
      expect(line(out, "data directory")).toMatch(/^✗ data directory +.* is on a read-only file system \(EROFS\)$/);
      expect(out).toContain("fix: mount it writable, or set state.dir");
    } finally {
      unmount();
    }
  });

  it("lists schedules and webhooks with next fire and last result, and warns while triggers are paused", async () => {
    const dataDir = join(home, "data");
    writeConfig(
      goodConfig(
        `[state]\ndir = "${dataDir}"\n[[webhooks]]\nid = "github-push"\npath = "/hooks/github"\nauth = "none"\nprompt = "Review {{ref}}"\n`,
      ),
    );
    const store = openStore(dataDir);
    store.schedules.insert({
      kind: "config",
      chatId: 42,
      project: "app",
      session: { mode: "new" },
      timing: { kind: "cron", cron: "0 9 * * *" },
      timeZone: "Europe/Berlin",
      prompt: "Review yesterday's commits",
      note: null,
      recurring: true,
      createdBy: { kind: "config", configId: "morning-review" },
      // 09:00 in Berlin (UTC+1 in winter).
      nextFireAt: Date.parse("2030-01-02T08:00:00Z"),
      state: "active",
      stateReason: null,
      caps: NO_CAPS,
      overrides: NO_OVERRIDES,
      attended: false,
    });
    store.triggers.recordResult("webhook:github-push", "day_capped", Date.now());
    store.triggers.setPausedChoice({ paused: true, configPaused: false, changedAt: Date.now() });
    store.close();

    const { out } = await doctor();
    expect(out).toContain("schedule morning-review · next at 09:00 on 2 January 2030 (Europe/Berlin)");
    expect(out).toMatch(
      /webhook github-push · on each delivery to http:\/\/127\.0\.0\.1:8765\/hooks\/github \(held: triggers are paused, \/resume\) · last: not run: its day cap was reached at \d\d:\d\d today/,
    );
    expect(line(out, "triggers paused")).toContain("by /pause in a chat");
  });

  it("prints help and refuses unknown flags", async () => {
    expect((await doctor({}, ["--help"])).out).toContain("Usage: telecode doctor");
    expect((await doctor({}, ["--nope"])).code).toBe(2);
  });
});

describe("the long PDFs check", () => {
  it("checks that git can start each project's worktrees from its worktree_base, and says what to mend", async () => {
    const root = mkdtempSync(join(tmpdir(), "telecode-worktrees-"));
    try {
      const repo = join(root, "app");
      const empty = join(root, "empty");
      const git = (cwd: string, ...args: string[]): string =>
        execFileSync("git", ["-C", cwd, ...args], { encoding: "utf8" });
      for (const dir of [repo, empty]) {
        mkdirSync(dir);
        git(dir, "init", "-q");
      }
      git(repo, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "one");
      const head = git(repo, "rev-parse", "--short", "HEAD").trim();
      const project = (name: string, path: string, worktreeBase: string | null, on = true): ProjectConfig => ({
        name,
        path,
        isDefault: false,
        worktreesDir: on ? join(root, `${name}-worktrees`) : null,
        worktreeBase,
      });
      const lines = await checkWorktrees([
        project("app", repo, null),
        project("wrong", repo, "no-such-branch"),
        project("fresh", empty, null),
        project("plain", repo, null, false),
      ]);
      expect(lines.map((l) => [l.status, l.label])).toEqual([
        ["ok", "worktrees app"],
        ["fail", "worktrees wrong"],
        ["fail", "worktrees fresh"],
      ]);
      expect(lines[0]?.detail).toBe(
        `${join(root, "app-worktrees")}, a worktree per chat from the project's HEAD (${head})`,
      );
      expect(lines[1]?.detail).toContain(`git cannot start a worktree from no-such-branch in ${repo}`);
      expect(lines[1]?.fix).toBe("set projects.wrong.worktree_base to a branch, tag or commit that exists");
      expect(lines[2]?.fix).toBe(
        "make the project a git repository with a first commit, or take worktrees_dir out of [projects.fresh]",
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("finds pdftoppm on the PATH Claude Code gets, and says what a PDF over 100 pages needs without it", () => {
    const bin = mkdtempSync(join(tmpdir(), "telecode-pdftoppm-"));
    const empty = mkdtempSync(join(tmpdir(), "telecode-nopath-"));
    try {
      writeFileSync(join(bin, "pdftoppm"), "#!/bin/sh\n", { mode: 0o755 });
      expect(checkLongPdfs({ PATH: `${empty}:${bin}` })).toEqual({
        status: "ok",
        label: "long PDFs",
        detail: `${join(bin, "pdftoppm")}: Claude reads a PDF over 100 pages a range at a time`,
      });
      expect(checkLongPdfs({ PATH: empty })).toEqual({
        status: "warn",
        label: "long PDFs",
        detail:
          "pdftoppm (poppler-utils) is not installed: Claude cannot open a PDF over 100 pages, which Telecode saves for it rather than send it whole",
        fix: "install poppler-utils (`sudo apt-get install poppler-utils`; `brew install poppler` on a Mac)",
      });
    } finally {
      rmSync(bin, { recursive: true, force: true });
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe("the tested Claude CLI range", () => {
  it("is every version with recorded fixtures, from the module the recorder generates", () => {
    // Fails when a folder under test/golden/fixtures/ was added or removed without regenerating.
    expect(readFileSync(TESTED_RANGE_MODULE, "utf8"), "run `npm run fixtures -- --update-range`").toBe(
      testedRangeSource(recordedVersions()),
    );
    expect(testedRange()).toEqual({ oldest: recordedVersions()[0], newest: recordedVersions().at(-1) });
  });

  it("judges versions by the oldest and newest recorded ones, numerically", () => {
    const range = testedRange(["2.1.9", "2.1.10", "2.1.332"]);
    expect(describeRange(range)).toBe("2.1.9 – 2.1.332");
    expect(judgeClaudeVersion("2.1.10", range)).toEqual({
      status: "ok",
      detail: "2.1.10, within the tested range (2.1.9 – 2.1.332)",
    });
    expect(judgeClaudeVersion("2.1.8", range).status).toBe("warn");
    expect(judgeClaudeVersion("2.1.333", range)).toMatchObject({
      status: "warn",
      fix: `if something misbehaves: npm i -g @anthropic-ai/claude-code@${PINNED_CLAUDE_VERSION}`,
    });
    // What npm installs is the pinned version, though a newer one is tested (from the Agent SDK's binary).
    expect(judgeClaudeVersion("2.1.8", testedRange(["2.1.9", "2.1.500"]))).toMatchObject({
      fix: `update it: npm i -g @anthropic-ai/claude-code@${PINNED_CLAUDE_VERSION}`,
    });
    expect(PINNED_CLAUDE_VERSION).toBe(pinnedVersion());
  });

  it("is logged at start as claude.version, a warning outside the range, and kept for /status", async () => {
    const dataDir = join(home, "data");
    const logger = createLogger({ dataDir, stderr: null });
    const verdicts = [
      await logClaudeVersion({ command: fakeClaude("2.1.400"), env: { PATH: process.env["PATH"] ?? "" }, logger }),
      await logClaudeVersion({
        command: REAL_CLAUDE,
        env: { PATH: process.env["PATH"] ?? "", DISABLE_AUTOUPDATER: "1" },
        logger,
      }),
      await logClaudeVersion({ command: join(home, "no-claude"), env: {}, logger }),
    ];
    logger.close();
    expect(verdicts.map((v) => [v.found, v.status, v.detail.split(/[;,(]/)[0]])).toEqual([
      [true, "warn", "2.1.400 is newer than the tested range "],
      [true, "ok", PINNED_CLAUDE_VERSION],
      [false, "warn", "Claude Code CLI not found "],
    ]);
    const events = readFileSync(join(dataDir, "logs", "telecode.log"), "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l["event"] === "claude.version");
    expect(events).toEqual([
      expect.objectContaining({
        level: 40,
        version: "2.1.400",
        detail: `Claude CLI 2.1.400 is newer than the tested range (${RANGE}); lines it prints that Telecode does not know yet are left out (the log names their types)`,
      }),
      expect.objectContaining({
        level: 30,
        version: PINNED_CLAUDE_VERSION,
        detail: `Claude CLI ${PINNED_CLAUDE_VERSION}, within the tested range (${RANGE})`,
      }),
      expect.objectContaining({
        level: 40,
        found: false,
        detail: `Claude Code CLI not found (looked for: ${join(home, "no-claude")}).`,
      }),
    ]);
  });
});
