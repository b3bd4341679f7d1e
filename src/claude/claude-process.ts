// One spawned `claude` process as a CliTransport: pipes, its own process group, stdout framed
// into numbered lines, a stderr tail, ordered stdin writes that fail as values (EPIPE), and the
// single shutdown every path uses (and an end at once, for a person's Ctrl-C). Knows nothing about
// the protocol.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import { randomUUID } from "node:crypto";
import type { Readable, Writable } from "node:stream";
import { definedFields } from "../domain/index.js";
import type { Clock } from "../ports/index.js";
import { LineFramer } from "../wire/index.js";
import { failureError, type ClaudeError } from "./errors.js";
import { engineFailure, stdinClosedError } from "./failures.js";
import { notFoundError } from "./cli-probe.js";
import { createLineDecoder } from "./line-decoder.js";
import { endProcessTree, listDescendants, PROCESS_TAG_VAR, StderrTail, WindDown } from "../process/index.js";
import type {
  CliTransport,
  LaunchRequest,
  ProcessExit,
  StdinWrite,
  TransportClosed,
  TransportHandlers,
} from "./transport.js";

export type SpawnOptions = LaunchRequest & { clock: Clock };

export type ShutdownTimings = {
  /**
   * How long the CLI gets to exit after stdin closes (it takes ~50 ms). Default 2 s; longer while
   * it runs a SessionEnd hook (see WindDown).
   */
  eofGraceMs?: number;
  /** How long after SIGTERM before SIGKILL. Default 2 s. */
  termGraceMs?: number;
};

export class ClaudeProcess implements CliTransport {
  readonly pid: number;
  /** Resolves once the process exited, its stdout/stderr closed (all output delivered) and what it left running was ended. */
  readonly closed: Promise<TransportClosed>;
  readonly #child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly #clock: Clock;
  readonly #stderr = new StderrTail();
  /** Descendants seen before we signalled (systems without /proc). */
  #knownDescendants: number[] = [];
  #stdinError: ClaudeError | undefined;
  #exit: ProcessExit | undefined;
  #shutdown: Promise<TransportClosed> | undefined;
  #framer: LineFramer | undefined;
  /** Its input closing: the hooks it runs then are waited for, and what they start may outlive it. */
  readonly #windDown: WindDown;

