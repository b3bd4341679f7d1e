// A CLI started with flags chosen before its probe answered. If it refuses one ("unknown
// option"), which it does at once and before reading stdin, it is started again without that
// flag and every line written to it is written again, so the run never notices. Its first
// stdout line settles it: from then on this is a plain pass-through to the process.
import type { Logger } from "../ports/index.js";
import type {
  CliLauncher,
  CliTransport,
  LaunchRequest,
  ProcessExit,
  StdinWrite,
  TransportClosed,
  TransportHandlers,
} from "./transport.js";

/** How the CLI's argument parser (commander) names a flag it does not know. */
const UNKNOWN_OPTION = /unknown option '(--[\w-]+)'/;

export type FlagFallback = {
  launcher: CliLauncher;
  logger: Logger;
  /** The request again without `flag` when Telecode chose it and can do without; else undefined. */
  without(flag: string, request: LaunchRequest): LaunchRequest | undefined;
};

/** Launches `request`; a refused flag is dropped as `fallback` says. Throws like `CliLauncher.launch`. */
export async function launchWithFlagFallback(request: LaunchRequest, fallback: FlagFallback): Promise<CliTransport> {
  return new FallbackTransport(await fallback.launcher.launch(request), request, fallback);
}

/** What became of a process that ended before it was settled. */
type Decision = { next: CliTransport | undefined; closed: TransportClosed | Promise<TransportClosed> };

class FallbackTransport implements CliTransport {
  readonly closed: Promise<TransportClosed>;
  readonly #fallback: FlagFallback;
  #request: LaunchRequest;
  #inner: CliTransport;
  #handlers: TransportHandlers | undefined;
  /** The process that replaced each one that ended unsettled (undefined: none will). */
  readonly #successors = new Map<CliTransport, Promise<CliTransport | undefined>>();
  /** No restart can happen any more: the CLI printed a line, ended for another reason, or is being ended. */
  #settled = false;
  #stopping = false;
  #paused = false;
  #stdinClosed = false;
  /** Lines the current process took before it was settled: written again to its replacement. */
  #taken: string[] = [];
  /** Until settled, writes go one at a time so a restart cannot reorder them. */
  #writes: Promise<unknown> = Promise.resolve();
  #writesInFlight = 0;

  constructor(first: CliTransport, request: LaunchRequest, fallback: FlagFallback) {
    this.#inner = first;
    this.#request = request;
    this.#fallback = fallback;
    this.closed = this.#follow(first);
  }

  get pid(): number {
    return this.#inner.pid;
  }

  get exit(): ProcessExit | undefined {
    // A process that ended unsettled may yet be replaced: until that is decided, it is not gone.
    return this.#settled ? this.#inner.exit : undefined;
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = {
      onLine: (line, seq) => {
        if (!this.#settled) this.#settle();
        handlers.onLine(line, seq);
      },
      onOversizedLine: (report, seq) => {
        if (!this.#settled) this.#settle();
        handlers.onOversizedLine(report, seq);
      },
    };
    this.#inner.start(this.#handlers);
  }

  write(line: string): Promise<StdinWrite> {
    if (this.#settled && this.#writesInFlight === 0) return this.#inner.write(line);
    this.#writesInFlight += 1;
    const written = this.#writes.then(() => this.#writeUnsettled(line));
    this.#writes = written.finally(() => {
      this.#writesInFlight -= 1;
    });
    return written;
  }

  closeStdin(): void {
    this.#stdinClosed = true;
    this.#inner.closeStdin();
  }

  runsEndHook(): boolean {
    return this.#inner.runsEndHook?.() ?? false;
  }

  pause(): void {
    this.#paused = true;
    this.#inner.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#inner.resume();
  }

  async shutdown(): Promise<TransportClosed> {
    this.#stopping = true;
    this.#settle();
    await this.#inner.shutdown();
    return this.closed;
  }

  async endNow(): Promise<TransportClosed> {
    this.#stopping = true;
    this.#settle();
    await (this.#inner.endNow?.() ?? this.#inner.shutdown());
    return this.closed;
  }

  #settle(): void {
    this.#settled = true;
    this.#taken = [];
  }

  async #writeUnsettled(line: string): Promise<StdinWrite> {
    for (;;) {
      const inner = this.#inner;
      const written = await inner.write(line);
      if (written.ok) {
        if (!this.#settled) this.#taken.push(line);
        return written;
      }
      // Gone before it printed anything: if it refused a flag, its replacement takes the line.
      const next = await this.#successors.get(inner);
      if (next === undefined) return written;
    }
  }

  #follow(inner: CliTransport): Promise<TransportClosed> {
    const decision = inner.closed.then((closed) => this.#decide(inner, closed));
    this.#successors.set(
      inner,
      decision.then((d) => d.next),
    );
    return decision.then((d) => d.closed);
  }

  async #decide(inner: CliTransport, closed: TransportClosed): Promise<Decision> {
    if (this.#settled) return { next: undefined, closed };
    const flag = UNKNOWN_OPTION.exec(closed.stderrTail)?.[1];
    const request = flag === undefined ? undefined : this.#fallback.without(flag, this.#request);
    if (request === undefined) {
      this.#settle();
      return { next: undefined, closed };
    }
    let next: CliTransport;
    try {
      next = await this.#fallback.launcher.launch(request);
    } catch (error) {
      this.#fallback.logger.event("claude.respawn_failed", { flag, err: error }, "warn");
      this.#settle();
      return { next: undefined, closed };
    }
    this.#fallback.logger.event(
      "claude.respawned_without_flag",
      { flag, refusedPid: inner.pid, pid: next.pid, args: request.args },
      "warn",
    );
    if (this.#stopping) return { next: undefined, closed: next.shutdown() };
    // Everything the refusing process took goes to its replacement first, before it is read.
    for (let i = 0; i < this.#taken.length; i++) {
      const written = await next.write(this.#taken[i] as string);
      if (!written.ok) break;
    }
    this.#request = request;
    this.#inner = next;
    if (this.#stdinClosed) next.closeStdin();
    if (this.#handlers !== undefined) next.start(this.#handlers);
    if (this.#paused) next.pause();
    return { next, closed: this.#follow(next) };
  }
}
