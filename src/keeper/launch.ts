// Starting a keeper: detached (its own session and process group) and, under a systemd service,
// in a scope of its own so stopping the service does not end it; the spec goes over its stdin
// (the CLI's environment never shows in a process listing) and one ready line comes back.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { randomUUID } from "node:crypto";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { Clock } from "../ports/index.js";
import { removeKeeperFiles, type KeeperRecord } from "./discover.js";
import { KeeperError, startFailedError } from "./errors.js";
import { DEFAULT_LOG_CAP_BYTES } from "./keeper-log.js";
import { ensurePrivateDir, keeperPaths, type KeeperPaths } from "./keeper-paths.js";
import { DEFAULT_EXIT_GRACE_MS, type KeeperReady, type KeeperSpec } from "./keeper-spec.js";
import { readKeeperState } from "./keeper-state.js";
import { scopeCommand, type LaunchPlan } from "./survival.js";

/**
 * The argv that runs `telecode keeper` from the script at `telecodeBin`. A keeper only moves
 * bytes, beside the CLI and Telecode on the same cores: V8's parallel collector threads would
 * cost it more CPU than its short collections save (measured in bench/keeper), so it collects
 * on its main thread.
 */
export function keeperCommand(telecodeBin: string): string[] {
  return [process.execPath, "--single-threaded-gc", telecodeBin, "keeper"];
}

export type KeeperLauncher = {
  /** The argv that runs `telecode keeper` (see `keeperCommand`). */
  command: readonly string[];
  /** From `keeperLaunchPlan`: whether to start keepers in a systemd scope. */
  plan: LaunchPlan;
  /** `<data dir>/keepers`. */
  keepersDir: string;
  /** $XDG_RUNTIME_DIR, for the socket. */
  runtimeDir: string | undefined;
  /** The keeper process's own environment (PATH, HOME; it needs no secrets). */
  env: NodeJS.ProcessEnv;
  telecodeVersion: string;
  clock: Clock;
  /** How long a keeper may take to answer ready. Default 30 s. */
  readyTimeoutMs?: number;
};

export type StartKeeperOptions = {
  /** Names the keeper's files (and its systemd scope). Default a random UUID. */
  keeperId?: string;
  cli: { path: string; args: readonly string[]; cwd: string; env: Readonly<Record<string, string | undefined>> };
  logCapBytes?: number;
  exitGraceMs?: number;
};

export type StartedKeeper = {
  record: KeeperRecord;
  /** False when the systemd scope could not be made and the keeper runs inside Telecode's own unit. */
  inOwnScope: boolean;
};

type KeeperChild = ChildProcessByStdio<Writable, Readable, null>;

/**
 * A keeper started before a run needs it (`WarmKeeper.start`): loaded and waiting for its spec
 * on stdin, so a run's CLI starts without a Node start in front of it. It has no files until
 * it is used; unused, it ends when told (`end`) or when its Telecode dies (its stdin closes).
 */
export class WarmKeeper {
  readonly keeperId = randomUUID();
  readonly #child: KeeperChild;
  #taken = false;

