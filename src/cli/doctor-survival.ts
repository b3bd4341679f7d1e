// The doctor's "restarts" line: whether a run's keeper would outlive a restart of Telecode as it
// runs here (the installed service if there is one, else this process's own environment).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../config/index.js";
import { findOnPath, keeperLaunchPlan, probeHostFacts, userBusExists, type HostFacts } from "../keeper/index.js";
import { ok, warn, type CheckResult } from "./doctor-result.js";
import { serviceFilePath } from "./service.js";
import { SYSTEMD_UNIT_NAME } from "./service-files.js";

const LABEL = "restarts";

export function checkRunSurvival(options: { env: Env; platform: NodeJS.Platform }): CheckResult {
  const { env, platform } = options;
  if (platform === "darwin") {
    const plist = serviceFilePath("darwin", env);
    if (existsSync(plist) && !readFileSync(plist, "utf8").includes("<key>AbandonProcessGroup</key><true/>"))
      return warn(
        LABEL,
        `the launchd agent ${plist} was written by an older Telecode: stopping it ends running runs`,
        "run `telecode service install` again, then restart the agent",
      );
    return ok(LABEL, "run keepers are detached processes that launchd leaves running when the agent stops");
  }
  const facts: HostFacts =
    platform === "linux" && existsSync(serviceFilePath("linux", env))
      ? {
          platform,
          systemdUnit: SYSTEMD_UNIT_NAME,
          userManager: true,
          systemdRun: findOnPath("systemd-run", env["PATH"]),
          busReachable: userBusExists({
            ...env,
            XDG_RUNTIME_DIR: env["XDG_RUNTIME_DIR"] ?? join("/run/user", String(process.getuid?.() ?? 0)),
          }),
        }
      : probeHostFacts({ ...env }, platform);
  const plan = keeperLaunchPlan(facts);
  return plan.survivesRestart ? ok(LABEL, plan.why) : warn(LABEL, plan.why, plan.fix);
}
