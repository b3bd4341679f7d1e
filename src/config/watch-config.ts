// Hot reload: watches the config file, reloads after a quiet period, applies the parts that
// are safe to change while running, and names the keys that only take effect after a restart.
import { statSync, watch, type FSWatcher } from "node:fs";
import { basename, dirname } from "node:path";
import type { Config, ConfigWarning } from "./config-types.js";
import { ConfigError } from "./errors.js";
import { loadConfig } from "./load-config.js";
import type { Env } from "./paths.js";

export type ConfigReload =
  | Readonly<{
      ok: true;
      /** The config to use from now on: new safe values, old values for restart-only keys. */
      config: Config;
      warnings: readonly ConfigWarning[];
      /** File key paths whose new value is now in effect. */
      appliedKeys: readonly string[];
      /** File key paths that changed but keep their old value until Telecode restarts. */
      restartKeys: readonly string[];
    }>
  | Readonly<{ ok: false; error: ConfigError }>;

export type WatchConfigOptions = {
  /** The config in effect now; changes are measured against it. */
  initial: Config;
  env: Env;
  /** Quiet period after the last change event before reloading (editors write in bursts). */
  debounceMs?: number;
};

export type ConfigWatcher = { close(): void };

type KeyRule = { key: string; read: (c: Config) => unknown; live: boolean };

/** Live keys are read per message or per run; the others are bound at start-up. */
const KEY_RULES: readonly KeyRule[] = [
  { key: "telegram.bot_token", read: (c) => c.telegram.botToken, live: false },
  { key: "telegram.api_root", read: (c) => c.telegram.apiRoot, live: false },
  { key: "telegram.allowed_user_ids", read: (c) => c.telegram.allowedUserIds, live: true },
  { key: "telegram.notify_unauthorised", read: (c) => c.telegram.notifyUnauthorised, live: true },
  { key: "telegram.group_approvals", read: (c) => c.telegram.groupApprovals, live: true },
  { key: "telegram.group_sessions", read: (c) => c.telegram.groupSessions, live: true },
  { key: "claude.path", read: (c) => c.claude.path, live: false },
  { key: "claude.permission_mode", read: (c) => c.claude.permissionMode, live: true },
  { key: "claude.model", read: (c) => c.claude.model, live: true },
  { key: "claude.effort", read: (c) => c.claude.effort, live: true },
  { key: "claude.allowed_tools", read: (c) => c.claude.allowedTools, live: false },
  { key: "claude.extra_args", read: (c) => c.claude.extraArgs, live: false },
  {
    key: "claude.dangerously_allow_unsafe_args",
    read: (c) => c.claude.dangerouslyAllowUnsafeArgs,
    live: false,
  },
  { key: "claude.provider", read: (c) => c.claude.provider, live: false },
  { key: "claude.use_api_billing", read: (c) => c.claude.useApiBilling, live: false },
  { key: "claude.dangerously_skip_permissions", read: (c) => c.claude.dangerouslySkipPermissions, live: false },
  { key: "claude.prompt_suggestions", read: (c) => c.claude.promptSuggestions, live: true },
  { key: "claude.env_allow", read: (c) => c.claude.envAllow, live: false },
  { key: "projects", read: (c) => c.projects, live: true },
  { key: "limits", read: (c) => c.limits, live: true },
  { key: "budget", read: (c) => c.budget, live: true },
  { key: "state.dir", read: (c) => c.state.dir, live: false },
  { key: "webhook_server", read: (c) => c.webhookServer, live: true },
  { key: "webhooks", read: (c) => c.webhooks, live: true },
  { key: "files", read: (c) => c.files, live: true },
  { key: "voice", read: (c) => c.voice, live: true },
  { key: "loops", read: (c) => c.loops, live: true },
  { key: "schedule", read: (c) => c.schedule, live: true },
  { key: "schedules", read: (c) => c.schedules, live: true },
];

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The running config with only the live keys taken from `next`. */
export function applyLiveChanges(current: Config, next: Config): Config {
  return Object.freeze({
    ...current,
    telegram: Object.freeze({
      ...current.telegram,
      allowedUserIds: next.telegram.allowedUserIds,
      notifyUnauthorised: next.telegram.notifyUnauthorised,
    }),
    claude: Object.freeze({
      ...current.claude,
      permissionMode: next.claude.permissionMode,
      model: next.claude.model,
      effort: next.claude.effort,
      promptSuggestions: next.claude.promptSuggestions,
    }),
    projects: next.projects,
    defaultProject: next.defaultProject,
    limits: next.limits,
    files: next.files,
    voice: next.voice,
    loops: next.loops,
    schedule: next.schedule,
    schedules: next.schedules,
    webhookServer: next.webhookServer,
    webhooks: next.webhooks,
  });
}

/** Compares two configs key by key: which changes apply now and which need a restart. */
export function diffConfig(current: Config, next: Config): { appliedKeys: string[]; restartKeys: string[] } {
  const changed = KEY_RULES.filter((rule) => !same(rule.read(current), rule.read(next)));
  return {
    appliedKeys: changed.filter((r) => r.live).map((r) => r.key),
    restartKeys: changed.filter((r) => !r.live).map((r) => r.key),
  };
}

/**
 * Watches `path` (through its directory, so editors that replace the file are seen) and calls
 * `onChange` once per settled change: with the new effective config, or with the ConfigError
 * when the edited file is invalid (the running config then stays as it was).
 */
export function watchConfig(
  path: string,
  onChange: (reload: ConfigReload) => void,
  options: WatchConfigOptions,
): ConfigWatcher {
  const debounceMs = options.debounceMs ?? 250;
  let current = options.initial;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const reload = (): void => {
    timer = undefined;
    if (closed) return;
    // An editor saving in place truncates first; an empty file is a save in progress, and
    // the write that follows brings another event.
    if (statSync(path, { throwIfNoEntry: false })?.size === 0) return;
    let loaded;
    try {
      loaded = loadConfig({ configPath: path, env: options.env });
    } catch (error) {
      // A timer callback must not throw: an odd failure becomes a reload error like any other.
      const reported =
        error instanceof ConfigError
          ? error
          : new ConfigError("config.unreadable", `Could not reload ${path}. Check the file and save it again.`, {
              file: path,
              cause: error,
            });
      onChange({ ok: false, error: reported });
      return;
    }
    const { appliedKeys, restartKeys } = diffConfig(current, loaded.config);
    if (appliedKeys.length === 0 && restartKeys.length === 0) return;
    current = applyLiveChanges(current, loaded.config);
    onChange({ ok: true, config: current, warnings: loaded.warnings, appliedKeys, restartKeys });
  };

  const name = basename(path);
  const watcher: FSWatcher = watch(dirname(path), (_event, filename) => {
    if (closed || (filename !== null && filename !== name)) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(reload, debounceMs);
  });
  return {
    close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      watcher.close();
    },
  };
}
