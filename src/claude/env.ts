// The CLI's environment: built from an allowlist, never the whole parent environment, so
// Telecode's own secrets (bot token) and unrelated credentials never reach the agent. Of the
// credentials, only those of the configured authentication pass (docs/configuration.md lists them).
import { HOOK_VAR } from "../process/index.js";

const EXACT = new Set([
  // OS basics, locale, terminal
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "TMPDIR",
  "TMP",
  "TEMP",
  "TZ",
  "LANG",
  "LANGUAGE",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  "SSH_AUTH_SOCK",
  "EDITOR",
  "VISUAL",
  "SYSTEMROOT",
  "SYSTEMDRIVE",
  "WINDIR",
  "COMSPEC",
  "PATHEXT",
  "APPDATA",
  "LOCALAPPDATA",
  "USERPROFILE",
  "PROGRAMFILES",
  // proxies and certificates
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "NO_PROXY",
  "ALL_PROXY",
  "http_proxy",
  "https_proxy",
  "no_proxy",
  "all_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  // Anthropic endpoint and models (credentials are in AUTH below)
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_BETAS",
  "ANTHROPIC_MODEL",
  "ANTHROPIC_SMALL_FAST_MODEL",
  "ANTHROPIC_DEFAULT_OPUS_MODEL",
  "ANTHROPIC_DEFAULT_SONNET_MODEL",
  "ANTHROPIC_DEFAULT_HAIKU_MODEL",
  // Claude Code's own switches that are not CLAUDE_-prefixed
  "DISABLE_AUTOUPDATER",
  "DISABLE_TELEMETRY",
  "DISABLE_ERROR_REPORTING",
  "DISABLE_BUG_COMMAND",
  "DISABLE_COST_WARNINGS",
  "DISABLE_NON_ESSENTIAL_MODEL_CALLS",
  "DISABLE_PROMPT_CACHING",
  "MAX_THINKING_TOKENS",
  "BASH_DEFAULT_TIMEOUT_MS",
  "BASH_MAX_TIMEOUT_MS",
  "MCP_TIMEOUT",
  "MCP_TOOL_TIMEOUT",
]);

const PREFIXES = ["LC_", "CLAUDE_"];

/** Where the CLI's model calls go: Anthropic's API (subscription login or API key), Bedrock, Vertex. */
export type ClaudeProvider = "anthropic" | "bedrock" | "vertex";

type AuthMode = "subscription" | "api_key" | "bedrock" | "vertex";

/** The credentials and settings each way of logging in needs; nothing else of theirs passes. */
const AUTH: Readonly<Record<AuthMode, { exact: readonly string[]; prefixes: readonly string[] }>> = {
  // A stored login lives in ~/.claude (HOME passes); `claude setup-token` gives an OAuth token.
  subscription: { exact: [], prefixes: ["CLAUDE_CODE_OAUTH_"] },
  api_key: { exact: ["ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_CUSTOM_HEADERS"], prefixes: [] },
  // The AWS SDK's credential chain reads many AWS_* names (keys, profile, SSO, web identity, region).
  bedrock: { exact: ["ANTHROPIC_SMALL_FAST_MODEL_AWS_REGION"], prefixes: ["AWS_", "ANTHROPIC_BEDROCK_"] },
  // Google's auth library reads GOOGLE_* and gcloud's CLOUDSDK_* (application default credentials).
  vertex: {
    exact: ["GCLOUD_PROJECT", "CLOUD_ML_REGION"],
    prefixes: ["GOOGLE_", "CLOUDSDK_", "VERTEX_REGION_", "ANTHROPIC_VERTEX_"],
  },
};

/** Claude Code's switch for each provider other than Anthropic's API; Telecode sets it itself. */
export const PROVIDER_SWITCH: Readonly<Record<Exclude<ClaudeProvider, "anthropic">, string>> = {
  bedrock: "CLAUDE_CODE_USE_BEDROCK",
  vertex: "CLAUDE_CODE_USE_VERTEX",
};

/** Every provider switch Claude Code reads; those of other providers pass only through env_allow. */
const ALL_SWITCHES = new Set([
  ...Object.values(PROVIDER_SWITCH),
  "CLAUDE_CODE_USE_FOUNDRY",
  "CLAUDE_CODE_USE_MANTLE",
  "CLAUDE_CODE_USE_GATEWAY",
  "CLAUDE_CODE_USE_ANTHROPIC_AWS",
  "CLAUDE_CODE_USE_ANTHROPIC_GOOGLE_CLOUD",
]);

/**
 * Variables that choose how Claude logs in and is billed, with the config key that decides
 * them instead; `claude.env_allow` may not name them.
 */
export const AUTH_ENV_KEYS: Readonly<Record<string, string>> = {
  ANTHROPIC_API_KEY: "claude.use_api_billing = true",
  ANTHROPIC_AUTH_TOKEN: "claude.use_api_billing = true",
  ...Object.fromEntries(
    Object.entries(PROVIDER_SWITCH).map(([provider, name]) => [name, `claude.provider = "${provider}"`]),
  ),
};

function authModeOf(options: ChildEnvOptions): AuthMode {
  const provider = options.provider ?? "anthropic";
  if (provider !== "anthropic") return provider;
  return options.useApiBilling === true ? "api_key" : "subscription";
}

export type ChildEnvOptions = {
  /** Names the user added in config (claude.env_allow); AUTH_ENV_KEYS are ignored here. */
  envAllow?: readonly string[] | undefined;
  /** With the `anthropic` provider: an API key or token instead of the subscription login. */
  useApiBilling?: boolean | undefined;
  /** Default `anthropic`. */
  provider?: ClaudeProvider | undefined;
  disableCron?: boolean | undefined;
};

/**
 * The environment for one CLI process: the allowlist, the credentials of the configured
 * authentication (and no other), the names from env_allow, and the provider switch.
 */
export function buildChildEnv(parent: NodeJS.ProcessEnv, options: ChildEnvOptions = {}): NodeJS.ProcessEnv {
  const auth = AUTH[authModeOf(options)];
  const extra = new Set((options.envAllow ?? []).filter((name) => !Object.hasOwn(AUTH_ENV_KEYS, name)));
  const isCredential = (name: string): boolean =>
    Object.values(AUTH).some((a) => a.exact.includes(name) || a.prefixes.some((p) => name.startsWith(p)));
  const passes = (name: string): boolean => {
    if (extra.has(name) || auth.exact.includes(name) || auth.prefixes.some((p) => name.startsWith(p))) return true;
    if (ALL_SWITCHES.has(name) || isCredential(name)) return false;
    return EXACT.has(name) || PREFIXES.some((p) => name.startsWith(p));
  };
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) if (value !== undefined && passes(name)) env[name] = value;
  // Claude Code sets it for its hooks and MCP servers, not for Bash commands, which is how a hook's
  // work is told apart from the agent's when a session ends (process/end-tree.ts): one passed
  // down would mark every process.
  delete env[HOOK_VAR];
  const provider = options.provider ?? "anthropic";
  if (provider !== "anthropic") env[PROVIDER_SWITCH[provider]] = "1";
  // So the user's hooks can tell a Telecode-driven session from an interactive one.
  env["TELECODE_SESSION"] = "1";
  if (options.disableCron === true) env["CLAUDE_CODE_DISABLE_CRON"] = "1";
  // A CLI that will not start for a cause it knows says which in a result, not only on stderr.
  env["CLAUDE_CODE_STARTUP_FAILURE_RESULTS"] = "1";
  return env;
}
