// The CLI's environment: built from an allowlist, never the whole parent environment, so
// Telecode's own secrets (bot token) and unrelated credentials never reach the agent.
// ANTHROPIC_API_KEY passes only with use_api_billing (else the API is billed, not the subscription).

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
  // Anthropic endpoint and models (ANTHROPIC_API_KEY is handled apart)
  "ANTHROPIC_BASE_URL",
  "ANTHROPIC_AUTH_TOKEN",
  "ANTHROPIC_MODEL",
  "ANTHROPIC_SMALL_FAST_MODEL",
  "ANTHROPIC_DEFAULT_OPUS_MODEL",
  "ANTHROPIC_DEFAULT_SONNET_MODEL",
  "ANTHROPIC_DEFAULT_HAIKU_MODEL",
  "ANTHROPIC_BEDROCK_BASE_URL",
  "ANTHROPIC_VERTEX_BASE_URL",
  "ANTHROPIC_VERTEX_PROJECT_ID",
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
  // cloud providers (Bedrock, Vertex)
  "GOOGLE_APPLICATION_CREDENTIALS",
  "GOOGLE_CLOUD_PROJECT",
  "GCLOUD_PROJECT",
  "CLOUD_ML_REGION",
]);

const PREFIXES = ["LC_", "CLAUDE_", "AWS_", "VERTEX_REGION_"];

export type ChildEnvOptions = {
  /** Names the user added in config (claude.env_allow). */
  envAllow?: readonly string[] | undefined;
  useApiBilling?: boolean | undefined;
  disableCron?: boolean | undefined;
};

/** The environment for one CLI process. */
export function buildChildEnv(parent: NodeJS.ProcessEnv, options: ChildEnvOptions = {}): NodeJS.ProcessEnv {
  const extra = new Set(options.envAllow ?? []);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value === undefined || name === "ANTHROPIC_API_KEY") continue;
    if (EXACT.has(name) || extra.has(name) || PREFIXES.some((p) => name.startsWith(p))) env[name] = value;
  }
  const apiKey = parent["ANTHROPIC_API_KEY"];
  if (options.useApiBilling === true && apiKey !== undefined) env["ANTHROPIC_API_KEY"] = apiKey;
  // So the user's hooks can tell a Telecode-driven session from an interactive one.
  env["TELECODE_SESSION"] = "1";
  if (options.disableCron === true) env["CLAUDE_CODE_DISABLE_CRON"] = "1";
  return env;
}
