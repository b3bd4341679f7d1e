// Telecode's side of a keeper's socket: attach with a fence and the last sequence number
// processed, then receive numbered stdout lines (the replay, then live), write stdin lines that
// fail as values, ack, close stdin, signal, detach. Shaped so the engine's transport is a thin
// adapter over it: lines with sequence numbers, writes, close-stdin, shutdown, exit, pause/resume.
import { createConnection, type Socket } from "node:net";
import type { Clock } from "../ports/index.js";
import { WindDown } from "../process/index.js";
import { DEFAULT_MAX_LINE_BYTES, decodeUtf8Line, type LineDecoder } from "../wire/index.js";
import { reapGoneKeeper, type KeeperRecord } from "./discover.js";
import { KeeperError, refusalError } from "./errors.js";
import { FrameSplitter, numberEnd, readNumber } from "./frame-splitter.js";
import { endsWithin } from "./process-identity.js";
import {
  decodeKeeperMessage,
  encodeMessage,
  encodeNumbered,
  KEEPER_PROTOCOL_VERSION,
  type ExitRecord,
  type Gap,
  type KeeperMessage,
  type KeeperSignal,
  type Welcome,
} from "./protocol.js";

/** How an attachment ended. */
export type KeeperEnd =
  /** The CLI exited; every line before it was delivered. Ack `lastSeq` to let the keeper clean up. */
  | { kind: "exited"; exit: ExitRecord; lastSeq: number }
  /** This client detached; the CLI runs on. */
  | { kind: "detached" }
  /** A Telecode with a higher fence attached; this one must stop using the run. */
  | { kind: "evicted"; fence: number }
  /** The connection dropped without a word. When the keeper is gone, its CLI was ended (`keeperRunning` false). */
  | { kind: "lost"; keeperRunning: boolean };

export type AttachOptions = {
  clientId: string;
  /** Bumped by Telecode at each start: the highest attached fence owns the keeper. */
  fence: number;
  /** The last sequence number this client processed (0: none); the replay starts after it. */
  fromSeq: number;
  /** Every stdout line in order, replay first, with its sequence number. */
  onLine(line: string, seq: number): void;
  /** Lines the keeper no longer has (trimmed, capped, lost to a disk error, or one too long). */
  onGap?(gap: Gap): void;
  clock: Clock;
  /** How long connecting and the welcome may take. Default 10 s. */
  timeoutMs?: number;
  /** How a line's bytes become text (the same text as `toString("utf8")`, the default, gives). */
  decode?: LineDecoder;
};

export type ShutdownTimings = { eofGraceMs?: number; termGraceMs?: number };

type PendingWrite = { resolve(): void; reject(error: KeeperError): void };

/** Attaches to a running keeper. Throws `keeper.unreachable`, `keeper.stale_fence`, `keeper.incompatible` or `keeper.refused`. */
export function attachKeeper(record: KeeperRecord, options: AttachOptions): Promise<KeeperConnection> {
  return KeeperConnection.open(record, options);
}

export class KeeperConnection {
  /** Settles once, when this attachment ends. */
  readonly closed: Promise<KeeperEnd>;
  /** Settles when the socket closed: after an exit and ack, the keeper has then removed its files. */
  readonly released: Promise<void>;
  /** Resolves with the welcome, or rejects with why there is none. */
  readonly #opened: Promise<Welcome>;
  /** Set from the welcome before `open` hands the connection out. */
  #welcome!: Welcome;
  readonly #record: KeeperRecord;
  readonly #options: AttachOptions;
  readonly #decode: LineDecoder;
  readonly #socket: Socket;
  readonly #pending = new Map<number, PendingWrite>();
  #writes = 0;
  #exit: ExitRecord | undefined;
  #ended: KeeperEnd | undefined;
  #detaching = false;
  #attached = false;
  /** The kept CLI's input closing, told to the keeper by this client: its hooks are waited for. */
  #windDown: WindDown | undefined;
  #settleReleased: (() => void) | undefined;
  #settleOpen: ((answer: Welcome | KeeperError) => void) | undefined;
  #settleClosed: ((end: KeeperEnd) => void) | undefined;

  static async open(record: KeeperRecord, options: AttachOptions): Promise<KeeperConnection> {
    const connection = new KeeperConnection(record, options);
    connection.#welcome = await connection.#opened;
    return connection;
  }

