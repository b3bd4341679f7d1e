// A kept CLI as the engine's transport: the keeper client's numbered lines, writes, acks,
// close-stdin, signals and shutdown behind CliTransport, so nothing above the engine knows a
// keeper is there. A dropped connection to a keeper that still runs is made again.
import {
  ClaudeError,
  createLineDecoder,
  stdinClosedError,
  type CliTransport,
  type ProcessExit,
  type StdinWrite,
  type TransportClosed,
  type TransportHandlers,
} from "../../claude/index.js";
import {
  attachKeeper,
  isKeeperError,
  type ExitRecord,
  type Gap,
  type GapReason,
  type KeeperConnection,
  type KeeperEnd,
  type KeeperRecord,
  type Welcome,
} from "../../keeper/index.js";
import type { Clock, Logger } from "../../ports/index.js";

export type KeptAttachOptions = {
  clientId: string;
  /** This Telecode's fence (see store counters): the newest Telecode owns the keeper. */
  fence: number;
  /** The replay starts after this line (0: from the first). */
  fromSeq: number;
  clock: Clock;
  logger: Logger;
};

type Early = { kind: "line"; line: string; seq: number } | { kind: "gap"; gap: Gap };

const GAP_WHY: Readonly<Record<GapReason, string>> = {
  acked: "the keeper had already let them go",
  capped: "the keeper's log reached its size cap",
  disk_full: "the keeper could not write its log: the disk was full or failing",
  oversized: "the line was over the size limit",
};

export class KeptTransport implements CliTransport {
  readonly keptId: string;
  readonly closed: Promise<TransportClosed>;
  readonly #record: KeeperRecord;
  readonly #options: KeptAttachOptions;
  #connection!: KeeperConnection;
  #handlers: TransportHandlers | undefined;
  /** Lines that came before `start`, in order. */
  #early: Early[] = [];
  #lastSeq = 0;
  #detaching = false;
  #paused = false;

  /** Attaches to the keeper of `record` and replays after `options.fromSeq`. Throws what attachKeeper throws. */
  static async attach(
    record: KeeperRecord,
    options: KeptAttachOptions,
  ): Promise<{ transport: KeptTransport; welcome: Welcome }> {
    const transport = new KeptTransport(record, options);
    const connection = await transport.#connect(options.fromSeq);
    transport.#connection = connection;
    const settle = transport.#settleClosed;
    void transport.#follow(connection).then(settle);
    return { transport, welcome: connection.welcome };
  }

  #settleClosed: (closed: TransportClosed) => void = () => undefined;

  private constructor(record: KeeperRecord, options: KeptAttachOptions) {
    this.keptId = record.keeperId;
    this.#record = record;
    this.#options = options;
    this.#lastSeq = options.fromSeq;
    this.closed = new Promise((resolve) => (this.#settleClosed = resolve));
  }

  get pid(): number {
    return this.#connection.cliPid;
  }

  get exit(): ProcessExit | undefined {
    const exit = this.#connection.exit;
    return exit === undefined ? undefined : processExit(exit);
  }

  start(handlers: TransportHandlers): void {
    this.#handlers = handlers;
    for (const early of this.#early.splice(0)) {
      if (early.kind === "line") handlers.onLine(early.line, early.seq);
      else this.#deliverGap(handlers, early.gap);
    }
  }

  async write(line: string): Promise<StdinWrite> {
    try {
      await this.#connection.write(line);
      return { ok: true };
    } catch (error) {
      if (isKeeperError(error, "keeper.detached"))
        return {
          ok: false,
          error: new ClaudeError("claude.handed_over", "This Telecode no longer holds the kept process.", {
            cause: error,
          }),
        };
      const exit = this.exit;
      return {
        ok: false,
        error: stdinClosedError({
          ...(exit === undefined ? {} : { exit }),
          stderrTail: this.#connection.stderrTail(),
          cause: error,
        }),
      };
    }
  }

  closeStdin(): void {
    this.#connection.closeStdin();
  }

  runsEndHook(): boolean {
    return this.#connection.runsEndHook();
  }

  pause(): void {
    this.#paused = true;
    this.#connection.pause();
  }

  resume(): void {
    this.#paused = false;
    this.#connection.resume();
  }

  async shutdown(): Promise<TransportClosed> {
    await this.#connection.shutdown();
    return this.closed;
  }

  ack(seq: number): void {
    this.#connection.ack(seq);
  }

  async detach(): Promise<void> {
    this.#detaching = true;
    await this.#connection.detach();
  }

  #connect(fromSeq: number): Promise<KeeperConnection> {
    return attachKeeper(this.#record, {
      clientId: this.#options.clientId,
      fence: this.#options.fence,
      fromSeq,
      clock: this.#options.clock,
      // The CLI's lines decoded as a spawned CLI's are (same text, less CPU).
      decode: createLineDecoder(),
      onLine: (line, seq) => {
        this.#lastSeq = seq;
        if (this.#handlers === undefined) this.#early.push({ kind: "line", line, seq });
        else this.#handlers.onLine(line, seq);
      },
      onGap: (gap) => {
        this.#lastSeq = Math.max(this.#lastSeq, gap.to);
        if (this.#handlers === undefined) this.#early.push({ kind: "gap", gap });
        else this.#deliverGap(this.#handlers, gap);
      },
    });
  }

  #deliverGap(handlers: TransportHandlers, gap: Gap): void {
    if (gap.to < gap.from) return;
    handlers.onLinesLost?.({ from: gap.from, to: gap.to, why: GAP_WHY[gap.reason] });
  }

  /** Follows attachments until one ends for good: the CLI exited, we let go, or the keeper is gone. */
  async #follow(connection: KeeperConnection): Promise<TransportClosed> {
    const end = await connection.closed;
    if (end.kind === "evicted")
      this.#options.logger.event("keeper.evicted", { keeperId: this.keptId, fence: end.fence }, "warn");
    const again = end.kind === "lost" && end.keeperRunning && !this.#detaching;
    if (!again) return closedBy(end, connection);
    // The socket dropped but the keeper runs: take up again where the lines stopped.
    this.#options.logger.event("keeper.reconnecting", { keeperId: this.keptId, afterSeq: this.#lastSeq }, "warn");
    try {
      const next = await this.#connect(this.#lastSeq);
      this.#connection = next;
      if (this.#paused) next.pause();
      return await this.#follow(next);
    } catch (error) {
      this.#options.logger.event("keeper.reconnect_failed", { keeperId: this.keptId, err: error }, "error");
      return isKeeperError(error, "keeper.stale_fence") ? HANDED_OVER : LOST;
    }
  }
}

const NO_EXIT: ProcessExit = { code: null, signal: null };
const HANDED_OVER: TransportClosed = { exit: NO_EXIT, stderrTail: "", handedOver: true };
const LOST: TransportClosed = { exit: NO_EXIT, stderrTail: "", lostWithKeeper: true };

function processExit(exit: ExitRecord): ProcessExit {
  return { code: exit.code, signal: exit.signal as NodeJS.Signals | null };
}

function closedBy(end: KeeperEnd, connection: KeeperConnection): TransportClosed {
  switch (end.kind) {
    case "exited":
      // Every line was delivered; the keeper keeps its log until the caller acks what it stored.
      return { exit: processExit(end.exit), stderrTail: end.exit.stderrTail.trim() };
    case "detached":
    case "evicted":
      return HANDED_OVER;
    case "lost":
      return { ...LOST, stderrTail: connection.stderrTail() };
  }
}