  private constructor(launcher: KeeperLauncher) {
    this.#child = spawnKeeperProcess(launcher, this.keeperId, inScope(launcher), "ignore");
    // An unused keeper must not hold Telecode open.
    this.#child.unref();
    (this.#child.stdin as Writable & { unref?: () => void }).unref?.();
    (this.#child.stdout as Readable & { unref?: () => void }).unref?.();
  }

  static start(launcher: KeeperLauncher): WarmKeeper {
    return new WarmKeeper(launcher);
  }

  /** Its process id (the keeper's, or its systemd-run wrapper's in a scope). */
  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Still waiting for a spec: not used, not ended. */
  get alive(): boolean {
    return !this.#taken && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  /** Its process, once, for startKeeper to hand a spec to; undefined when it is not alive. */
  take(): KeeperChild | undefined {
    if (!this.alive) return undefined;
    this.#taken = true;
    return this.#child;
  }

  /** Ends it unused. */
  end(): void {
    if (!this.alive) return;
    this.#taken = true;
    this.#child.stdin.destroy();
    this.#child.kill("SIGTERM");
  }
}

/** Whether keepers start in a systemd scope of their own. */
const inScope = (launcher: KeeperLauncher): boolean => launcher.plan.wrapper === "systemd-scope";

/**
 * Starts a keeper running the CLI and resolves with its record once it listens; `warm`, when
 * alive, is used instead of starting one (its Node start is then off the critical path).
 * Throws `keeper.start_failed` with the reason (the CLI missing, the keeper crashing) and
 * leaves no files.
 */
export async function startKeeper(
  launcher: KeeperLauncher,
  options: StartKeeperOptions,
  warm?: WarmKeeper,
): Promise<StartedKeeper> {
  const ahead = options.keeperId === undefined ? warm?.take() : undefined;
  if (ahead !== undefined && warm !== undefined) {
    const scoped = inScope(launcher);
    const started = await startAs(launcher, options, warm.keeperId, false, async (spec) => ({
      answer: await handshake(launcher, ahead, { ...spec, stderrToFile: true }),
      scoped,
    }));
    if (started !== undefined) return started;
    // It ended (or hung) before it answered: one is started now, under a name of its own.
    ahead.kill("SIGTERM");
  }
  const started = await startAs(launcher, options, options.keeperId ?? randomUUID(), true, (spec) =>
    spawnKeeper(launcher, spec),
  );
  // A keeper started now that never answered failed the start (silenceFails): startAs threw.
  return started as StartedKeeper;
}

/**
 * Makes keeper `keeperId`'s directory and spec, and has `run` start it. A keeper that never
 * answered fails the start when `silenceFails`; otherwise the result is undefined (no files
 * left), so another keeper may be started.
 */
async function startAs(
  launcher: KeeperLauncher,
  options: StartKeeperOptions,
  keeperId: string,
  silenceFails: boolean,
  run: (spec: KeeperSpec) => Promise<{ answer: KeeperReady | undefined; scoped: boolean }>,
): Promise<StartedKeeper | undefined> {
  const paths = keeperPaths({ keepersDir: launcher.keepersDir, keeperId, runtimeDir: launcher.runtimeDir });
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.cli.env)) if (value !== undefined) env[name] = value;
  const spec: KeeperSpec = {
    keeperId,
    cli: { path: options.cli.path, args: [...options.cli.args], cwd: options.cli.cwd, env },
    paths,
    logCapBytes: options.logCapBytes ?? DEFAULT_LOG_CAP_BYTES,
    exitGraceMs: options.exitGraceMs ?? DEFAULT_EXIT_GRACE_MS,
    telecodeVersion: launcher.telecodeVersion,
  };
  makeKeeperDir(paths.dir);
  try {
    const { answer, scoped } = await run(spec);
    if (answer === undefined && !silenceFails) {
      removeKeeperFiles({ dir: paths.dir, socketPath: paths.socketPath });
      return undefined;
    }
    if (answer === undefined || !answer.ready) throw startFailure(answer, paths);
    const state = readKeeperState(paths.statePath);
    if (state.kind !== "current") {
      // Nobody could find it again: it is told to end, and its CLI with it.
      endKeeperProcess(answer.pid);
      const problem = state.kind === "unreadable" ? state.problem : `protocol ${state.protocol}`;
      throw new KeeperError("keeper.start_failed", `The keeper's state file cannot be read (${problem}).`);
    }
    return { record: { ...state.state, dir: paths.dir }, inOwnScope: scoped };
  } catch (error) {
    removeKeeperFiles({ dir: paths.dir, socketPath: paths.socketPath });
    throw error;
  }
}

/** Tells the keeper `pid` to end (SIGTERM): it ends its CLI, then removes its files. One already gone is fine. */
export function endKeeperProcess(pid: number): void {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // Already ended.
  }
}