  private constructor(record: KeeperRecord, options: AttachOptions) {
    this.#record = record;
    this.#options = options;
    this.#decode = options.decode ?? decodeUtf8Line;
    this.closed = new Promise((resolve) => (this.#settleClosed = resolve));
    this.released = new Promise((resolve) => (this.#settleReleased = resolve));
    this.#opened = new Promise((resolve, reject) => {
      this.#settleOpen = (answer) => {
        this.#settleOpen = undefined;
        timer.cancel();
        if (!(answer instanceof KeeperError)) resolve(answer);
        else {
          this.#socket.destroy();
          reject(answer);
        }
      };
      const timer = options.clock.setTimer(options.timeoutMs ?? 10_000, () =>
        this.#settleOpen?.(this.#unreachable("it did not answer in time")),
      );
    });
    const splitter = new FrameSplitter({
      maxFrameBytes: DEFAULT_MAX_LINE_BYTES + 32,
      onFrame: (buffer, start, end) => this.#onFrame(buffer, start, end),
      // The keeper never sends more than the CLI's own line limit allows.
      onOversized: () => this.#socket.destroy(),
    });
    this.#socket = createConnection(record.socketPath);
    this.#socket.on("connect", () => {
      this.#socket.write(
        encodeMessage({
          t: "hello",
          v: KEEPER_PROTOCOL_VERSION,
          client: options.clientId,
          fence: options.fence,
          fromSeq: options.fromSeq,
        }),
      );
    });
    this.#socket.on("data", (chunk: Buffer) => splitter.push(chunk));
    this.#socket.on("error", (error: NodeJS.ErrnoException) => {
      this.#settleOpen?.(this.#unreachable(error.code ?? error.message));
    });
    this.#socket.on("close", () => void this.#onClose());
  }

  /** What the keeper said on attach: its last sequence number, the CLI's pid, an exit if there was one. */
  get welcome(): Welcome {
    return this.#welcome;
  }

  get cliPid(): number {
    return this.#welcome.cliPid;
  }

  /** The exit, once the keeper reported it. */
  get exit(): ExitRecord | undefined {
    return this.#exit;
  }

  /** The CLI's stderr tail (known once it exited). */
  stderrTail(): string {
    return this.#exit?.stderrTail ?? "";
  }

  /**
   * Writes one stdin line (a trailing newline is fine, as the wire encoders add one); resolves
   * once the keeper wrote it to the CLI's pipe. Rejects with `keeper.stdin_closed` when the CLI
   * no longer reads, `keeper.detached` once this attachment ended, `keeper.bad_line` for a line
   * holding a newline inside.
   */
  write(text: string): Promise<void> {
    const line = text.endsWith("\n") ? text.slice(0, -1) : text;
    if (line.includes("\n"))
      return Promise.reject(
        new KeeperError("keeper.bad_line", "A stdin line must not contain a newline; send one JSON object per line."),
      );
    if (this.#ended !== undefined) return Promise.reject(this.#endedError());
    const n = ++this.#writes;
    return new Promise((resolve, reject) => {
      this.#pending.set(n, { resolve, reject });
      this.#socket.write(encodeNumbered(n, line));
    });
  }

  /** Everything through `seq` is processed (and stored by the caller): the keeper may drop it from its log. */
  ack(seq: number): void {
    this.#sendIfOpen(encodeMessage({ t: "ack", seq }));
  }

  /** Closes the CLI's stdin: an idle CLI exits at once, a busy one after its turn. */
  closeStdin(): void {
    this.#cliWindDown().inputClosed();
    this.#sendIfOpen(encodeMessage({ t: "close_stdin" }));
  }

  /** Whether the kept CLI, its input closed by this client, runs a hook it started since (see WindDown). */
  runsEndHook(): boolean {
    return this.#exit === undefined && (this.#windDown?.runsHook() ?? false);
  }

  /** Signals the CLI's process group. */
  signal(signal: KeeperSignal): void {
    this.#sendIfOpen(encodeMessage({ t: "signal", signal }));
  }

  /**
   * Stops reading (back-pressure): the keeper keeps logging and catches this client up from its
   * log on resume. Nothing is read meanwhile, so `write` promises settle after the resume.
   */
  pause(): void {
    this.#socket.pause();
  }

  resume(): void {
    this.#socket.resume();
  }

  /** Leaves the CLI running under its keeper; resolves once the connection closed. */
  async detach(): Promise<KeeperEnd> {
    this.#detaching = true;
    this.#socket.end();
    return this.closed;
  }

  /**
   * The one way to end a kept CLI: close stdin, SIGTERM its group after `eofGraceMs` (or once its
   * SessionEnd hooks are done, see WindDown), SIGKILL after `termGraceMs` more; resolves with the
   * end (normally `exited`). Defaults 2 s each.
   */
  async shutdown(timings: ShutdownTimings = {}): Promise<KeeperEnd> {
    if (this.#ended !== undefined) return this.#ended;
    this.closeStdin();
    if (!(await this.#cliWindDown().exitsWithin(timings.eofGraceMs ?? 2000, (ms) => this.#endsWithin(ms)))) {
      this.signal("SIGTERM");
      if (!(await this.#endsWithin(timings.termGraceMs ?? 2000))) this.signal("SIGKILL");
    }
    return this.closed;
  }

  #onFrame(buffer: Buffer, start: number, end: number): void {
    const space = this.#attached ? numberEnd(buffer, start, end) : -1;
    if (space > 0) {
      this.#options.onLine(this.#decode(buffer, space + 1, end), readNumber(buffer, start, space));
      return;
    }
    const decoded = decodeKeeperMessage(buffer.toString("utf8", start, end));
    if (!decoded.ok) {
      this.#socket.destroy();
      return;
    }
    this.#onMessage(decoded.message);
  }

  #onMessage(message: KeeperMessage): void {
    switch (message.t) {
      case "welcome":
        this.#attached = true;
        if (message.exit !== null) this.#exit = message.exit;
        this.#settleOpen?.(message);
        return;
      case "refused":
        this.#settleOpen?.(refusalError(message.code, message.reason, message.v));
        return;
      case "gap":
        this.#options.onGap?.(message);
        return;
      case "stdin": {
        const pending = this.#pending.get(message.n);
        this.#pending.delete(message.n);
        if (message.error === undefined) pending?.resolve();
        else pending?.reject(new KeeperError("keeper.stdin_closed", message.error, { details: { n: message.n } }));
        return;
      }
      case "exit":
        this.#exit = message.exit;
        this.#end({ kind: "exited", exit: message.exit, lastSeq: message.lastSeq });
        return;
      case "evicted":
        this.#end({ kind: "evicted", fence: message.fence });
        return;
    }
  }

  async #onClose(): Promise<void> {
    this.#settleOpen?.(this.#unreachable("the connection closed"));
    if (this.#ended === undefined) {
      if (this.#detaching || !this.#attached) this.#end({ kind: "detached" });
      else {
        // Dropped without a word: if the keeper died, its CLI must not run on unattended. A killed
        // process closes its sockets a moment before it is gone, so give it that moment.
        const keeperRunning = !(await endsWithin(this.#record.keeper, 1000, this.#options.clock));
        if (!keeperRunning) await reapGoneKeeper(this.#record, this.#options.clock);
        this.#end({ kind: "lost", keeperRunning });
      }
    }
    this.#rejectPending();
    this.#settleReleased?.();
  }

  #end(end: KeeperEnd): void {
    if (this.#ended !== undefined) return;
    this.#ended = end;
    this.#settleClosed?.(end);
    if (end.kind !== "exited") this.#rejectPending();
  }

  #rejectPending(): void {
    for (const pending of this.#pending.values()) pending.reject(this.#endedError());
    this.#pending.clear();
  }

  #endedError(): KeeperError {
    const end = this.#ended;
    if (end?.kind === "exited")
      return new KeeperError("keeper.stdin_closed", "Claude Code exited and no longer reads its input.");
    return new KeeperError(
      "keeper.detached",
      `This Telecode is no longer attached to the keeper ${this.#record.keeperId} (${end?.kind ?? "closing"}).`,
      { details: { end } },
    );
  }

  #sendIfOpen(frame: string): void {
    if (this.#ended === undefined || this.#ended.kind === "exited") {
      if (!this.#socket.destroyed && !this.#socket.writableEnded) this.#socket.write(frame);
    }
  }

  #cliWindDown(): WindDown {
    return (this.#windDown ??= new WindDown(this.cliPid));
  }

  #endsWithin(ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = this.#options.clock.setTimer(ms, () => resolve(false));
      void this.closed.then(() => {
        timer.cancel();
        resolve(true);
      });
    });
  }

  #unreachable(why: string): KeeperError {
    return new KeeperError(
      "keeper.unreachable",
      `The keeper ${this.#record.keeperId} does not answer on ${this.#record.socketPath} (${why}); it has probably ended.`,
      { details: { keeperId: this.#record.keeperId } },
    );
  }
}
