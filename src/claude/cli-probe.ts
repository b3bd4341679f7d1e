// Finds the CLI binary and learns what it supports (`--version`, `--help`), once per binary:
// the answer is cached by resolved path and file identity, so an upgrade is noticed.
// The cache belongs to one engine object; there is no module-level state.
import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { failureError, type ClaudeError } from "./errors.js";
import { engineFailure } from "./failures.js";
import type { CliInfo } from "./transport.js";

const PROBE_TIMEOUT_MS = 15_000;

export function notFoundError(command: string, lookedFor: string, cause?: unknown): ClaudeError {
  return failureError("claude.not_found", engineFailure("not_found", { lookedFor }), { cause, details: { command } });
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** Resolves `command` like a shell would (a path, or a name searched on PATH). Throws `claude.not_found`. */
export async function resolveExecutable(command: string, env: NodeJS.ProcessEnv): Promise<string> {
  if (command.includes("/") || isAbsolute(command)) {
    const file = resolve(command);
    if (await isExecutable(file)) return file;
    throw notFoundError(command, file);
  }
  const dirs = (env["PATH"] ?? "").split(delimiter).filter((d) => d !== "");
  for (const dir of dirs) {
    const file = join(dir, command);
    if (await isExecutable(file)) return file;
  }
  throw notFoundError(command, `"${command}" on PATH (${dirs.join(delimiter) || "empty"})`);
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; stdout: string }> {
  return new Promise((done) => {
    execFile(file, args, { env, timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 }, (error, stdout) => {
      done({ ok: error === null, stdout: String(stdout) });
    });
  });
}

export type CliProbe = { probe(command: string, env: NodeJS.ProcessEnv): Promise<CliInfo> };

/** A probe with its own cache (one per engine). */
export function createCliProbe(): CliProbe {
  const cache = new Map<string, Promise<CliInfo>>();
  return {
    async probe(command, env) {
      const file = await resolveExecutable(command, env);
      const real = await realpath(file);
      const s = await stat(real);
      const key = `${real}\0${s.size}\0${s.mtimeMs}\0${s.ino}`;
      let info = cache.get(key);
      if (info === undefined) {
        info = (async () => {
          const [version, help] = await Promise.all([run(file, ["--version"], env), run(file, ["--help"], env)]);
          return {
            path: file,
            version: /\d+\.\d+\.\d+\S*/.exec(version.stdout)?.[0] ?? "",
            supportsHookEvents: help.ok && help.stdout.includes("--include-hook-events"),
          };
        })();
        cache.set(key, info);
      }
      return { ...(await info), path: file };
    },
  };
}
