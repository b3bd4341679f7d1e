// `telecode` (serve): loads the config, starts the app (compose/telecode-app.ts) and runs until
// SIGINT, SIGTERM or SIGHUP (exit 0 after a graceful stop) or /restart (stopped and started
// again in this process), re-reading the config as it changes.
import {
  ConfigError,
  loadConfig,
  requireTelegram,
  watchConfig,
  type Config,
  type LoadedConfig,
} from "../config/index.js";
import { sentence, type ClaudeVersionCheck } from "../domain/index.js";
import { redactSecrets } from "../log/index.js";
import { proxyPasswords, ProxySettingError } from "../net/index.js";
import { botRefusalOf, webhookRemovedWords } from "../render/index.js";
import { BridgeError, type Restarted } from "../telegram/index.js";
import type { Logger } from "../ports/index.js";
import { parseConfigArgs, type CommandIo } from "./command-io.js";
import { NEEDS_A_PERSON } from "./exit-codes.js";
import { startTelecode, type TelecodeApp } from "./compose/telecode-app.js";
import { claudeProbeCacheFile } from "./data-dir.js";
import { logClaudeVersion } from "./doctor-version.js";
import { initCommand, telecodeInvocation } from "./invocation.js";
import { claimDataDir } from "./serve-claim.js";

export const SERVE_HELP = `Usage: telecode [--config FILE]

Runs the Telegram bridge: messages from the allowed users start Claude Code runs in the
chat's project, with live progress, approval buttons and the answer as a new message.
Stop with Ctrl+C (running tasks get limits.drain_seconds to finish). Without a config file,
run \`telecode init\` first.
`;

type StopReason = "signal" | "restart" | "polling_failed";

const STOP_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Runs the bridge until stopped; returns the exit code: 0 after a graceful stop, NEEDS_A_PERSON
 * (78) for a config or bot token to mend first, 1 for any other failure to start or go on.
 */
export async function runServe(argv: string[], io: CommandIo): Promise<number> {
  const values = parseConfigArgs(argv, io, { prefix: "telecode", help: SERVE_HELP });
  if (typeof values === "number") return values;
  if (isFirstRun(values.config, io) && process.stdin.isTTY === true) {
    // First run at a terminal: set up now instead of sending the person elsewhere.
    io.stderr.write(
      `telecode: no config yet; starting \`${telecodeInvocation({ env: io.env, cwd: process.cwd() }).command} init\`.\n`,
    );
    const code = await (
      await import("./init.js")
    ).runInit(values.config === undefined ? [] : ["--config", values.config], io);
    if (code !== 0) return code;
  }
  const loaded = load(values.config, io);
  if (loaded === undefined) return NEEDS_A_PERSON;
  let current = loaded.config;
  // One Telecode per data directory, and a clear message (not a stack trace) when it is unusable.
  const claim = claimDataDir(current, io, secretsOf(current, io));
  if (claim === undefined) return 1;
  const { logger } = claim;
  for (const warning of loaded.warnings) logger.event("config.warning", { ...warning }, "warn");
  // The CLI's version reaches the log (and /status) when `claude --version` answers; serving
  // does not wait for it.
  let claudeVersion: ClaudeVersionCheck | undefined;
  const versionLogged = logClaudeVersion({
    command: current.claude.path,
    env: io.env,
    logger,
    cacheFile: claudeProbeCacheFile(current.state.dir),
  }).then((verdict) => void (claudeVersion = verdict));
  /** The app running now, told when the config's live keys change. */
  let running: TelecodeApp | undefined;
  const watcher =
    current.file === null
      ? undefined
      : watchConfig(
          current.file,
          (reload) => {
            if (!reload.ok) {
              logger.event("config.reload_failed", { error: reload.error.message }, "warn");
              // Whoever edited the file is at this terminal: the settings before the edit stay.
              io.stderr.write(
                `telecode: the config file changed but could not be read, so the settings before the change stay in use: ${redactSecrets(reload.error.message, secretsOf(current, io))}\n`,
              );
              return;
            }
            current = reload.config;
            logger.event("config.reloaded", { applied: reload.appliedKeys, needRestart: reload.restartKeys });
            void running?.configChanged();
            if (reload.restartKeys.length > 0)
              io.stderr.write(
                `telecode: config changed; ${reload.restartKeys.join(", ")} take effect after a restart (/restart in Telegram, or restart the service).\n`,
              );
          },
          { initial: current, env: io.env },
        );
  let signalled = 0;
  let stop: (reason: StopReason) => void = () => undefined;
  /** The chat that sent /restart, and the restart for the next start to tell it about. */
  const restart: { from: number | undefined; next: Restarted | undefined } = { from: undefined, next: undefined };
  // A signal also ends a start still waiting for the Bot API.
  const stopping = new AbortController();
  const onSignal = (signal: NodeJS.Signals): void => {
    signalled++;
    if (signalled > 1) {
      io.stderr.write("telecode: stopping now without waiting for running tasks.\n");
      process.exit(130);
    }
    logger.event("serve.signal", { signal });
    io.stderr.write(`telecode: stopping (${signal}); running tasks get ${current.limits.drainSeconds} s to finish.\n`);
    stopping.abort();
    stop("signal");
  };
  // SIGHUP: the terminal it runs in was closed; the same graceful stop (kept tasks go on).
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  let pollingError: unknown;
  try {
    for (;;) {
      const stopped = new Promise<StopReason>((resolve) => (stop = resolve));
      if (stopping.signal.aborted) return 0;
      if (!claim.cover(current.state.dir)) return 1;
      let app: TelecodeApp;
      try {
        app = await startTelecode({
          config: () => current,
          env: io.env,
          logger,
          claudeVersion: () => claudeVersion,
          onRestartRequested: (chatId) => {
            restart.from = chatId;
            stop("restart");
          },
          ...(restart.next === undefined ? {} : { restarted: restart.next }),
          onPollingFailed: (error) => {
            pollingError = error;
            stop("polling_failed");
          },
          onWebhookRemoved: (site) => io.stderr.write(`telecode: ${webhookRemovedWords(site)}\n`),
          onBotApiUnreachable: ({ apiRoot, attempt, reason, retryInMs, hint }) => {
            io.stderr.write(
              `telecode: can't reach the Bot API at ${apiRoot} (${reason}); retrying in ${Math.round(retryInMs / 1000)} s. Press Ctrl+C to stop.\n`,
            );
            if (hint !== undefined && attempt === 1) io.stderr.write(`telecode: ${sentence(hint)}\n`);
          },
          signal: stopping.signal,
        });
      } catch (error) {
        if (error instanceof BridgeError && error.code === "telegram.start_aborted") return 0;
        logger.event("serve.start_failed", { err: error }, "error");
        const refusal = botRefusalOf(error);
        const words = refusal ?? (error instanceof Error ? error.message : String(error));
        io.stderr.write(`telecode: could not start: ${redactSecrets(words, secretsOf(current, io))}\n`);
        // Started again as it is, it would fail alike: the service manager is not to restart it.
        return refusal === undefined && !(error instanceof ProxySettingError) ? 1 : NEEDS_A_PERSON;
      }
      const through = app.telegramRoute === undefined ? "" : `, reaching Telegram ${app.telegramRoute}`;
      io.stderr.write(`telecode: running as @${app.bridge.botUsername}${through}. Press Ctrl+C to stop.\n`);
      restart.next = undefined;
      running = app;
      const reason = await stopped;
      running = undefined;
      await app.stop();
      if (reason === "polling_failed") {
        const refusal = botRefusalOf(pollingError);
        const words =
          refusal ??
          "Telegram stopped delivering updates (is the bot token still valid, or does another program take this bot's messages?); see the log.";
        io.stderr.write(`telecode: ${words}\n`);
        return refusal === undefined ? 1 : NEEDS_A_PERSON;
      }
      if (reason !== "restart") return 0;
      const problems: string[] = [];
      current = load(values.config, io, logger, (problem) => problems.push(problem))?.config ?? current;
      if (restart.from !== undefined) {
        const [problem] = problems;
        restart.next = { chatId: restart.from, ...(problem === undefined ? {} : { configProblem: problem }) };
        restart.from = undefined;
      }
      // A restart is when a new bot token takes effect; the log must redact it too.
      for (const secret of secretsOf(current, io)) logger.addSecret(secret);
      logger.event("serve.restarting", {});
    }
  } finally {
    for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    watcher?.close();
    await versionLogged;
    claim.release();
  }
}

