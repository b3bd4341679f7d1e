// Where Telecode's files live: the config file search order and the data directory, both
// following the XDG base directory rules. Pure path arithmetic over an injected env and home.
import { homedir } from "node:os";
import { basename, isAbsolute, join, resolve } from "node:path";

export type Env = Readonly<Record<string, string | undefined>>;

export type ConfigPathSource = "flag" | "env" | "default";

export type ConfigLocation = {
  path: string;
  /** `flag` (--config) and `env` (TELECODE_CONFIG) must exist; a missing default means "use defaults". */
  source: ConfigPathSource;
};

/** The home directory from the injected env (so tests can use a temp HOME), else the OS's. */
export function homeDirOf(env: Env): string {
  const home = env["HOME"];
  return home !== undefined && home !== "" ? home : homedir();
}

/** Expands a leading `~` or `~/`; other paths are returned unchanged. */
export function expandHome(path: string, homeDir: string): string {
  if (path === "~") return homeDir;
  if (path.startsWith("~/")) return join(homeDir, path.slice(2));
  return path;
}

/** An XDG variable counts only when absolute (the spec says relative values are ignored). */
function xdgDir(env: Env, name: string): string | undefined {
  const value = env[name];
  return value !== undefined && isAbsolute(value) ? value : undefined;
}

/** --config FILE, else TELECODE_CONFIG, else $XDG_CONFIG_HOME/telecode/config.toml, else ~/.config/…. */
export function locateConfigFile(options: { flag?: string | undefined; env: Env; cwd?: string }): ConfigLocation {
  const cwd = options.cwd ?? process.cwd();
  const home = homeDirOf(options.env);
  if (options.flag !== undefined && options.flag !== "") {
    return { path: resolve(cwd, expandHome(options.flag, home)), source: "flag" };
  }
  const fromEnv = options.env["TELECODE_CONFIG"];
  if (fromEnv !== undefined && fromEnv !== "") {
    return { path: resolve(cwd, expandHome(fromEnv, home)), source: "env" };
  }
  const configHome = xdgDir(options.env, "XDG_CONFIG_HOME") ?? join(home, ".config");
  return { path: join(configHome, "telecode", "config.toml"), source: "default" };
}

/** TELECODE_DATA_DIR, else state.dir from the file, else $XDG_DATA_HOME/telecode, else ~/.local/share/telecode. */
export function resolveDataDir(options: { fromFile: string; env: Env; relativeTo: string }): string {
  const home = homeDirOf(options.env);
  const fromEnv = options.env["TELECODE_DATA_DIR"];
  if (fromEnv !== undefined && fromEnv !== "") return resolve(options.relativeTo, expandHome(fromEnv, home));
  if (options.fromFile !== "") return resolve(options.relativeTo, expandHome(options.fromFile, home));
  const dataHome = xdgDir(options.env, "XDG_DATA_HOME") ?? join(home, ".local", "share");
  return join(dataHome, "telecode");
}

/** The short name used at the start of each problem line ("config.toml: …"). */
export function displayName(path: string): string {
  return basename(path);
}