  private constructor(
    child: ChildProcessByStdio<Writable, Readable, Readable>,
    pid: number,
    tag: string,
    options: SpawnOptions,
  ) {
    this.#child = child;
    this.pid = pid;
    this.#clock = options.clock;
    this.#windDown = new WindDown(pid);
    child.stderr.on("data", (chunk: Buffer) => this.#stderr.push(chunk));
    // EPIPE and friends arrive here when the process is gone; writes then fail as values.
    child.stdin.on("error", (error) => {
      this.#stdinError ??= this.#stdinClosed(error);
    });
    child.on("exit", (code, signal) => {
      this.#exit = { code, signal };
    });
    const pipesClosed = new Promise<ProcessExit>((resolve) => {
      child.on("close", (code, signal) => {
        this.#framer?.end();
        resolve(this.#exit ?? { code, signal });
      });
    });
    // Tools the CLI started (a Bash `sleep`, a background task) may outlive it: end them too.
    this.closed = pipesClosed.then(async (exit) => {
      const windDownFrom = this.#windDown.windDownFrom(exit);
      await endProcessTree({ groupPid: pid, tag, known: this.#knownDescendants, windDownFrom }, this.#clock);
      return { exit, stderrTail: this.#stderr.text() };
    });
  }

  /**
   * Spawns the CLI with pipes (not a PTY: Node's pipe streams are non-blocking and
   * back-pressured, so the deadlock the Python bridge worked around with a PTY cannot happen)
   * in its own process group, so the whole tree can be signalled. Resolves once it runs;
   * throws `claude.not_found` (ENOENT) or `claude.spawn_failed`.
   */
  static start(options: SpawnOptions): Promise<ClaudeProcess> {
    return new Promise((resolve, reject) => {
      const tag = randomUUID();
      const child = spawn(options.file, options.args, {
        cwd: options.cwd,
        env: { ...options.env, [PROCESS_TAG_VAR]: tag },
        stdio: ["pipe", "pipe", "pipe"],
        detached: true,
      });
      child.once("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") reject(notFoundError(options.file, options.file, error));
        else
          reject(
            failureError("claude.spawn_failed", engineFailure("start_failed", { detail: error.message }), {
              cause: error,
            }),
          );
      });
      child.once("spawn", () => {
        if (child.pid === undefined) return;
        resolve(new ClaudeProcess(child, child.pid, tag, options));
      });
    });
  }

  start(handlers: TransportHandlers): void {
    let seq = 0;
    const framer = new LineFramer({
      onLine: (line) => handlers.onLine(line, ++seq),
      onOversizedLine: (report) => handlers.onOversizedLine(report, ++seq),
      decode: createLineDecoder(),
    });
    this.#framer = framer;
    // Node holds stdout until this listener exists, so nothing printed before is lost.
    this.#child.stdout.on("data", (chunk: Buffer) => framer.push(chunk));
  }

  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /**
   * Writes one line. Writes are ordered by the stream itself (each line goes out in a single
   * `write`, so lines never interleave). Fails with `claude.stdin_closed` once the process is gone.
   */
  write(line: string): Promise<StdinWrite> {
    if (this.#stdinError !== undefined) return Promise.resolve({ ok: false, error: this.#stdinError });
    const stdin = this.#child.stdin;
    if (stdin.destroyed || stdin.writableEnded) return Promise.resolve({ ok: false, error: this.#stdinClosed() });
    return new Promise((resolve) => {
      stdin.write(line, (error) => {
        if (error) resolve({ ok: false, error: (this.#stdinError ??= this.#stdinClosed(error)) });
        else resolve({ ok: true });
      });
    });
  }

  closeStdin(): void {
    this.#windDown.inputClosed();
    if (!this.#child.stdin.destroyed) this.#child.stdin.end();
  }

  runsEndHook(): boolean {
    return this.#exit === undefined && this.#windDown.runsHook();
  }

  pause(): void {
    this.#child.stdout.pause();
  }

  resume(): void {
    this.#child.stdout.resume();
  }

  /**
   * How a process ends: close stdin (the CLI exits on EOF), SIGTERM the process group
   * after a grace period (or once its SessionEnd hooks are done), SIGKILL after another, then
   * await exit and closed pipes. Idempotent.
   */
  shutdown(timings: ShutdownTimings = {}): Promise<TransportClosed> {
    this.#shutdown ??= this.#runShutdown(timings.eofGraceMs ?? 2000, timings.termGraceMs ?? 2000);
    return this.#shutdown;
  }

  async #runShutdown(eofGraceMs: number, termGraceMs: number): Promise<TransportClosed> {
    // Read whatever is left even if a slow consumer paused us: a CLI blocked on a full pipe cannot exit.
    this.#child.stdout.resume();
    this.closeStdin();
    if (this.#exit === undefined && !(await this.#windDown.exitsWithin(eofGraceMs, (ms) => this.#exitWithin(ms)))) {
      await this.#signalTree("SIGTERM");
      if (!(await this.#exitWithin(termGraceMs))) this.#signalGroup("SIGKILL");
    }
    return this.closed;
  }

  /** The other way: at once, for a person who will not wait for the CLI to wind down. */
  async endNow(): Promise<TransportClosed> {
    this.#child.stdout.resume();
    if (this.#exit === undefined) await this.#signalTree("SIGKILL");
    return this.closed;
  }

  /** Signals the group, its descendants noted first: once the CLI dies they are init's children. */
  async #signalTree(signal: NodeJS.Signals): Promise<void> {
    this.#knownDescendants = await listDescendants(this.pid);
    this.#signalGroup(signal);
  }

  #exitWithin(ms: number): Promise<boolean> {
    if (this.#exit !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const exited = (): void => {
        timer.cancel();
        resolve(true);
      };
      // Asked again and again while a SessionEnd hook runs: each wait takes its listener along.
      const timer = this.#clock.setTimer(ms, () => {
        this.#child.off("exit", exited);
        resolve(false);
      });
      this.#child.once("exit", exited);
    });
  }

  #signalGroup(signal: NodeJS.Signals): void {
    try {
      process.kill(-this.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  #stdinClosed(cause?: unknown): ClaudeError {
    return stdinClosedError({ ...definedFields({ exit: this.#exit }), stderrTail: this.#stderr.text(), cause });
  }
}
