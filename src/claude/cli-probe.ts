// Finds the CLI binary and learns what it supports (`--version`, `--help`) once per binary, off
// the critical path: a binary known by its resolved path, size and mtime (in memory, or in the
// cache file another process wrote) is answered at once; for a new one the probe runs beside
// the CLI's start and its answer is kept. State belongs to one probe object (one per engine).
import { execFile } from "node:child_process";
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { setPriority } from "node:os";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { silentLogger, type Logger } from "../ports/index.js";
import { failureError, type ClaudeError } from "./errors.js";
import { engineFailure } from "./failures.js";
import { identityKey, readProbeCache, rememberProbe, type BinaryIdentity, type ProbeFacts } from "./probe-cache.js";
import type { CliInfo } from "./transport.js";

const PROBE_TIMEOUT_MS = 15_000;
/** The probe runs beside a CLI that is starting: it yields the CPU to it. */
const PROBE_NICENESS = 10;

/** What an unknown binary is assumed to be until its probe answers: the newest CLI. */
const NEWEST_CLI: ProbeFacts = { version: "", supportsHookEvents: true };

export function notFoundError(command: string, lookedFor: string, cause?: unknown): ClaudeError {
  return failureError("claude.not_found", engineFailure("not_found", { lookedFor }), {
    cause,
    details: { command, lookedFor },
  });
}

// The file system is asked synchronously on purpose: these few stat calls on the way to every
// spawn take microseconds, while awaiting them costs event-loop turns in which other work runs.
function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Resolves `command` like a shell would (a path, or a name searched on PATH). Throws `claude.not_found`. */
export function resolveExecutable(command: string, env: NodeJS.ProcessEnv): string {
  if (command.includes("/") || isAbsolute(command)) {
    const file = resolve(command);
    if (isExecutable(file)) return file;
    throw notFoundError(command, file);
  }
  const dirs = (env["PATH"] ?? "").split(delimiter).filter((d) => d !== "");
  for (const dir of dirs) {
    const file = join(dir, command);
    if (isExecutable(file)) return file;
  }
  throw notFoundError(command, `"${command}" on PATH (${dirs.join(delimiter) || "empty"})`);
}

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ok: boolean; stdout: string }> {
  return new Promise((done) => {
    const child = execFile(
      file,
      args,
      { env, timeout: PROBE_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout) => {
        done({ ok: error === null, stdout: String(stdout) });
      },
    );
    if (child.pid === undefined) return;
    try {
      setPriority(child.pid, PROBE_NICENESS);
    } catch {
      // Already gone, or not allowed here: it then competes at normal priority.
    }
  });
}

/** The binary behind `file` as it is now (an upgrade changes its size or mtime). Throws `claude.not_found`. */
function identify(command: string, file: string): BinaryIdentity {
  try {
    const realPath = realpathSync(file);
    const { size, mtimeMs } = statSync(realPath);
    return { realPath, size, mtimeMs };
  } catch (error) {
    throw notFoundError(command, file, error);
  }
}

/** Runs `--version` and `--help`; `complete` only when both answered (nothing else is worth keeping). */
async function probeBinary(file: string, env: NodeJS.ProcessEnv): Promise<{ facts: ProbeFacts; complete: boolean }> {
  const [version, help] = await Promise.all([run(file, ["--version"], env), run(file, ["--help"], env)]);
  const facts = {
    version: /\d+\.\d+\.\d+\S*/.exec(version.stdout)?.[0] ?? "",
    supportsHookEvents: help.ok && help.stdout.includes("--include-hook-events"),
  };
  return { facts, complete: version.ok && help.ok };
}

export type CliProbeOptions = {
  /** The file (in the state directory) that keeps what was learnt between processes; without it, memory only. */
  cacheFile?: string;
  logger?: Logger;
};

export type CliProbe = {
  /** Finds the CLI and what it is known to support (see CliInfo.probed). Throws `claude.not_found`. */
  probe(command: string, env: NodeJS.ProcessEnv): Promise<CliInfo>;
  /** The same, but a binary not known yet is asked and its answer awaited (doctor, the start-up log). */
  ask(command: string, env: NodeJS.ProcessEnv): Promise<CliInfo>;
};

/** A probe with its own memory (one per engine), backed by `cacheFile` when given. */
export function createCliProbe(options: CliProbeOptions = {}): CliProbe {
  const logger = options.logger ?? silentLogger;
  const cacheFile = options.cacheFile;
  const known = new Map<string, ProbeFacts>();
  const probing = new Set<string>();
  let fromDisk: Map<string, ProbeFacts> | undefined;

  const lookUp = (key: string): ProbeFacts | undefined => {
    const remembered = known.get(key);
    if (remembered !== undefined || cacheFile === undefined) return remembered;
    fromDisk ??= readProbeCache(cacheFile);
    return fromDisk.get(key);
  };

  const learn = async (key: string, id: BinaryIdentity, file: string, env: NodeJS.ProcessEnv): Promise<ProbeFacts> => {
    const { facts, complete } = await probeBinary(file, env);
    if (!complete) {
      logger.event("claude.probe_failed", { path: file }, "warn");
      return facts;
    }
    known.set(key, facts);
    logger.event("claude.probed", { path: file, ...facts });
    if (cacheFile === undefined) return facts;
    try {
      await rememberProbe(cacheFile, id, facts);
    } catch (error) {
      logger.event("claude.probe_cache_unwritable", { file: cacheFile, err: error }, "warn");
    }
    return facts;
  };

  /** What is known now; starts a probe (after this turn of the event loop) for a binary not seen before. */
  const knownNow = (command: string, env: NodeJS.ProcessEnv): CliInfo => {
    const file = resolveExecutable(command, env);
    const id = identify(command, file);
    const key = identityKey(id);
    const facts = lookUp(key);
    if (facts !== undefined) return { path: file, ...facts, probed: true };
    if (!probing.has(key)) {
      probing.add(key);
      // Once the spawn that asked is under way: the probe's own two processes must not delay it.
      setImmediate(() => void learn(key, id, file, env).finally(() => probing.delete(key)));
    }
    return { path: file, ...NEWEST_CLI, probed: false };
  };

  return {
    // Nothing here waits (see isExecutable); a throw becomes the rejection.
    probe: (command, env) => new Promise((resolve) => resolve(knownNow(command, env))),
    async ask(command, env) {
      const file = resolveExecutable(command, env);
      const id = identify(command, file);
      const key = identityKey(id);
      const facts = lookUp(key) ?? (await learn(key, id, file, env));
      return { path: file, ...facts, probed: true };
    },
  };
}
