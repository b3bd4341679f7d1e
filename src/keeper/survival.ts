// Whether a keeper outlives a restart of Telecode here, and how to start it so it does. A
// systemd service's stop ends every process in its cgroup (the shipped unit has KillMode=mixed),
// so there keepers start in a scope of their own (`systemd-run --user --scope`); elsewhere a
// detached process (its own session) is enough, and launchd agents set AbandonProcessGroup.
import { accessSync, constants, existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";

/** What decides it, gathered by `probeHostFacts` (or written out by a test). */
export type HostFacts = {
  platform: NodeJS.Platform;
  /** The systemd service whose cgroup Telecode runs in ("telecode.service"); null outside one. */
  systemdUnit: string | null;
  /** That service belongs to the user's manager (user@UID.service), not the system's. */
  userManager: boolean;
  /** systemd-run, found on PATH. */
  systemdRun: string | null;
  /** The manager's bus answers: $XDG_RUNTIME_DIR/bus for a user manager; the system's, for root only. */
  busReachable: boolean;
};

export type LaunchPlan = {
  wrapper: "none" | "systemd-scope";
  systemdRun?: string;
  userManager?: boolean;
  survivesRestart: boolean;
  /** One sentence for `telecode doctor`. */
  why: string;
  fix?: string;
};

export function keeperLaunchPlan(facts: HostFacts): LaunchPlan {
  const unit = facts.systemdUnit;
  if (facts.platform !== "linux" || unit === null)
    return {
      wrapper: "none",
      survivesRestart: true,
      why: "keepers run detached from Telecode (a session of their own), so a restart of Telecode does not end them",
    };
  if (facts.systemdRun !== null && facts.busReachable)
    return {
      wrapper: "systemd-scope",
      systemdRun: facts.systemdRun,
      userManager: facts.userManager,
      survivesRestart: true,
      why: `keepers start in a systemd scope of their own (systemd-run${facts.userManager ? " --user" : ""} --scope), outside ${unit}, so stopping or restarting it does not end them`,
    };
  const missing =
    facts.systemdRun === null ? "systemd-run is not on PATH" : "the systemd manager's bus is not reachable";
  return {
    wrapper: "none",
    survivesRestart: false,
    why: `Telecode runs in ${unit}, whose stop ends every process in its cgroup, and ${missing}: runs end when it restarts`,
    fix:
      facts.systemdRun === null
        ? "install systemd's systemd-run (it ships with systemd) and put it on the service's PATH"
        : "run the service from a logged-in user manager (loginctl enable-linger $USER) so $XDG_RUNTIME_DIR/bus exists",
  };
}

/** The argv prefix that starts a keeper in its own scope, named after it. */
export function scopeCommand(plan: LaunchPlan, keeperId: string): string[] {
  if (plan.wrapper !== "systemd-scope" || plan.systemdRun === undefined) return [];
  return [
    plan.systemdRun,
    ...(plan.userManager === true ? ["--user"] : []),
    "--scope",
    "--quiet",
    "--collect",
    `--unit=telecode-keeper-${keeperId}`,
    `--description=Telecode keeper ${keeperId}`,
    "--",
  ];
}

/**
 * The systemd service a process runs in, from /proc/PID/cgroup text: the last path component
 * when it is a `.service` (a login session or a scope is not one), and whether it hangs below a
 * user manager. Null outside systemd.
 */
export function systemdUnitOf(cgroup: string): { unit: string; userManager: boolean } | null {
  const line =
    cgroup.split("\n").find((l) => l.startsWith("0::")) ?? cgroup.split("\n").find((l) => l.includes(":name=systemd:"));
  const path = line?.slice(line.indexOf(":", line.indexOf(":") + 1) + 1) ?? "";
  const last = path.split("/").at(-1) ?? "";
  if (!last.endsWith(".service") || /^user@\d+\.service$/.test(last)) return null;
  return { unit: last, userManager: /\/user@\d+\.service\//.test(path) };
}

/** Finds `name` on a PATH string, as an executable. */
export function findOnPath(name: string, pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? "").split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/** The facts for this process, read from /proc, PATH and $XDG_RUNTIME_DIR. */
export function probeHostFacts(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): HostFacts {
  let cgroup = "";
  if (platform === "linux") {
    try {
      cgroup = readFileSync("/proc/self/cgroup", "utf8");
    } catch {
      // no cgroups: not under systemd
    }
  }
  const unit = systemdUnitOf(cgroup);
  return {
    platform,
    systemdUnit: unit?.unit ?? null,
    userManager: unit?.userManager ?? false,
    systemdRun: platform === "linux" ? findOnPath("systemd-run", env["PATH"]) : null,
    busReachable: unit === null ? false : unit.userManager ? userBusExists(env) : process.getuid?.() === 0,
  };
}

/** The user manager's bus socket, as systemd-run --user looks for it. */
export function userBusExists(env: NodeJS.ProcessEnv): boolean {
  const runtime = env["XDG_RUNTIME_DIR"];
  return (env["DBUS_SESSION_BUS_ADDRESS"] ?? "") !== "" || (runtime !== undefined && existsSync(join(runtime, "bus")));
}
