// The service's environment file (service.env beside the config, mode 0600): where the API key
// and other secrets reach the service without being written into the unit or the plist. It is
// created with the names Telecode reads, commented out, and never filled from this shell.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Config } from "../config/index.js";

export const SERVICE_ENV_FILE = "service.env";

export function serviceEnvPath(configPath: string): string {
  return join(dirname(configPath), SERVICE_ENV_FILE);
}

/** The variables Telecode reads that hold secrets, each with what it is for. */
export function secretNames(config: Config): { name: string; what: string }[] {
  const names = [{ name: "TELECODE_BOT_TOKEN", what: "the bot token, when it is not in the config file" }];
  if (config.claude.useApiBilling)
    names.push({ name: "ANTHROPIC_API_KEY", what: "the Anthropic API key (claude.use_api_billing = true)" });
  for (const hook of config.webhooks)
    if (hook.secretEnv !== null) names.push({ name: hook.secretEnv, what: `the secret of webhook ${hook.id}` });
  return names;
}

export function renderServiceEnv(names: readonly { name: string; what: string }[]): string {
  return [
    "# The Telecode service's environment, read at every start (systemd: EnvironmentFile=; launchd:",
    "# node --env-file). Keep it private (mode 0600). One NAME=value per line; restart the service",
    "# after a change. Only the variables Telecode reads belong here:",
    ...names.flatMap(({ name, what }) => ["#", `# ${what}:`, `# ${name}=`]),
    "",
  ].join("\n");
}

export type EnvFileState = { created: boolean; readableByOthers: boolean };

/** Creates the file (mode 0600) when it is missing; says whether others can read an existing one. */
export function ensureServiceEnv(path: string, names: readonly { name: string; what: string }[]): EnvFileState {
  if (!existsSync(path)) {
    writeFileSync(path, renderServiceEnv(names), { mode: 0o600, flag: "wx" });
    return { created: true, readableByOthers: false };
  }
  return { created: false, readableByOthers: (statSync(path).mode & 0o077) !== 0 };
}

/** Whether the file sets `name` to something (a line NAME=value, not commented out). */
export function envFileSets(path: string, name: string): boolean {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return false;
  }
  return text.split("\n").some((line) => {
    const match = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    return match?.[1] === name && match[2]?.replace(/^["']|["']$/g, "").trim() !== "";
  });
}
