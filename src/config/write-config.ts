// Writes a new config file for `telecode init`: a small commented TOML file, created
// atomically with mode 0600 (it may hold the bot token) in a 0700 directory.
import { mkdirSync } from "node:fs";
import { basename, dirname } from "node:path";
import { stringify } from "smol-toml";
import { writeFileAtomicSync } from "../files/index.js";
import type { ClaudeConfig } from "./config-types.js";
import { DEFAULT_API_ROOT } from "./schema.js";

export type NewConfig = {
  /** null: the token comes from TELECODE_BOT_TOKEN and is not written to the file. */
  botToken: string | null;
  allowedUserIds: readonly number[];
  apiRoot: string;
  project: { name: string; path: string };
  permissionMode: ClaudeConfig["permissionMode"];
  /** Claude Code signs in with ANTHROPIC_API_KEY (claude.use_api_billing); default false. */
  useApiBilling?: boolean;
};

const value = (v: unknown): string => stringify({ v }).replace(/^v = /, "").trim();

/** A project name (the [projects.NAME] key) derived from a directory's name. */
export function projectNameFor(path: string): string {
  const name = basename(path)
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 32);
  return name === "" ? "project" : name;
}

/** The file's text; every key not written keeps its default (docs/configuration.md). */
export function renderConfigFile(config: NewConfig): string {
  const lines = [
    "# Telecode configuration. Every key and its default: docs/configuration.md",
    "",
    "[telegram]",
    config.botToken === null ? "# bot_token comes from TELECODE_BOT_TOKEN" : `bot_token = ${value(config.botToken)}`,
    `allowed_user_ids = ${value([...config.allowedUserIds])}   # only these people are answered`,
  ];
  if (config.apiRoot !== DEFAULT_API_ROOT) lines.push(`api_root = ${value(config.apiRoot)}`);
  lines.push(
    "",
    "[claude]",
    `permission_mode = ${value(config.permissionMode)}`,
    ...(config.useApiBilling === true ? ["use_api_billing = true   # ANTHROPIC_API_KEY from the environment"] : []),
    "",
    `[projects.${/^[A-Za-z0-9_-]+$/.test(config.project.name) ? config.project.name : value(config.project.name)}]`,
    `path = ${value(config.project.path)}`,
    "default = true",
    "",
  );
  return lines.join("\n");
}

/** Writes `text` to `path` with mode 0600 via a temporary file and a rename (no half-written file). */
export function writeConfigFile(path: string, text: string): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomicSync(path, text);
}