/** Environment variables whose values are credentials: never printed or logged by serve. */
const SECRET_ENV = [
  "TELECODE_BOT_TOKEN",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_AUTH_TOKEN",
  "CLAUDE_CODE_OAUTH_TOKEN",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "AWS_BEARER_TOKEN_BEDROCK",
];

/** The values redacted from everything serve logs or prints: the bot token, the credentials above, and proxies' passwords. */
function secretsOf(config: Config | undefined, io: CommandIo): string[] {
  return [
    config?.telegram.botToken ?? "",
    ...SECRET_ENV.map((name) => io.env[name] ?? ""),
    ...proxyPasswords(io.env),
  ].filter((s) => s !== "");
}

/** No config file and no token from the environment: nothing has been set up yet. */
function isFirstRun(configPath: string | undefined, io: CommandIo): boolean {
  try {
    const { config } = loadConfig({ configPath, env: io.env });
    return config.file === null && config.telegram.botToken === null;
  } catch {
    return false;
  }
}

/**
 * The config, checked for serving; undefined when it cannot serve, after saying why on stderr
 * (and to `onProblem`, the file's problems alone), redacted (a file that fails may quote a
 * token). Warnings are shown (and logged).
 */
function load(
  configPath: string | undefined,
  io: CommandIo,
  logger?: Logger,
  onProblem?: (problem: string) => void,
): LoadedConfig | undefined {
  try {
    // Named as it works where the person is: after a clone, `telecode` alone is not on PATH.
    const init = initCommand({ env: io.env, cwd: process.cwd() });
    const { config, warnings } = loadConfig({ configPath, env: io.env, initCommand: init });
    if (config.file === null && config.telegram.botToken === null) {
      io.stderr.write(
        `telecode: no config file found. Run \`${init}\` to set up the bot token, your user id and a project.\n`,
      );
      return undefined;
    }
    requireTelegram(config, init);
    for (const warning of warnings) {
      io.stderr.write(`telecode: warning: ${redactSecrets(warning.message, secretsOf(config, io))}\n`);
      logger?.event("config.warning", { ...warning }, "warn");
    }
    return { config, warnings };
  } catch (error) {
    if (error instanceof ConfigError) {
      // A config error may quote a value from the file; a pasted token must not reach the terminal.
      // The file could not be read, so its own secrets are not known: the environment's, and
      // anything shaped like a token or a key (redactSecrets), are taken out.
      const secrets = secretsOf(undefined, io);
      io.stderr.write(`telecode: ${redactSecrets(error.message, secrets)}\n`);
      // Elsewhere than this terminal, the problems alone: the message's last line says to run again.
      const problems = error.problems.length > 0 ? error.problems.map(sentence).join(" ") : error.message;
      onProblem?.(redactSecrets(problems, secrets));
      return undefined;
    }
    throw error;
  }
}
