// The paths a service must keep working with for weeks: node and Telecode's bin resolved to the
// files they are (not links that move), and a PATH without npx's cache, which npm clears when
// it likes. Says which of them live in that cache, so install can warn.
import { realpathSync } from "node:fs";
import { delimiter, dirname, isAbsolute } from "node:path";
import { findOnPath } from "../keeper/index.js";

/** A folder of npm's npx cache (…/_npx/<hash>/…): gone after `npm cache clean` or an update. */
export function isNpxCache(path: string): boolean {
  return /[\\/]_npx[\\/]/.test(path);
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export type ServicePaths = {
  nodePath: string;
  binPath: string;
  pathEnv: string;
  /** The paths among node, bin and claude that live in npx's cache. */
  inNpxCache: string[];
};

/**
 * Real paths for node and bin; PATH = node's folder, the folder `claudeCommand` is found in,
 * then this shell's PATH, without npx cache folders (each once).
 */
export function servicePaths(options: {
  nodePath: string;
  binPath: string;
  shellPath: string;
  claudeCommand: string;
}): ServicePaths {
  const nodePath = real(options.nodePath);
  const binPath = real(options.binPath);
  const claude = isAbsolute(options.claudeCommand)
    ? options.claudeCommand
    : (findOnPath(options.claudeCommand, options.shellPath) ?? undefined);
  // claude's folder as found (where its name is), so an update behind a link still works.
  const dirs = [
    dirname(nodePath),
    ...(claude === undefined ? [] : [dirname(claude)]),
    ...options.shellPath.split(delimiter),
  ].filter((dir) => dir !== "" && !isNpxCache(dir));
  const checked = [nodePath, binPath, ...(claude === undefined ? [] : [real(claude)])];
  return { nodePath, binPath, pathEnv: [...new Set(dirs)].join(delimiter), inNpxCache: checked.filter(isNpxCache) };
}
