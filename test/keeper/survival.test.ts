// Whether keepers outlive a restart, decided offline: the systemd unit read from cgroup text,
// the launch plan for each host, the scope command (run through stand-in systemd-run scripts),
// and what `telecode service install` and `telecode doctor` say about it.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkRunSurvival } from "../../src/cli/doctor-survival.js";
import { runService } from "../../src/cli/service.js";
import { keeperLaunchPlan, systemdUnitOf, type HostFacts } from "../../src/keeper/index.js";
import { scopeCommand } from "../../src/keeper/survival.js";
import { capturedIo } from "../support/captured-io.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { launcherFor, Sink, useKeepers, userLine } from "./keeper-harness.js";
import { fakeClaudePath, line, writeFakeClaudeScript } from "../support/fake-claude/index.js";

const tempDir = useTempDirs("survival");
const keepers = useKeepers();

const userService: HostFacts = {
  platform: "linux",
  systemdUnit: "telecode.service",
  userManager: true,
  systemdRun: "/usr/bin/systemd-run",
  busReachable: true,
};

describe("the systemd unit a process runs in", () => {
  it("reads a user service from cgroup v2 and a system service from v1", () => {
    expect(systemdUnitOf("0::/user.slice/user-1000.slice/user@1000.service/app.slice/telecode.service\n")).toEqual({
      unit: "telecode.service",
      userManager: true,
    });
    expect(systemdUnitOf("12:pids:/system.slice/tc.service\n1:name=systemd:/system.slice/tc.service\n")).toEqual({
      unit: "tc.service",
      userManager: false,
    });
  });

  it("is none in a login session, a scope, a container or the user manager itself", () => {
    for (const cgroup of [
      "0::/user.slice/user-1000.slice/session-3.scope\n",
      "0::/user.slice/user-1000.slice/user@1000.service/app.slice/telecode-keeper-k1.scope\n",
      "0::/user.slice/user-1000.slice/user@1000.service\n",
      "0::/\n",
      "",
    ])
      expect(systemdUnitOf(cgroup)).toBeNull();
  });
});

describe("how keepers are started so they outlive a restart", () => {
  it("starts them in a systemd scope of their own under a systemd service", () => {
    const plan = keeperLaunchPlan(userService);
    expect(plan).toMatchObject({ wrapper: "systemd-scope", survivesRestart: true });
    expect(plan.why).toContain("outside telecode.service");
    expect(scopeCommand(plan, "k1")).toEqual([
      "/usr/bin/systemd-run",
      "--user",
      "--scope",
      "--quiet",
      "--collect",
      "--unit=telecode-keeper-k1",
      "--description=Telecode keeper k1",
      "--",
    ]);
  });

  it("says runs end at a restart, and how to fix it, when systemd-run or the bus is missing", () => {
    const noRun = keeperLaunchPlan({ ...userService, systemdRun: null });
    expect(noRun).toMatchObject({ wrapper: "none", survivesRestart: false });
    expect(noRun.why).toContain("systemd-run is not on PATH: runs end when it restarts");
    expect(noRun.fix).toContain("systemd-run");
    const noBus = keeperLaunchPlan({ ...userService, busReachable: false });
    expect(noBus.survivesRestart).toBe(false);
    expect(noBus.fix).toContain("loginctl enable-linger");
  });

  it("needs no wrapper outside a service, or on macOS", () => {
    for (const facts of [
      { ...userService, systemdUnit: null },
      { ...userService, platform: "darwin" as const },
    ]) {
      const plan = keeperLaunchPlan(facts);
      expect(plan).toMatchObject({ wrapper: "none", survivesRestart: true });
      expect(scopeCommand(plan, "k1")).toEqual([]);
    }
  });
});

/** A stand-in systemd-run that logs its arguments, then runs the command after `--` (or fails like a missing bus). */
function fakeSystemdRun(dir: string, works: boolean): { path: string; argsLog: string } {
  const path = join(dir, "systemd-run");
  const argsLog = join(dir, "systemd-run.args");
  const body = works
    ? `printf '%s\\n' "$@" > '${argsLog}'\nwhile [ "$1" != "--" ]; do shift; done\nshift\nexec "$@"\n`
    : `echo "Failed to connect to bus: No medium found" >&2\nexit 1\n`;
  writeFileSync(path, `#!/bin/sh\n${body}`);
  chmodSync(path, 0o755);
  return { path, argsLog };
}

