// `telecode service install|uninstall`: writes or removes the systemd user unit (Linux) or
// launchd agent (macOS) that keeps the bridge running (with stable paths and an environment
// file for secrets), and prints how to start or stop it. It never runs systemctl or launchctl.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, homeDirOf, loadConfig, locateConfigFile, type Config } from "../config/index.js";
import { closestName } from "../domain/index.js";
import { findOnPath, keeperLaunchPlan } from "../keeper/index.js";
import { redactSecrets } from "../log/index.js";
import { parseCommandArgs, type CommandIo } from "./command-io.js";
import {
  LAUNCHD_LABEL,
  renderLaunchdPlist,
  renderSystemdUnit,
  SYSTEMD_UNIT_NAME,
  type ServiceSpec,
} from "./service-files.js";
import { ensureServiceEnv, envFileSets, secretNames, serviceEnvPath } from "./service-env.js";
import { servicePaths } from "./service-paths.js";

/**
 * How long the service manager lets a stop take before it kills what is left: the drain, then
 * each Claude Code ending, with its SessionEnd hooks (up to the 60 s their `timeout` can ask,
 * which Telecode waits for) and the grace after, then the chat's last messages (up to 15 s).
 */
export const stopTimeoutSeconds = (config: Config): number => config.limits.drainSeconds + 90;

export const SERVICE_HELP = `Usage: telecode service install|uninstall [options]

install     write a systemd user unit (Linux) or a launchd agent (macOS) that runs the
            bridge and restarts it after a failure, and service.env beside the config
            (mode 0600) for the API key and other secrets; then print how to enable it
uninstall   remove it again, and print how to stop the running service

Options:
  --config FILE        the config the service uses (default: the one telecode finds now)
  --platform P         linux or darwin (default: this machine's)
  --dry-run            print what would be written or removed; change nothing
  --help, -h           this help
`;

export type ServicePlatform = "linux" | "darwin";

export type ServiceDeps = {
  platform?: NodeJS.Platform;
  nodePath?: string;
  binPath?: string;
  cwd?: string;
  /** systemd-run for the service; default: found on PATH. */
  systemdRun?: string | null;
};

/** Where the service file goes for this platform and home. */
export function serviceFilePath(platform: ServicePlatform, env: CommandIo["env"]): string {
  const home = homeDirOf(env);
  if (platform === "darwin") return join(home, "Library", "LaunchAgents", `${LAUNCHD_LABEL}.plist`);
  const xdg = env["XDG_CONFIG_HOME"];
  const configHome = xdg !== undefined && isAbsolute(xdg) ? xdg : join(home, ".config");
  return join(configHome, "systemd", "user", SYSTEMD_UNIT_NAME);
}

function defaultBinPath(): string {
  // src/cli/service.ts and dist/cli/service.js both sit two levels below the package root.
  return fileURLToPath(new URL("../../bin/telecode.js", import.meta.url));
}

function enableHint(platform: ServicePlatform, file: string): string {
  if (platform === "darwin") {
    return [
      `Start it now and at every login:`,
      `  launchctl bootstrap gui/$(id -u) ${file}`,
      `Logs: ~/Library/Logs/telecode.log (crashes) and the data directory's logs/.`,
    ].join("\n");
  }
  return [
    "Start it now and at every login:",
    "  systemctl --user daemon-reload",
    `  systemctl --user enable --now ${SYSTEMD_UNIT_NAME}`,
    "Keep it running while you are logged out:",
    "  loginctl enable-linger $USER",
    `Status and crashes: systemctl --user status telecode; journalctl --user -u telecode`,
  ].join("\n");
}

/** Words people try on the service that its manager does, not Telecode. */
const MANAGED_ACTIONS = new Set(["status", "start", "stop", "restart", "enable", "disable", "logs"]);

function managerHint(platform: ServicePlatform): string {
  if (platform === "darwin") {
    const target = `gui/$(id -u)/${LAUNCHD_LABEL}`;
    return [
      `  launchctl print ${target}           whether it runs`,
      `  launchctl kickstart -k ${target}    restart it`,
      `  launchctl bootout ${target}         stop it`,
      "Logs: ~/Library/Logs/telecode.log (crashes) and the data directory's logs/.",
    ].join("\n");
  }
  return [
    `  systemctl --user status ${SYSTEMD_UNIT_NAME}    (and start, stop, restart the same way)`,
    `  journalctl --user -u ${SYSTEMD_UNIT_NAME}       its output and crashes`,
    "Telecode's own log: logs/ in its data directory.",
  ].join("\n");
}

