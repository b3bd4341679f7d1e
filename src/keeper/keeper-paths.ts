// Where a keeper's files live: its directory under the data directory (state file, log, its own
// stderr) and its socket, under $XDG_RUNTIME_DIR/telecode when there is one, else beside the
// state; a path too long for a unix socket address falls back to a short one under /tmp.
import { createHash } from "node:crypto";
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { createDirectory } from "../files/index.js";
import { KeeperError } from "./errors.js";

/** Keeper ids name files and systemd units: letters, digits, `-` and `_`. */
export const KEEPER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export type KeeperPaths = Readonly<{
  dir: string;
  statePath: string;
  logDir: string;
  /** The keeper process's own stderr (a crash trace ends up here). */
  stderrPath: string;
  socketPath: string;
}>;

export type KeeperPathOptions = {
  /** `<data dir>/keepers`: one directory per keeper. */
  keepersDir: string;
  keeperId: string;
  /** $XDG_RUNTIME_DIR, when set. */
  runtimeDir?: string | undefined;
  platform?: NodeJS.Platform;
  uid?: number;
};

/** The longest socket path `bind` takes: sun_path is 108 bytes on Linux, 104 on macOS and the BSDs, NUL included. */
export function maxSocketPathBytes(platform: NodeJS.Platform): number {
  return platform === "linux" ? 107 : 103;
}

export function keeperPaths(options: KeeperPathOptions): KeeperPaths {
  if (!KEEPER_ID_PATTERN.test(options.keeperId)) {
    throw new KeeperError(
      "keeper.bad_spec",
      `"${options.keeperId}" is not a usable keeper id; use 1 to 64 letters, digits, "-" or "_".`,
    );
  }
  const dir = join(options.keepersDir, options.keeperId);
  const preferred =
    options.runtimeDir !== undefined && options.runtimeDir.startsWith("/")
      ? join(options.runtimeDir, "telecode", `${options.keeperId}.sock`)
      : join(dir, "keeper.sock");
  const fits = Buffer.byteLength(preferred) <= maxSocketPathBytes(options.platform ?? process.platform);
  return {
    dir,
    statePath: join(dir, "state.json"),
    logDir: join(dir, "log"),
    stderrPath: join(dir, "keeper.stderr"),
    socketPath: fits ? preferred : shortSocketPath(options.keeperId, options.uid ?? process.getuid?.() ?? 0),
  };
}

/** `/tmp/telecode-<uid>/k-<hash>.sock`: about 40 bytes whatever the id and the directories. */
function shortSocketPath(keeperId: string, uid: number): string {
  const hash = createHash("sha256").update(keeperId).digest("hex").slice(0, 16);
  return join("/tmp", `telecode-${uid}`, `k-${hash}.sock`);
}

/**
 * Creates `path` (mode 0700) if missing and checks it is a directory of ours that nobody else
 * can enter: a shared place such as /tmp must not let another user plant a link or listen first.
 * Throws `keeper.unsafe_dir` otherwise.
 */
export function ensurePrivateDir(path: string): void {
  createDirectory(path);
  const stat = lstatSync(path);
  const uid = process.getuid?.();
  if (!stat.isDirectory() || (uid !== undefined && stat.uid !== uid) || (stat.mode & 0o077) !== 0) {
    throw new KeeperError(
      "keeper.unsafe_dir",
      `${path} is not a private directory of this user (it must be ours, mode 0700, not a link); Telecode will not put a keeper's socket or files there. Remove it or fix its owner and mode (chmod 700).`,
      { details: { path } },
    );
  }
}
