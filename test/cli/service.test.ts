// `telecode service`: the generated systemd unit and launchd plist, checked as files under a
// temp HOME (systemd and launchd are never run), plus dry runs and uninstalling.
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandIo } from "../../src/cli/command-io.js";
import { checkInstalledService } from "../../src/cli/doctor-service.js";
import { runService } from "../../src/cli/service.js";
import { loadConfig } from "../../src/config/index.js";

let home: string;
let configPath: string;

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "telecode-service-"));
  configPath = join(home, ".config", "telecode", "config.toml");
  mkdirSync(join(home, ".config", "telecode"), { recursive: true });
  writeFileSync(configPath, "[limits]\ndrain_seconds = 45\n", { mode: 0o600 });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

function service(argv: string[], env: Record<string, string> = {}): { code: number; out: string; err: string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const io: CommandIo = { stdout, stderr, env: { HOME: home, PATH: "/opt/node/bin:/usr/bin:/bin", ...env } };
  const code = runService(argv, io, {
    nodePath: "/opt/node/bin/node",
    binPath: "/opt/telecode/bin/telecode.js",
    cwd: home,
    systemdRun: "/usr/bin/systemd-run",
  });
  return { code, out: String(stdout.read() ?? ""), err: String(stderr.read() ?? "") };
}

const unitPath = (): string => join(home, ".config", "systemd", "user", "telecode.service");
const plistPath = (): string => join(home, "Library", "LaunchAgents", "dev.telecode.plist");