function stopHint(platform: ServicePlatform): string {
  if (platform === "darwin") return `Stop the running agent: launchctl bootout gui/$(id -u)/${LAUNCHD_LABEL}`;
  return `Stop the running service: systemctl --user stop ${SYSTEMD_UNIT_NAME} && systemctl --user daemon-reload`;
}

type Flags = {
  config?: string | undefined;
  platform?: string | undefined;
  "dry-run"?: boolean | undefined;
  help?: boolean | undefined;
};

/** Runs `telecode service`; returns 0 on success, 1 on failure, 2 for bad usage. */
export function runService(argv: string[], io: CommandIo, deps: ServiceDeps = {}): number {
  let flags: Flags;
  let positionals: string[];
  try {
    const parsed = parseCommandArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: {
        config: { type: "string" },
        platform: { type: "string" },
        "dry-run": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
    flags = parsed.values;
    positionals = parsed.positionals;
  } catch (error) {
    io.stderr.write(`telecode service: ${error instanceof Error ? error.message : String(error)}\n\n${SERVICE_HELP}`);
    return 2;
  }
  if (flags.help === true) {
    io.stdout.write(SERVICE_HELP);
    return 0;
  }
  const [action, ...extra] = positionals;
  const platform = flags.platform ?? deps.platform ?? process.platform;
  if (action !== undefined && MANAGED_ACTIONS.has(action) && (platform === "linux" || platform === "darwin")) {
    const manager = platform === "darwin" ? "launchd" : "systemd";
    io.stderr.write(
      `telecode service: ${manager} runs the installed service, not Telecode; use:\n${managerHint(platform)}\n`,
    );
    return 2;
  }
  if ((action !== "install" && action !== "uninstall") || extra.length > 0) {
    const meant = action === undefined || extra.length > 0 ? undefined : closestName(action, ["install", "uninstall"]);
    const said = meant === undefined ? "say install or uninstall." : `"${action}": did you mean ${meant}?`;
    io.stderr.write(`telecode service: ${said}\n\n${SERVICE_HELP}`);
    return 2;
  }
  if (platform !== "linux" && platform !== "darwin") {
    io.stderr.write(
      `telecode service: ${platform} is not supported; it writes systemd units (linux) and launchd agents (darwin).\n`,
    );
    return platform === flags.platform ? 2 : 1;
  }
  const file = serviceFilePath(platform, io.env);
  const dryRun = flags["dry-run"] === true;
  return action === "install"
    ? install(platform, file, flags, dryRun, io, deps)
    : uninstall(platform, file, dryRun, io);
}

function install(
  platform: ServicePlatform,
  file: string,
  flags: Flags,
  dryRun: boolean,
  io: CommandIo,
  deps: ServiceDeps,
): number {
  const cwd = deps.cwd ?? process.cwd();
  const configPath = locateConfigFile({ flag: flags.config, env: io.env, cwd }).path;
  let config: Config;
  let tokenOnlyInShell: boolean;
  try {
    config = loadConfig({ configPath, env: io.env, cwd }).config;
    // The service gets TELECODE_CONFIG, PATH and the environment file, not this shell's environment.
    tokenOnlyInShell =
      (io.env["TELECODE_BOT_TOKEN"] ?? "") !== "" &&
      loadConfig({ configPath, env: { ...io.env, TELECODE_BOT_TOKEN: undefined }, cwd }).config.telegram.botToken ===
        null;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    const secrets = [io.env["TELECODE_BOT_TOKEN"] ?? "", io.env["ANTHROPIC_API_KEY"] ?? ""];
    io.stderr.write(
      `telecode service: the service would not start with this config.\n${redactSecrets(error.message, secrets)}\n`,
    );
    return 1;
  }
  const paths = servicePaths({
    nodePath: deps.nodePath ?? process.execPath,
    binPath: deps.binPath ?? defaultBinPath(),
    shellPath: io.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
    claudeCommand: config.claude.path,
  });
  const envFile = serviceEnvPath(configPath);
  const spec: ServiceSpec = {
    nodePath: paths.nodePath,
    binPath: paths.binPath,
    configPath,
    pathEnv: paths.pathEnv,
    envFile,
    stopTimeoutSeconds: stopTimeoutSeconds(config),
    logPath: join(homeDirOf(io.env), "Library", "Logs", "telecode.log"),
  };
  const text = platform === "darwin" ? renderLaunchdPlist(spec) : renderSystemdUnit(spec);
  for (const path of paths.inNpxCache)
    io.stderr.write(
      `telecode service: ${path} is in npm's npx cache, which npm clears when it likes; the service would then fail to start. Install Telecode to stay (npm install -g, or a clone with npm install) and run \`telecode service install\` from there.\n`,
    );
  if (tokenOnlyInShell && !envFileSets(envFile, "TELECODE_BOT_TOKEN")) {
    io.stderr.write(
      `telecode service: the bot token comes from TELECODE_BOT_TOKEN in this shell, which the service will not see. Put it in ${envFile} (TELECODE_BOT_TOKEN=…) or in ${configPath} (telegram.bot_token), or the service cannot start.\n`,
    );
  }
  if (config.claude.useApiBilling && !envFileSets(envFile, "ANTHROPIC_API_KEY")) {
    io.stderr.write(
      `telecode service: claude.use_api_billing is on, and the service sees no ANTHROPIC_API_KEY (it does not read this shell's). Put ANTHROPIC_API_KEY=… in ${envFile}.\n`,
    );
  }
  const systemdRun = deps.systemdRun === undefined ? findOnPath("systemd-run", spec.pathEnv) : deps.systemdRun;
  const survival = survivalNote(platform, systemdRun);
  if (survival.warning) io.stderr.write(`telecode service: ${survival.text}\n`);
  const note = survival.warning ? "" : `${survival.text}\n`;
  if (dryRun) {
    const envNote = existsSync(envFile)
      ? ""
      : `Would create ${envFile} (mode 0600) for the API key and other secrets.\n`;
    io.stdout.write(`Would write ${file}:\n\n${text}\n${envNote}${note}${enableHint(platform, file)}\n`);
    return 0;
  }
  mkdirSync(dirname(envFile), { recursive: true, mode: 0o700 });
  const env = ensureServiceEnv(envFile, secretNames(config));
  if (env.readableByOthers)
    io.stderr.write(`telecode service: others can read ${envFile}; make it private: chmod 600 ${envFile}\n`);
  const replacing = existsSync(file);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, text, { mode: 0o644 });
  const envLine = env.created
    ? `Created ${envFile} (mode 0600): put the API key and other secrets there; the service reads it at every start.\n`
    : `Secrets for the service: ${envFile}\n`;
  io.stdout.write(`${replacing ? "Replaced" : "Wrote"} ${file}\n${envLine}${note}${enableHint(platform, file)}\n`);
  return 0;
}

