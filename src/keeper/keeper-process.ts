// The keeper itself: spawns the CLI in its own process group, owns its pipes, numbers and logs
// every stdout line, keeps a stderr tail and the state file, and serves one client. It never
// closes the CLI's stdin on its own (only when a client asks, or a newer Telecode retires it),
// and reads stdout whoever is attached (at worst at the disk's pace). After the CLI exits it
// waits for an ack or the grace period.
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import type { Clock, TimerHandle } from "../ports/index.js";
import { endProcessTree, StderrTail, WindDown } from "../process/index.js";
import { DEFAULT_MAX_LINE_BYTES } from "../wire/index.js";
import { startFailedError, type KeeperError } from "./errors.js";
import { SLAB_BYTES } from "./frame-splitter.js";
import { KeeperLog } from "./keeper-log.js";
import { createFileStorage } from "./log-storage.js";
import { ensurePrivateDir } from "./keeper-paths.js";
import { KeeperServer, type KeeperHost } from "./keeper-server.js";
import type { KeeperSpec } from "./keeper-spec.js";
import { KeeperStateFile } from "./keeper-state.js";
import { identifyProcess } from "./process-identity.js";
import { KEEPER_PROTOCOL_VERSION, type ExitRecord, type KeeperSignal, type Welcome } from "./protocol.js";
import { StdoutRecorder, type InitFields } from "./stdout-recorder.js";
import { SlabPool } from "./slab-pool.js";
import { spawnCli, type CliChild } from "./spawn-cli.js";

/** Past this much log waiting for the disk, the CLI's stdout is read at the disk's pace. */
const MAX_PENDING_LOG_BYTES = 2 * 1024 * 1024;

export type RunningKeeper = {
  readonly pid: number;
  readonly cliPid: number;
  /** Resolves once the keeper is done: the CLI ended, its log was taken or the grace period passed, files removed. */
  readonly finished: Promise<void>;
  /** The keeper was told to stop: close the CLI's stdin, SIGTERM its group after 2 s, SIGKILL after 2 more; then end without waiting for a client. */
  endCli(): void;
};

/** Starts the CLI under a keeper; resolves once its socket listens. Throws `keeper.start_failed`. */
export async function runKeeper(spec: KeeperSpec, clock: Clock): Promise<RunningKeeper> {
  ensurePrivateDir(spec.paths.dir);
  mkdirSync(spec.paths.logDir, { recursive: true, mode: 0o700 });
  const tag = randomUUID();
  const child = await spawnCli(spec, tag);
  const keeper = new Keeper(spec, child, tag, clock);
  await keeper.start();
  return {
    pid: process.pid,
    cliPid: keeper.cliPid,
    finished: keeper.finished,
    endCli: () => keeper.endCli(),
  };
}

class Keeper implements KeeperHost {
  readonly keeperId: string;
  readonly log: KeeperLog;
  readonly cliPid: number;
  readonly finished: Promise<void>;
  readonly #spec: KeeperSpec;
  readonly #child: CliChild;
  readonly #tag: string;
  readonly #clock: Clock;
  readonly #server: KeeperServer;
  readonly #stderr = new StderrTail();
  readonly #recorder: StdoutRecorder;
  readonly #state: KeeperStateFile;
  #stdinOpen = true;
  /** When the CLI's input closed: what its hooks start from then may outlive it. */
  readonly #windDown: WindDown;
  #stdinError: string | undefined;
  #exit: ExitRecord | undefined;
  #graceTimer: TimerHandle | undefined;
  #finish: (() => void) | undefined;
  #finishing = false;
  /** Told to stop (SIGTERM): done as soon as the CLI has exited, without the grace period. */
  #stopping = false;

  constructor(spec: KeeperSpec, child: CliChild, tag: string, clock: Clock) {
    this.#spec = spec;
    this.#child = child;
    this.#tag = tag;
    this.#clock = clock;
    this.keeperId = spec.keeperId;
    this.cliPid = child.pid ?? -1;
    this.#windDown = new WindDown(this.cliPid);
    const slabs = new SlabPool(SLAB_BYTES);
    this.log = new KeeperLog({
      storage: createFileStorage(spec.paths.logDir, clock),
      capBytes: spec.logCapBytes,
      onWritten: () => this.#written(),
      holds: slabs,
    });
    this.#server = new KeeperServer(this, clock, slabs);
    this.finished = new Promise((resolve) => (this.#finish = resolve));
    this.#state = new KeeperStateFile(
      spec.paths.statePath,
      {
        protocol: KEEPER_PROTOCOL_VERSION,
        keeperId: this.keeperId,
        telecodeVersion: spec.telecodeVersion,
        keeper: { pid: process.pid, startTime: "" },
        cli: { pid: this.cliPid, startTime: "", tag },
        cwd: spec.cli.cwd,
        socketPath: spec.paths.socketPath,
        startedAt: new Date(clock.now()).toISOString(),
        fence: 0,
        sessionId: null,
        cliVersion: null,
        stdinOpen: true,
        logDropped: null,
        exit: null,
      },
      clock,
    );
    this.#recorder = new StdoutRecorder({
      log: this.log,
      delivery: this.#server,
      maxLineBytes: DEFAULT_MAX_LINE_BYTES,
      slabs,
      onInit: (fields) => this.#learnFromInit(fields),
    });
    // stdout is always read: the CLI must never block on a full pipe, whoever is attached.
    child.stdout.on("data", (chunk: Buffer) => {
      this.#recorder.push(chunk);
      // A disk slower than the CLI: read at the disk's pace rather than hold more and more in memory.
      if (this.log.pendingBytes > MAX_PENDING_LOG_BYTES) child.stdout.pause();
    });
    child.stderr.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    child.stdin.on("error", (error: NodeJS.ErrnoException) => {
      this.#stdinError ??= error.code ?? error.message;
    });
    child.on("error", () => undefined);
    let exitInfo: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    child.on("exit", (code, signal) => (exitInfo = { code, signal }));
    child.on("close", (code, signal) => void this.#cliClosed(exitInfo ?? { code, signal }));
  }

