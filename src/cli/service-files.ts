// The text of the service definitions `telecode service install` writes: a systemd user unit
// (Linux) and a launchd agent (macOS). Pure text; quoting rules of each format live here.
import { NEEDS_A_PERSON } from "./exit-codes.js";

export type ServiceSpec = {
  /** Absolute path of the node binary. */
  nodePath: string;
  /** Absolute path of bin/telecode.js. */
  binPath: string;
  /** Absolute path of the config file, passed as TELECODE_CONFIG. */
  configPath: string;
  /** PATH for the service, so it finds `claude` as the shell does (npx's cache left out). */
  pathEnv: string;
  /** The environment file (secrets such as ANTHROPIC_API_KEY), read at every start. */
  envFile: string;
  /** How long the service manager waits for a graceful stop (drain time plus a margin). */
  stopTimeoutSeconds: number;
  /** For launchd's stdout/stderr (crash traces; the JSON log is in the data directory). */
  logPath: string;
};

export const SYSTEMD_UNIT_NAME = "telecode.service";
export const LAUNCHD_LABEL = "dev.telecode";

/** systemd quoting: double quotes, backslash escapes, and `%` / `$` doubled so nothing expands. */
function systemdQuote(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/%/g, "%%").replace(/\$/g, "$$$$")}"`;
}

export function renderSystemdUnit(spec: ServiceSpec): string {
  return [
    "# Written by `telecode service install`; `telecode service uninstall` removes it.",
    "[Unit]",
    "Description=Telecode: Claude Code from Telegram",
    "Wants=network-online.target",
    "After=network-online.target",
    "",
    "[Service]",
    "Type=simple",
    `ExecStart=${systemdQuote(spec.nodePath)} ${systemdQuote(spec.binPath)}`,
    `Environment=${systemdQuote(`TELECODE_CONFIG=${spec.configPath}`)}`,
    `Environment=${systemdQuote(`PATH=${spec.pathEnv}`)}`,
    // "-": a missing file is no error (the environment then has no secrets from it).
    `EnvironmentFile=-${spec.envFile.replace(/%/g, "%%")}`,
    "Restart=on-failure",
    "RestartSec=5",
    // 78: a config or bot token that needs a person; restarted, Telecode would fail alike.
    `RestartPreventExitStatus=${NEEDS_A_PERSON}`,
    // SIGTERM to Telecode only: it drains runs and ends its CLI processes itself. What is left in
    // the cgroup is then killed; run keepers are not in it (they start in scopes of their own).
    "KillMode=mixed",
    `TimeoutStopSec=${spec.stopTimeoutSeconds}`,
    "",
    "[Install]",
    "WantedBy=default.target",
    "",
  ].join("\n");
}

function xml(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

export function renderLaunchdPlist(spec: ServiceSpec): string {
  const str = (value: string): string => `<string>${xml(value)}</string>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">',
    "<!-- Written by `telecode service install`; `telecode service uninstall` removes it. -->",
    '<plist version="1.0">',
    "<dict>",
    `  <key>Label</key>${str(LAUNCHD_LABEL)}`,
    "  <key>ProgramArguments</key>",
    "  <!-- node reads the environment file (secrets stay out of this plist). -->",
    `  <array>${str(spec.nodePath)}${str(`--env-file=${spec.envFile}`)}${str(spec.binPath)}</array>`,
    "  <key>EnvironmentVariables</key>",
    "  <dict>",
    `    <key>TELECODE_CONFIG</key>${str(spec.configPath)}`,
    `    <key>PATH</key>${str(spec.pathEnv)}`,
    "  </dict>",
    "  <key>RunAtLoad</key><true/>",
    "  <!-- Restart after a crash or a failing exit, not after a clean stop. -->",
    "  <key>KeepAlive</key>",
    "  <dict><key>SuccessfulExit</key><false/></dict>",
    "  <key>ThrottleInterval</key><integer>5</integer>",
    "  <!-- Stopping the agent leaves run keepers (detached processes) running, so runs outlive a restart. -->",
    "  <key>AbandonProcessGroup</key><true/>",
    `  <key>ExitTimeOut</key><integer>${spec.stopTimeoutSeconds}</integer>`,
    `  <key>StandardOutPath</key>${str(spec.logPath)}`,
    `  <key>StandardErrorPath</key>${str(spec.logPath)}`,
    "</dict>",
    "</plist>",
    "",
  ].join("\n");
}