/** Whether run keepers will outlive a restart of the service being installed, in one or two sentences. */
function survivalNote(platform: ServicePlatform, systemdRun: string | null): { text: string; warning: boolean } {
  if (platform === "darwin")
    return {
      text: "Run keepers: the agent leaves them running when it stops (AbandonProcessGroup), so a restart does not end them.",
      warning: false,
    };
  const plan = keeperLaunchPlan({
    platform: "linux",
    systemdUnit: SYSTEMD_UNIT_NAME,
    userManager: true,
    systemdRun,
    // A user service reaches its manager's bus; `telecode doctor` checks it where it runs.
    busReachable: true,
  });
  return plan.survivesRestart
    ? {
        text: `Run keepers: they start in a scope of their own (systemd-run --user --scope), outside ${SYSTEMD_UNIT_NAME}, so a restart does not end them.`,
        warning: false,
      }
    : { text: `${plan.why}. To fix: ${plan.fix ?? ""}.`, warning: true };
}

function uninstall(platform: ServicePlatform, file: string, dryRun: boolean, io: CommandIo): number {
  // `systemctl enable` leaves a link in default.target.wants; remove it too so nothing dangles.
  const wantsLink = platform === "linux" ? join(file, "..", "default.target.wants", SYSTEMD_UNIT_NAME) : null;
  const present = [file, ...(wantsLink !== null && existsSync(wantsLink) ? [wantsLink] : [])].filter((p) =>
    existsSync(p),
  );
  if (present.length === 0) {
    io.stdout.write(`Nothing to remove: ${file} does not exist.\n`);
    return 0;
  }
  if (dryRun) {
    io.stdout.write(`Would remove:\n${present.map((p) => `  ${p}`).join("\n")}\n${stopHint(platform)}\n`);
    return 0;
  }
  for (const path of present) rmSync(path, { force: true });
  io.stdout.write(`Removed:\n${present.map((p) => `  ${p}`).join("\n")}\n${stopHint(platform)}\n`);
  return 0;
}