/** Runs `telecode keeper` (in a systemd scope when `scoped`), detached, its stderr to `stderr`. */
function spawnKeeperProcess(
  launcher: KeeperLauncher,
  keeperId: string,
  scoped: boolean,
  stderr: number | "ignore",
): KeeperChild {
  const argv = scoped ? [...scopeCommand(launcher.plan, keeperId), ...launcher.command] : [...launcher.command];
  const [file = "", ...args] = argv;
  const child = spawn(file, args, {
    detached: true,
    stdio: ["pipe", "pipe", stderr],
    env: launcher.env,
  }) as KeeperChild;
  child.on("error", () => undefined);
  child.stdin.on("error", () => undefined);
  return child;
}

/**
 * Runs a keeper for `spec` (in its own systemd scope when the plan says so, else or when
 * systemd-run fails before the keeper ran, in Telecode's) and reads its ready line; the answer
 * is undefined when the keeper ended without one.
 */
async function spawnKeeper(
  launcher: KeeperLauncher,
  spec: KeeperSpec,
): Promise<{ answer: KeeperReady | undefined; scoped: boolean }> {
  if (inScope(launcher)) {
    const answer = await spawnOnce(launcher, spec, true);
    if (answer !== undefined) return { answer, scoped: true };
  }
  return { answer: await spawnOnce(launcher, spec, false), scoped: false };
}

async function spawnOnce(
  launcher: KeeperLauncher,
  spec: KeeperSpec,
  scoped: boolean,
): Promise<KeeperReady | undefined> {
  const stderr = openSync(spec.paths.stderrPath, "a", 0o600);
  try {
    const child = spawnKeeperProcess(launcher, spec.keeperId, scoped, stderr);
    const answer = await handshake(launcher, child, spec);
    if (answer === undefined) child.kill("SIGTERM");
    return answer;
  } finally {
    closeSync(stderr);
  }
}

/** Hands a keeper its spec and reads its ready line; undefined when it ended (or timed out) without one. */
async function handshake(
  launcher: KeeperLauncher,
  child: KeeperChild,
  spec: KeeperSpec,
): Promise<KeeperReady | undefined> {
  if (child.exitCode !== null || child.signalCode !== null) return undefined;
  // A keeper started ahead of need was let go of (unref): its answer is waited for.
  (child.stdout as Readable & { ref?: () => void }).ref?.();
  child.stdin.end(JSON.stringify(spec));
  const lines = createInterface({ input: child.stdout });
  const answer = await new Promise<KeeperReady | undefined>((resolve) => {
    const timer = launcher.clock.setTimer(launcher.readyTimeoutMs ?? 30_000, () => resolve(undefined));
    lines.once("line", (line) => {
      timer.cancel();
      try {
        resolve(JSON.parse(line) as KeeperReady);
      } catch {
        resolve(undefined);
      }
    });
    lines.once("close", () => {
      timer.cancel();
      resolve(undefined);
    });
    child.once("error", () => resolve(undefined));
  });
  lines.close();
  child.stdout.destroy();
  child.unref();
  return answer;
}

function startFailure(answer: KeeperReady | undefined, paths: KeeperPaths): KeeperError {
  if (answer !== undefined && !answer.ready)
    return new KeeperError("keeper.start_failed", answer.message, { details: { code: answer.code } });
  let tail = "";
  try {
    tail = readFileSync(paths.stderrPath, "utf8").trim().split("\n").slice(-5).join("\n");
  } catch {
    // No stderr to show.
  }
  return new KeeperError(
    "keeper.start_failed",
    `The keeper process ended without starting Claude Code${tail === "" ? "" : `: ${tail}`}. Run \`telecode doctor\` to check this machine.`,
    { details: { stderrTail: tail } },
  );
}

/** The keeper's own folder, or `keeper.start_failed` saying why it cannot be made (a file in the way, a full disk). */
function makeKeeperDir(dir: string): void {
  try {
    ensurePrivateDir(dir);
  } catch (error) {
    throw startFailedError(`make its folder ${dir}`, error);
  }
}