  /**
   * Writes the state file and listens on the socket. Without either nobody could find this keeper
   * again (a full disk, say): its CLI is ended at once and `keeper.start_failed` says why.
   */
  async start(): Promise<void> {
    const [keeper, cli] = await Promise.all([identifyProcess(process.pid), identifyProcess(this.cliPid)]);
    const { statePath, socketPath } = this.#spec.paths;
    this.#state.enable();
    try {
      this.#state.commit({
        keeper: keeper ?? this.#state.state.keeper,
        cli: { ...(cli ?? this.#state.state.cli), tag: this.#tag },
      });
    } catch (error) {
      throw this.#startFailed(`write ${statePath}`, error);
    }
    try {
      await this.#server.listen(socketPath);
    } catch (error) {
      throw this.#startFailed(`listen on ${socketPath}`, error);
    }
  }

  #startFailed(what: string, error: unknown): KeeperError {
    this.#stopping = true;
    this.signal("SIGKILL");
    return startFailedError(what, error);
  }

  describe(): Pick<Welcome, "cliPid" | "stdinOpen" | "sessionId" | "cliVersion" | "exit"> {
    return {
      cliPid: this.cliPid,
      stdinOpen: this.#stdinOpen && this.#exit === undefined,
      sessionId: this.#state.state.sessionId,
      cliVersion: this.#state.state.cliVersion,
      exit: this.#exit ?? null,
    };
  }

  writeStdin(line: string, done: (error: string | undefined) => void): boolean {
    const stdin = this.#child.stdin;
    if (!this.#stdinOpen || this.#exit !== undefined || this.#stdinError !== undefined || !stdin.writable) {
      done(this.#notReading());
      return true;
    }
    return stdin.write(`${line}\n`, (error) => done(error ? this.#notReading() : undefined));
  }

  onStdinDrain(resume: () => void): void {
    this.#child.stdin.once("drain", resume);
  }

  closeStdin(): void {
    if (!this.#stdinOpen) return;
    this.#stdinOpen = false;
    this.#windDown.inputClosed();
    this.#child.stdin.end();
    this.#state.update({ stdinOpen: false });
  }

  signal(signal: KeeperSignal): void {
    if (this.#exit !== undefined) return;
    try {
      process.kill(-this.cliPid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  acked(seq: number): void {
    this.log.ack(seq);
    if (this.#exit !== undefined && seq >= this.log.lastSeq) void this.#finishUp();
  }

  fenceRaised(fence: number): void {
    this.#state.update({ fence });
  }

  retire(): void {
    this.closeStdin();
  }

  endCli(): void {
    if (this.#exit !== undefined) {
      void this.#finishUp();
      return;
    }
    this.#stopping = true;
    this.closeStdin();
    this.#clock.setTimer(2000, () => {
      this.signal("SIGTERM");
      this.#clock.setTimer(2000, () => this.signal("SIGKILL"));
    });
  }

  #notReading(): string {
    const exit = this.#exit;
    if (exit !== undefined)
      return `Claude Code is no longer reading its input (it exited with ${exit.signal !== null ? `signal ${exit.signal}` : `code ${String(exit.code)}`}).`;
    if (!this.#stdinOpen) return "Claude Code's input was closed.";
    return `Claude Code is no longer reading its input (${this.#stdinError ?? "the pipe closed"}).`;
  }

  /** A log write finished: a client waiting on it reads on, a paused CLI is read again, a failure is noted. */
  #written(): void {
    this.#server.catchUp();
    if (this.#child.stdout.isPaused() && this.log.pendingBytes <= MAX_PENDING_LOG_BYTES / 2)
      this.#child.stdout.resume();
    const diskError = this.log.diskError;
    if (diskError !== undefined && this.#state.state.logDropped?.code !== diskError)
      this.#state.update({ logDropped: { code: diskError, throughSeq: this.log.lastSeq } }, "soon");
  }

  /** The session id and CLI version, from a `system/init` line. */
  #learnFromInit({ sessionId, cliVersion }: InitFields): void {
    if (sessionId !== this.#state.state.sessionId || cliVersion !== this.#state.state.cliVersion)
      this.#state.update({ sessionId, cliVersion }, "soon");
  }

  async #cliClosed(info: { code: number | null; signal: NodeJS.Signals | null }): Promise<void> {
    this.#recorder.end();
    const windDownFrom = this.#windDown.windDownFrom(info);
    await endProcessTree({ groupPid: this.cliPid, tag: this.#tag, windDownFrom }, this.#clock);
    const exit: ExitRecord = { code: info.code, signal: info.signal, stderrTail: this.#stderr.text() };
    this.#exit = exit;
    const at = new Date(this.#clock.now()).toISOString();
    this.#state.update({ stdinOpen: false, exit: { ...exit, lastSeq: this.log.lastSeq, at } });
    this.#server.cliClosed(exit);
    this.#graceTimer = this.#clock.setTimer(this.#stopping ? 0 : this.#spec.exitGraceMs, () => void this.#finishUp());
  }

  async #finishUp(): Promise<void> {
    if (this.#finishing) return;
    this.#finishing = true;
    this.#graceTimer?.cancel();
    this.#state.disable();
    // Files first: once a client sees its connection close, nothing of this keeper is left.
    this.log.removeAll();
    rmSync(this.#spec.paths.dir, { recursive: true, force: true });
    await this.#server.close();
    this.#finish?.();
  }
}