describe("telecode service on Linux", () => {
  it("installs a systemd user unit that restarts on failure and prints how to enable it", () => {
    const { code, out } = service(["install", "--platform", "linux"]);
    expect(code).toBe(0);
    const unit = readFileSync(unitPath(), "utf8");
    expect(unit).toContain('ExecStart="/opt/node/bin/node" "/opt/telecode/bin/telecode.js"\n');
    expect(unit).toContain(`Environment="TELECODE_CONFIG=${configPath}"\n`);
    expect(unit).toContain('Environment="PATH=/opt/node/bin:/usr/bin:/bin"\n');
    expect(unit).toContain("Restart=on-failure\n");
    // Not after a config or bot token that needs a person: restarted, Telecode would fail alike.
    expect(unit).toContain("RestartPreventExitStatus=78\n");
    expect(unit).toContain("KillMode=mixed\n");
    // limits.drain_seconds (45 here), then 90 s for each CLI's SessionEnd hooks and the last messages.
    expect(unit).toContain("TimeoutStopSec=135\n");
    expect(unit).toMatch(/\[Install\]\nWantedBy=default\.target/);
    expect(out).toContain(`Wrote ${unitPath()}`);
    expect(out).toContain("systemctl --user enable --now telecode.service");
    expect(out).toContain("loginctl enable-linger");
  });

  it("says when the bot token is only in this shell's environment, which the service will not see", () => {
    const token = `123456:${"A".repeat(35)}`;
    const shellOnly = service(["install", "--platform", "linux"], { TELECODE_BOT_TOKEN: token });
    expect(shellOnly.code).toBe(0);
    expect(shellOnly.err).toContain(
      "the bot token comes from TELECODE_BOT_TOKEN in this shell, which the service will not see",
    );
    expect(readFileSync(unitPath(), "utf8")).not.toContain(token);
    writeFileSync(configPath, `[telegram]\nbot_token = "${token}"\n`, { mode: 0o600 });
    const inFile = service(["install", "--platform", "linux"], { TELECODE_BOT_TOKEN: token });
    expect(inFile.code).toBe(0);
    expect(inFile.err).toBe("");
  });

  it("quotes paths so systemd expands nothing in them", () => {
    const odd = join(home, 'my 100% $HOME "cfg".toml');
    writeFileSync(odd, "", { mode: 0o600 });
    expect(service(["install", "--platform", "linux", "--config", odd]).code).toBe(0);
    const escaped = odd.replace(/%/g, "%%").replace(/\$/g, "$$$$").replace(/"/g, '\\"');
    expect(readFileSync(unitPath(), "utf8")).toContain(`Environment="TELECODE_CONFIG=${escaped}"\n`);
  });

  it("follows XDG_CONFIG_HOME for the unit's place", () => {
    const xdg = join(home, "xdg");
    mkdirSync(join(xdg, "telecode"), { recursive: true });
    writeFileSync(join(xdg, "telecode", "config.toml"), "", { mode: 0o600 });
    expect(service(["install", "--platform", "linux"], { XDG_CONFIG_HOME: xdg }).code).toBe(0);
    expect(existsSync(join(xdg, "systemd", "user", "telecode.service"))).toBe(true);
  });

  it("writes nothing on --dry-run and shows the file instead", () => {
    const { code, out } = service(["install", "--platform", "linux", "--dry-run"]);
    expect(code).toBe(0);
    expect(out).toContain(`Would write ${unitPath()}`);
    expect(out).toContain("Restart=on-failure");
    expect(existsSync(unitPath())).toBe(false);
  });

  it("uninstalls the unit and its enablement link, and says how to stop what runs", () => {
    service(["install", "--platform", "linux"]);
    const wants = join(home, ".config", "systemd", "user", "default.target.wants");
    mkdirSync(wants);
    symlinkSync(unitPath(), join(wants, "telecode.service"));
    const dry = service(["uninstall", "--platform", "linux", "--dry-run"]);
    expect(dry.out).toContain("Would remove:");
    expect(existsSync(unitPath())).toBe(true);
    const { code, out } = service(["uninstall", "--platform", "linux"]);
    expect(code).toBe(0);
    expect(existsSync(unitPath())).toBe(false);
    expect(existsSync(join(wants, "telecode.service"))).toBe(false);
    expect(out).toContain("systemctl --user stop telecode.service");
    expect(service(["uninstall", "--platform", "linux"]).out).toContain("Nothing to remove");
  });

  it("refuses to install a service for a config that would not start", () => {
    writeFileSync(configPath, "[limits]\ndrain_seconds = -5\n");
    const { code, err } = service(["install", "--platform", "linux"]);
    expect(code).toBe(1);
    expect(err).toContain("limits.drain_seconds must be a whole number of seconds");
    expect(existsSync(unitPath())).toBe(false);
    rmSync(configPath);
    expect(service(["install", "--platform", "linux"]).code).toBe(1);
  });

  it("redacts a token or API key that a config error quotes", () => {
    const key = `sk-ant-api03-${"K".repeat(30)}`;
    writeFileSync(
      configPath,
      `[claude]\nextra_args = ["--resume=${key}", "--continue=${"9".repeat(9)}:${"T".repeat(35)}"]\n`,
    );
    const { code, err } = service(["install", "--platform", "linux"]);
    expect(code).toBe(1);
    expect(err).toContain("claude.extra_args");
    expect(err).not.toContain("K".repeat(30));
    expect(err).not.toContain("T".repeat(35));
  });
});

describe("what the service runs with", () => {
  const envFile = (): string => join(home, ".config", "telecode", "service.env");

  it("passes secrets through service.env (mode 0600), created with the names Telecode reads and no values", () => {
    writeFileSync(configPath, "[claude]\nuse_api_billing = true\n", { mode: 0o600 });
    const key = `sk-ant-api03-${"K".repeat(40)}`;
    const first = service(["install", "--platform", "linux"], { ANTHROPIC_API_KEY: key, AWS_SECRET_ACCESS_KEY: "aws" });
    expect(first.code).toBe(0);
    expect(readFileSync(unitPath(), "utf8")).toContain(`EnvironmentFile=-${envFile()}\n`);
    expect(statSync(envFile()).mode & 0o777).toBe(0o600);
    const text = readFileSync(envFile(), "utf8");
    expect(text).toContain("# ANTHROPIC_API_KEY=\n");
    expect(text).toContain("# TELECODE_BOT_TOKEN=\n");
    expect(text).not.toContain(key);
    expect(text).not.toContain("AWS");
    expect(first.out).toContain(`Created ${envFile()} (mode 0600)`);
    expect(first.err).toContain(
      `claude.use_api_billing is on, and the service sees no ANTHROPIC_API_KEY (it does not read this shell's). Put ANTHROPIC_API_KEY=… in ${envFile()}.`,
    );

    // The person's own file is kept as it is; once it has the key, there is nothing to warn about.
    writeFileSync(envFile(), `ANTHROPIC_API_KEY=${key}\n`, { mode: 0o600 });
    const again = service(["install", "--platform", "linux"], { ANTHROPIC_API_KEY: key });
    expect(again.err).toBe("");
    expect(readFileSync(envFile(), "utf8")).toBe(`ANTHROPIC_API_KEY=${key}\n`);
    expect(readFileSync(unitPath(), "utf8")).not.toContain(key);
    chmodSync(envFile(), 0o644);
    expect(service(["install", "--platform", "linux"]).err).toContain(
      `others can read ${envFile()}; make it private: chmod 600 ${envFile()}`,
    );
  });

  it("runs node and Telecode by their real paths, with a PATH that leaves out npx's cache", () => {
    const bin = join(home, "node-20", "bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "node"), "", { mode: 0o755 });
    symlinkSync(join(bin, "node"), join(home, "node"));
    const npx = join(home, ".npm", "_npx", "4f3e2d1c", "node_modules");
    mkdirSync(join(npx, ".bin"), { recursive: true });
    mkdirSync(join(npx, "telecode", "bin"), { recursive: true });
    writeFileSync(join(npx, "telecode", "bin", "telecode.js"), "");
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const code = runService(
      ["install", "--platform", "linux"],
      { stdout, stderr, env: { HOME: home, PATH: `${join(npx, ".bin")}:/usr/bin:/bin` } },
      {
        nodePath: join(home, "node"),
        binPath: join(npx, "telecode", "bin", "telecode.js"),
        cwd: home,
        systemdRun: null,
      },
    );
    expect(code).toBe(0);
    const unit = readFileSync(unitPath(), "utf8");
    expect(unit).toContain(`ExecStart="${join(bin, "node")}" "${join(npx, "telecode", "bin", "telecode.js")}"\n`);
    expect(unit).toContain(`Environment="PATH=${bin}:/usr/bin:/bin"\n`);
    expect(String(stderr.read())).toContain(
      `telecode service: ${join(npx, "telecode", "bin", "telecode.js")} is in npm's npx cache, which npm clears when it likes; the service would then fail to start.`,
    );
  });
});

describe("telecode service on macOS", () => {
  it("installs a launchd agent that is kept alive after failures", () => {
    const { code, out } = service(["install", "--platform", "darwin"]);
    expect(code).toBe(0);
    const plist = readFileSync(plistPath(), "utf8");
    expect(plist).toContain("<key>Label</key><string>dev.telecode</string>");
    const envFile = join(home, ".config", "telecode", "service.env");
    expect(plist).toContain(
      `<array><string>/opt/node/bin/node</string><string>--env-file=${envFile}</string><string>/opt/telecode/bin/telecode.js</string></array>`,
    );
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    expect(plist).toContain(`<key>TELECODE_CONFIG</key><string>${configPath}</string>`);
    expect(plist).toMatch(/<key>KeepAlive<\/key>\s*<dict><key>SuccessfulExit<\/key><false\/><\/dict>/);
    expect(plist).toContain("<key>RunAtLoad</key><true/>");
    expect(plist).toContain("<key>ExitTimeOut</key><integer>135</integer>");
    expect(out).toContain(`launchctl bootstrap gui/$(id -u) ${plistPath()}`);
    expect(service(["uninstall", "--platform", "darwin"]).out).toContain("launchctl bootout gui/$(id -u)/dev.telecode");
    expect(existsSync(plistPath())).toBe(false);
  });

  it("escapes XML in paths", () => {
    const odd = join(home, "a&b<c>.toml");
    writeFileSync(odd, "", { mode: 0o600 });
    service(["install", "--platform", "darwin", "--config", odd]);
    expect(readFileSync(plistPath(), "utf8")).toContain(`<string>${join(home, "a&amp;b&lt;c&gt;.toml")}</string>`);
  });
});

describe("telecode service usage", () => {
  it("needs install or uninstall, and a supported platform", () => {
    expect(service([]).code).toBe(2);
    expect(service([]).err).toContain("say install or uninstall.");
    // What the service manager does is named, not refused as a typo.
    const status = service(["status", "--platform", "linux"]);
    expect(status.code).toBe(2);
    expect(status.err).toBe(
      [
        "telecode service: systemd runs the installed service, not Telecode; use:",
        "  systemctl --user status telecode.service    (and start, stop, restart the same way)",
        "  journalctl --user -u telecode.service       its output and crashes",
        "Telecode's own log: logs/ in its data directory.",
        "",
      ].join("\n"),
    );
    expect(service(["restart", "--platform", "darwin"]).err).toContain(
      "launchctl kickstart -k gui/$(id -u)/dev.telecode    restart it",
    );
    const typo = service(["instal", "--dry-runn"]);
    expect(typo.code).toBe(2);
    expect(typo.err).toContain("telecode service: Unknown option '--dry-runn': did you mean --dry-run?");
    expect(service(["instal"]).err).toContain('telecode service: "instal": did you mean install?');
    expect(service(["install", "--platform", "win32"]).code).toBe(2);
    expect(service(["--help"]).out).toContain("Usage: telecode service install|uninstall");
  });
});

describe("telecode doctor on an installed service", () => {
  const check = (platform: "linux" | "darwin") => {
    const env = { HOME: home };
    const { config } = loadConfig({ configPath, env, cwd: home, initCommand: "telecode init" });
    return checkInstalledService({ config, env, platform });
  };

  it("warns while the unit gives a stop less time than one takes, until it is installed again", () => {
    expect(check("linux")).toEqual([]);
    // As an older Telecode wrote it: 30 s past the 45 s drain.
    mkdirSync(join(home, ".config", "systemd", "user"), { recursive: true });
    writeFileSync(unitPath(), "[Service]\nKillMode=mixed\nTimeoutStopSec=75\n");
    expect(check("linux")).toEqual([
      {
        status: "warn",
        label: "service stop",
        detail: `${unitPath()} gives a stop 75 s, and one can take 135 s (limits.drain_seconds, then Claude Code's SessionEnd hooks and the last messages): the service manager would kill Telecode in the middle of it`,
        fix: "run `telecode service install` again, then `systemctl --user daemon-reload`",
      },
      {
        status: "warn",
        label: "service restarts",
        detail: `${unitPath()} restarts Telecode every 5 s after a config or bot token it cannot use, where it fails the same way each time`,
        fix: "run `telecode service install` again, then `systemctl --user daemon-reload`",
      },
    ]);
    expect(service(["install", "--platform", "linux"]).code).toBe(0);
    expect(check("linux")).toEqual([]);
    // A longer drain set after the install wants it again.
    writeFileSync(configPath, "[limits]\ndrain_seconds = 120\n", { mode: 0o600 });
    expect(check("linux")[0]?.detail).toContain("gives a stop 135 s, and one can take 210 s");
  });

  it("reads a launchd agent's ExitTimeOut the same way", () => {
    mkdirSync(join(home, "Library", "LaunchAgents"), { recursive: true });
    writeFileSync(plistPath(), "<plist><dict><key>ExitTimeOut</key><integer>75</integer></dict></plist>\n");
    expect(check("darwin")[0]).toMatchObject({
      status: "warn",
      fix: "run `telecode service install` again, then restart the agent",
    });
    expect(service(["install", "--platform", "darwin"]).code).toBe(0);
    expect(check("darwin")).toEqual([]);
  });
});
