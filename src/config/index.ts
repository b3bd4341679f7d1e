// The config folder's public surface: load, check, watch and write the TOML config.
export type {
  ClaudeConfig,
  Config,
  ConfigWarning,
  ConfigWarningCode,
  LimitsConfig,
  LoadedConfig,
  LoopsConfig,
  ProjectConfig,
  ScheduleConfig,
  SchedulingConfig,
  TelegramConfig,
} from "./config-types.js";
export { ConfigError, type ConfigErrorCode } from "./errors.js";
export type { FilesConfig, VoiceConfig } from "./media-config.js";
export { isExistingFolder, loadConfig, requireTelegram, type LoadConfigOptions } from "./load-config.js";
export { expandHome, homeDirOf, locateConfigFile, resolveDataDir, type ConfigLocation, type Env } from "./paths.js";
export { schedulerSettingsOf } from "./schedule-config.js";
export { BOT_TOKEN_PATTERN, CONFIG_PERMISSION_MODES, DEFAULT_API_ROOT, EFFORTS, type Effort } from "./schema.js";
export {
  applyLiveChanges,
  diffConfig,
  watchConfig,
  type ConfigReload,
  type ConfigWatcher,
  type WatchConfigOptions,
} from "./watch-config.js";
export { projectNameFor, renderConfigFile, writeConfigFile, type NewConfig } from "./write-config.js";