describe("starting a keeper in a systemd scope", () => {
  async function start(works: boolean) {
    const dir = tempDir();
    const systemdRun = fakeSystemdRun(dir, works);
    const script = await writeFakeClaudeScript(dir, {
      steps: [{ awaitIn: { type: "user" } }, { out: line.text("hi") }],
    });
    const launcher = launcherFor(join(dir, "keepers"), {
      plan: keeperLaunchPlan({ ...userService, systemdRun: systemdRun.path }),
    });
    const started = await keepers.startFull(launcher, {
      keeperId: "scoped",
      cli: { path: fakeClaudePath, args: [], cwd: dir, env: { PATH: process.env["PATH"] ?? "", ...script.env } },
    });
    const sink = new Sink();
    const connection = await keepers.attach(started.record, { sink });
    await connection.write(userLine("hello"));
    await sink.waitFor((r) => r.line.includes('"hi"'));
    return { started, systemdRun };
  }

  it("runs the keeper through systemd-run --user --scope, named after it", async () => {
    const { started, systemdRun } = await start(true);
    expect(started.inOwnScope).toBe(true);
    expect(readFileSync(systemdRun.argsLog, "utf8")).toContain(
      "--user\n--scope\n--quiet\n--collect\n--unit=telecode-keeper-scoped\n",
    );
  });

  it("still runs the CLI, outside a scope, when systemd-run fails", async () => {
    const { started } = await start(false);
    expect(started.inOwnScope).toBe(false);
  });
});

describe("what service install and doctor say about restarts", () => {
  function install(platform: string, systemdRun: string | null, home = tempDir()) {
    mkdirSync(join(home, ".config", "telecode"), { recursive: true });
    writeFileSync(join(home, ".config", "telecode", "config.toml"), "", { mode: 0o600 });
    const io = capturedIo({ HOME: home, PATH: "/usr/bin:/bin" });
    const code = runService(["install", "--platform", platform], io, {
      nodePath: "/usr/bin/node",
      binPath: "/opt/telecode/bin/telecode.js",
      cwd: home,
      systemdRun,
    });
    return { code, home, out: io.out(), err: io.err() };
  }

  it("says keepers outlive a restart when systemd-run is there, and warns with a fix when it is not", () => {
    const ok = install("linux", "/usr/bin/systemd-run");
    expect(ok.code).toBe(0);
    expect(ok.out).toContain("Run keepers: they start in a scope of their own (systemd-run --user --scope)");
    expect(ok.err).toBe("");
    const missing = install("linux", null);
    expect(missing.code).toBe(0);
    expect(missing.err).toContain(
      "systemd-run is not on PATH: runs end when it restarts. To fix: install systemd's systemd-run",
    );
  });

  it("writes a launchd agent that leaves keepers running when it stops", () => {
    const { home, out } = install("darwin", null);
    const plist = readFileSync(join(home, "Library", "LaunchAgents", "dev.telecode.plist"), "utf8");
    expect(plist).toContain("<key>AbandonProcessGroup</key><true/>");
    expect(out).toContain("Run keepers: the agent leaves them running when it stops");
  });

  it("doctor: checks the installed unit's host for systemd-run and the user bus", () => {
    const home = tempDir();
    const bin = join(home, "bin");
    const runtime = join(home, "run");
    mkdirSync(bin);
    mkdirSync(runtime);
    mkdirSync(join(home, ".config", "systemd", "user"), { recursive: true });
    writeFileSync(join(home, ".config", "systemd", "user", "telecode.service"), "[Service]\n");
    const env = { HOME: home, PATH: bin, XDG_RUNTIME_DIR: runtime };
    const without = checkRunSurvival({ env, platform: "linux" });
    expect(without).toMatchObject({ status: "warn", label: "restarts" });
    expect(without.detail).toContain("telecode.service, whose stop ends every process in its cgroup");
    fakeSystemdRun(bin, true);
    writeFileSync(join(runtime, "bus"), "");
    expect(checkRunSurvival({ env, platform: "linux" })).toMatchObject({ status: "ok", label: "restarts" });
  });

  it("doctor: flags a launchd agent written before keepers", () => {
    const home = tempDir();
    const agents = join(home, "Library", "LaunchAgents");
    mkdirSync(agents, { recursive: true });
    writeFileSync(join(agents, "dev.telecode.plist"), "<plist><dict></dict></plist>\n");
    const old = checkRunSurvival({ env: { HOME: home }, platform: "darwin" });
    expect(old).toMatchObject({ status: "warn", fix: "run `telecode service install` again, then restart the agent" });
    install("darwin", null, home);
    expect(checkRunSurvival({ env: { HOME: home }, platform: "darwin" })).toMatchObject({ status: "ok" });
  });
});
