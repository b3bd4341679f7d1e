// The validated, frozen configuration every other module receives (camelCase, defaults
// applied, paths absolute, environment overrides resolved). Types only.
import type { ClaudeProvider } from "../claude/index.js";
import type { BudgetCaps, PermissionMode } from "../domain/index.js";
import type { WebhookConfig, WebhookServerConfig } from "../triggers/index.js";
import type { FilesConfig, VoiceConfig } from "./media-config.js";
import type { ConfigScheduleEntry, LoopCaps } from "../schedule/index.js";
import type { Effort, GROUP_APPROVALS, GROUP_SESSIONS } from "./schema.js";

export type ProjectConfig = Readonly<{
  /** The [projects.NAME] key; what /project shows. */
  name: string;
  /** Absolute, `~` expanded, checked to be an existing directory at load. */
  path: string;
  isDefault: boolean;
  /** Where each chat's (and topic's) own git worktree of the project goes; null: they all work in `path`. */
  worktreesDir: string | null;
  /** What a new worktree starts from (a branch, tag or commit); null: the project's HEAD then. */
  worktreeBase: string | null;
}>;

export type TelegramConfig = Readonly<{
  /** From TELECODE_BOT_TOKEN when set, else the file; null when neither has one. */
  botToken: string | null;
  /** Empty when not configured; `requireTelegram` refuses to serve then. */
  allowedUserIds: readonly number[];
  /** Without a trailing slash. */
  apiRoot: string;
  /** Tell a stranger who writes to the bot that it is private (once), instead of silence. */
  notifyUnauthorised: boolean;
  /** In a group: "requester", only who asked for a run answers its decisions; "anyone", any allowed user. */
  groupApprovals: (typeof GROUP_APPROVALS)[number];
  /**
   * In a group's main view: "shared", one conversation for everyone in it; "per_person", each
   * member's own (a reply to an answer continues the conversation it is of).
   */
  groupSessions: (typeof GROUP_SESSIONS)[number];
}>;

export type ClaudeConfig = Readonly<{
  /** TELECODE_CLAUDE_PATH, else claude.path: a command looked up on PATH or an absolute path. */
  path: string;
  permissionMode: Exclude<PermissionMode, "bypassPermissions">;
  /** null: the CLI's default. */
  model: string | null;
  /** null: the CLI's default. */
  effort: Effort | null;
  allowedTools: readonly string[];
  /** Checked at load: only safe flags, and the unsafe ones `dangerouslyAllowUnsafeArgs` names. */
  extraArgs: readonly string[];
  /** Unsafe flags (settings, MCP, agents, …) the person let through; warned at every start. */
  dangerouslyAllowUnsafeArgs: readonly string[];
  /** Where model calls go; decides which credentials reach the CLI. */
  provider: ClaudeProvider;
  /** With the `anthropic` provider: ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN instead of the subscription login. */
  useApiBilling: boolean;
  dangerouslySkipPermissions: boolean;
  /** The chat offers Claude Code's guess at the next message under an answer (one more request a turn). */
  promptSuggestions: boolean;
  envAllow: readonly string[];
}>;

export type LimitsConfig = Readonly<{
  /** 0: an idle CLI process is never ended. */
  idleSessionMinutes: number;
  /** 0: no stall note. */
  stallNoteMinutes: number;
  /** 0: silence never ends a run. */
  hardSilenceMinutes: number;
  /** 0: wait for the person. */
  approvalTimeoutMinutes: number;
  /** How long a graceful stop lets running runs finish before interrupting them. */
  drainSeconds: number;
  /** Messages older than this when Telecode comes back are answered "send it again". */
  offlineMaxAgeMinutes: number;
  /** After a plan is approved and carried out, return to plan mode for the next request. */
  planRearm: boolean;
  /** The longest the return to plan mode waits for subagents the approved plan started; 0: no wait. */
  rearmCeilingMinutes: number;
}>;

export type LoopsConfig = Readonly<{
  /** false: Claude's loops are refused and held, and the CLI is started without its cron tools. */
  enabled: boolean;
  /** Whether runs of loops and chat schedules may wait for a person's approval. */
  attended: boolean;
  caps: LoopCaps;
}>;

export type ScheduleConfig = Readonly<{
  /** `[schedule] timezone`, else the system's: the zone of loops, chat schedules and entries without one. */
  timeZone: string;
  paused: boolean;
  graceMinutes: number;
}>;

/** [loops], [schedule] and [[schedules]] (in file order, defaults applied). */
export type SchedulingConfig = Readonly<{
  loops: LoopsConfig;
  schedule: ScheduleConfig;
  schedules: readonly ConfigScheduleEntry[];
}>;

export type Config = Readonly<{
  /** The file this came from; null when no file exists and the defaults are used. */
  file: string | null;
  telegram: TelegramConfig;
  claude: ClaudeConfig;
  /** In file order. */
  projects: readonly ProjectConfig[];
  /** The one marked `default = true`, else the only or first project; null without projects. */
  defaultProject: ProjectConfig | null;
  limits: LimitsConfig;
  /** [budget]: what runs started from the chats may cost. */
  budget: BudgetCaps;
  state: Readonly<{ dir: string }>;
  /** Used only when `webhooks` is not empty. */
  webhookServer: WebhookServerConfig;
  /** In file order; the webhook server starts only when there is one. */
  webhooks: readonly WebhookConfig[];
  files: FilesConfig;
  voice: VoiceConfig;
  loops: LoopsConfig;
  schedule: ScheduleConfig;
  schedules: readonly ConfigScheduleEntry[];
}>;

export type ConfigWarningCode =
  | "config.readable_by_others"
  | "claude.skip_permissions"
  | "claude.unsafe_args"
  | "claude.api_key_missing"
  | "project.folder_missing";

export type ConfigWarning = Readonly<{ code: ConfigWarningCode; message: string }>;

export type LoadedConfig = Readonly<{ config: Config; warnings: readonly ConfigWarning[] }>;
