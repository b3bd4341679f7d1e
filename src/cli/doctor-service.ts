// The doctor's "service stop" line: an installed unit (or launchd agent) written by an older
// Telecode, or before `limits.drain_seconds` grew, lets its service manager kill Telecode in
// the middle of a stop (while Claude Code runs its SessionEnd hooks, or the drain itself).
import { existsSync, readFileSync } from "node:fs";
import type { Config, Env } from "../config/index.js";
import { warn, type CheckResult } from "./doctor-result.js";
import { serviceFilePath, stopTimeoutSeconds } from "./service.js";

const LABEL = "service stop";

/** A warning when the installed service gives a stop less time than Telecode takes; nothing otherwise. */
export function checkServiceStop(options: { config: Config; env: Env; platform: NodeJS.Platform }): CheckResult[] {
  const { config, env, platform } = options;
  if (platform !== "linux" && platform !== "darwin") return [];
  const file = serviceFilePath(platform, env);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  const given = Number(
    (platform === "linux"
      ? /^TimeoutStopSec=(\d+)$/m.exec(text)
      : /<key>ExitTimeOut<\/key>\s*<integer>(\d+)<\/integer>/.exec(text))?.[1] ?? NaN,
  );
  const needed = stopTimeoutSeconds(config);
  if (Number.isNaN(given) || given >= needed) return [];
  const reload = platform === "linux" ? "`systemctl --user daemon-reload`" : "restart the agent";
  return [
    warn(
      LABEL,
      `${file} gives a stop ${given} s, and one can take ${needed} s (limits.drain_seconds, then Claude Code's SessionEnd hooks and the last messages): the service manager would kill Telecode in the middle of it`,
      `run \`telecode service install\` again, then ${reload}`,
    ),
  ];
}
