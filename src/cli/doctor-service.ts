// The doctor's lines on an installed unit (or launchd agent) written by an older Telecode:
// "service stop", when it (or a `limits.drain_seconds` grown since) lets its service manager
// kill Telecode in the middle of a stop (while Claude Code runs its SessionEnd hooks, or the
// drain itself); "service restarts", when a systemd unit restarts Telecode after exit 78.
import { existsSync, readFileSync } from "node:fs";
import type { Config, Env } from "../config/index.js";
import { warn, type CheckResult } from "./doctor-result.js";
import { NEEDS_A_PERSON } from "./exit-codes.js";
import { serviceFilePath, stopTimeoutSeconds } from "./service.js";

const LABEL = "service stop";

/** Warnings for an installed service that an older Telecode wrote; nothing when there is none, or it is current. */
export function checkInstalledService(options: { config: Config; env: Env; platform: NodeJS.Platform }): CheckResult[] {
  const { platform, env } = options;
  if (platform !== "linux" && platform !== "darwin") return [];
  const file = serviceFilePath(platform, env);
  if (!existsSync(file)) return [];
  const text = readFileSync(file, "utf8");
  return [...checkStop(options, file, text), ...(platform === "linux" ? checkRestarts(file, text) : [])];
}

/** A warning when the installed service gives a stop less time than Telecode takes. */
function checkStop(
  { config, platform }: { config: Config; platform: NodeJS.Platform },
  file: string,
  text: string,
): CheckResult[] {
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

/** A warning when a systemd unit restarts Telecode after what a person must mend (exit 78). */
function checkRestarts(file: string, text: string): CheckResult[] {
  if (new RegExp(`^RestartPreventExitStatus=.*\\b${NEEDS_A_PERSON}\\b`, "m").test(text)) return [];
  return [
    warn(
      "service restarts",
      `${file} restarts Telecode every 5 s after a config or bot token it cannot use, where it fails the same way each time`,
      "run `telecode service install` again, then `systemctl --user daemon-reload`",
    ),
  ];
}
