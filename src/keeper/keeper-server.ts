// The keeper's side of the socket: one client at a time, chosen by fence (a higher one evicts,
// a lower one is refused), a welcome, a replay from the client's sequence number, then live
// lines. A client that cannot keep up is fed from the log when its socket drains, so the
// keeper never buffers more than one write and never stops reading the CLI.
import { chmodSync, lstatSync, rmSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { dirname } from "node:path";
import type { Clock, TimerHandle } from "../ports/index.js";
import { DEFAULT_MAX_LINE_BYTES } from "../wire/index.js";
import { FrameSplitter, numberEnd, readNumber } from "./frame-splitter.js";
import { ensurePrivateDir } from "./keeper-paths.js";
import type { KeeperLog } from "./keeper-log.js";
import type { FrameDelivery } from "./stdout-recorder.js";
import {
  decodeClientMessage,
  encodeMessage,
  KEEPER_PROTOCOL_VERSION,
  peekHello,
  type ExitRecord,
  type KeeperMessage,
  type KeeperSignal,
  type RefusalCode,
  type Welcome,
} from "./protocol.js";
import { UNTRACKED, type FrameHolds } from "./slab-pool.js";

/** What the server needs from the keeper that owns the CLI. */
export type KeeperHost = {
  readonly keeperId: string;
  readonly log: KeeperLog;
  /** The parts of a welcome only the keeper knows. */
  describe(): Pick<Welcome, "cliPid" | "stdinOpen" | "sessionId" | "cliVersion" | "exit">;
  /** Writes one line to the CLI's stdin; `done` gets an error text when it failed. False: wait for `onStdinDrain`. */
  writeStdin(line: string, done: (error: string | undefined) => void): boolean;
  onStdinDrain(resume: () => void): void;
  closeStdin(): void;
  signal(signal: KeeperSignal): void;
  acked(seq: number): void;
  fenceRaised(fence: number): void;
  /** A newer Telecode, which cannot speak to this keeper, took over: let the CLI finish and end. */
  retire(): void;
};

/** A connection may take this long to say hello. */
const HELLO_TIMEOUT_MS = 10_000;
/** How much may wait in a client's socket before it is fed from the log instead. */
const SOCKET_HIGH_WATER_BYTES = 1024 * 1024;
/** Replay reads this much of the log per socket write. */
const REPLAY_CHUNK_BYTES = 256 * 1024;

type Connection = {
  socket: Socket;
  attached: boolean;
  /** The last sequence number written to this client's socket. */
  sentSeq: number;
  waitingForDrain: boolean;
  exitSent: boolean;
  helloTimer: TimerHandle | undefined;
};

export class KeeperServer implements FrameDelivery {
  readonly #host: KeeperHost;
  readonly #clock: Clock;
  readonly #server: Server;
  #socketPath = "";
  #fence = 0;
  #client: Connection | undefined;
  #exit: ExitRecord | undefined;
  readonly #sockets = new Set<Socket>();
  readonly #holds: FrameHolds;

  /** `holds`: the frame builder's slabs, held while a socket still has to send their frames. */
  constructor(host: KeeperHost, clock: Clock, holds: FrameHolds = UNTRACKED) {
    this.#host = host;
    this.#clock = clock;
    this.#holds = holds;
    // Live lines go straight out while less than this is queued; past it, the client reads from the log.
    this.#server = createServer({ highWaterMark: SOCKET_HIGH_WATER_BYTES }, (socket) => this.#accept(socket));
  }

  get fence(): number {
    return this.#fence;
  }

  /** Listens on `socketPath` (mode 0600, its directory made private; a stale socket there replaced). */
  listen(socketPath: string): Promise<void> {
    ensurePrivateDir(dirname(socketPath));
    removeStaleSocket(socketPath);
    this.#socketPath = socketPath;
    return new Promise((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(socketPath, () => {
        this.#server.off("error", reject);
        // bind() made it 0700 under the keeper's umask; read and write are all a socket needs.
        chmodSync(socketPath, 0o600);
        resolve();
      });
    });
  }

  /** Frames `firstSeq`…`lastSeq` go at once to a client that has everything before them and room for more. */
  sendLive(frames: Buffer, firstSeq: number, lastSeq: number): boolean {
    const client = this.#client;
    if (client === undefined || client.waitingForDrain || client.sentSeq !== firstSeq - 1) return false;
    client.sentSeq = lastSeq;
    this.#sendFrames(client, frames);
    return true;
  }

  /** Writes CLI frames, holding their slab until the socket has sent them (or failed to). */
  #sendFrames(connection: Connection, frames: Buffer): void {
    this.#holds.hold(frames);
    if (!connection.socket.write(frames, () => this.#holds.release(frames))) connection.waitingForDrain = true;
  }

  /** A client that is behind reads on from the log (until its socket is full). */
  catchUp(): void {
    if (this.#client !== undefined) this.#pump(this.#client);
  }

  /** The CLI ended and its output is all logged: the client hears it after its last line. */
  cliClosed(exit: ExitRecord): void {
    this.#exit = exit;
    if (this.#client !== undefined) this.#pump(this.#client);
  }

  /** Stops listening, drops every connection and removes the socket file. */
  close(): Promise<void> {
    rmSync(this.#socketPath, { force: true });
    return new Promise((resolve) => {
      this.#server.close(() => resolve());
      for (const socket of this.#sockets) socket.destroy();
    });
  }

  #accept(socket: Socket): void {
    this.#sockets.add(socket);
    const connection: Connection = {
      socket,
      attached: false,
      sentSeq: 0,
      waitingForDrain: false,
      exitSent: false,
      helloTimer: this.#clock.setTimer(HELLO_TIMEOUT_MS, () => socket.destroy()),
    };
    const splitter = new FrameSplitter({
      maxFrameBytes: DEFAULT_MAX_LINE_BYTES + 32,
      onFrame: (buffer, start, end) => this.#onFrame(connection, buffer, start, end),
      onOversized: () => socket.destroy(),
    });
    socket.on("data", (chunk: Buffer) => splitter.push(chunk));
    socket.on("drain", () => {
      connection.waitingForDrain = false;
      if (this.#client === connection) this.#pump(connection);
    });
    socket.on("error", () => socket.destroy());
    socket.on("close", () => {
      this.#sockets.delete(socket);
      connection.helloTimer?.cancel();
      if (this.#client === connection) this.#client = undefined;
    });
  }

  #onFrame(connection: Connection, buffer: Buffer, start: number, end: number): void {
    if (connection.socket.destroyed) return;
    if (!connection.attached) {
      this.#hello(connection, buffer.toString("utf8", start, end));
      return;
    }
    const space = numberEnd(buffer, start, end);
    if (space > 0) {
      this.#stdin(connection, readNumber(buffer, start, space), buffer.toString("utf8", space + 1, end));
      return;
    }
    const decoded = decodeClientMessage(buffer.toString("utf8", start, end));
    if (!decoded.ok) {
      connection.socket.destroy();
      return;
    }
    const message = decoded.message;
    switch (message.t) {
      case "ack":
        this.#host.acked(message.seq);
        return;
      case "close_stdin":
        this.#host.closeStdin();
        return;
      case "signal":
        this.#host.signal(message.signal);
        return;
      case "hello":
        connection.socket.destroy();
        return;
    }
  }

  #hello(connection: Connection, frame: string): void {
    connection.helloTimer?.cancel();
    const peek = peekHello(frame);
    if (peek === undefined) {
      this.#refuse(connection, "bad_hello", "The first frame on a keeper's socket must be a hello.");
      return;
    }
    if (peek.fence < this.#fence) {
      this.#refuse(
        connection,
        "stale_fence",
        `A newer Telecode (fence ${this.#fence}) holds this keeper; this one (fence ${peek.fence}) must not take it over.`,
      );
      return;
    }
    if (peek.fence > this.#fence) {
      this.#fence = peek.fence;
      this.#host.fenceRaised(peek.fence);
    }
    if (this.#client !== undefined) this.#evict(this.#client);
    if (peek.v !== KEEPER_PROTOCOL_VERSION) {
      this.#refuse(
        connection,
        "protocol_mismatch",
        `This keeper speaks protocol ${KEEPER_PROTOCOL_VERSION} and the client ${peek.v}; the keeper lets its CLI finish the current turn and then ends.`,
      );
      this.#host.retire();
      return;
    }
    const decoded = decodeClientMessage(frame);
    if (!decoded.ok || decoded.message.t !== "hello") {
      this.#refuse(
        connection,
        "bad_hello",
        `The hello was malformed (${decoded.ok ? "not a hello" : decoded.problem}).`,
      );
      return;
    }
    const log = this.#host.log;
    connection.attached = true;
    connection.sentSeq = Math.min(decoded.message.fromSeq, log.lastSeq);
    this.#client = connection;
    this.#send(connection, {
      t: "welcome",
      v: KEEPER_PROTOCOL_VERSION,
      keeperId: this.#host.keeperId,
      fence: this.#fence,
      lastSeq: log.lastSeq,
      firstSeq: log.firstSeq,
      ...this.#host.describe(),
    });
    this.#pump(connection);
  }

  #stdin(connection: Connection, n: number, line: string): void {
    const more = this.#host.writeStdin(line, (error) => {
      this.#send(connection, { t: "stdin", n, ...(error === undefined ? {} : { error }) });
    });
    if (!more) {
      connection.socket.pause();
      this.#host.onStdinDrain(() => connection.socket.resume());
    }
  }

  /** Sends the log from where this client is, until its socket is full or it has everything; then the exit, once. */
  #pump(connection: Connection): void {
    const log = this.#host.log;
    while (!connection.waitingForDrain && connection.sentSeq < log.lastSeq) {
      const { frames, throughSeq } = log.read(connection.sentSeq, REPLAY_CHUNK_BYTES);
      if (frames.length === 0) break;
      connection.sentSeq = throughSeq;
      this.#sendFrames(connection, frames);
    }
    const exit = this.#exit;
    if (exit !== undefined && !connection.exitSent && connection.sentSeq >= log.lastSeq) {
      connection.exitSent = true;
      this.#send(connection, { t: "exit", lastSeq: log.lastSeq, exit });
    }
  }

  #evict(connection: Connection): void {
    this.#send(connection, { t: "evicted", fence: this.#fence });
    connection.socket.end();
    if (this.#client === connection) this.#client = undefined;
  }

  #refuse(connection: Connection, code: RefusalCode, reason: string): void {
    this.#send(connection, { t: "refused", code, reason, v: KEEPER_PROTOCOL_VERSION });
    connection.socket.end();
  }

  #send(connection: Connection, message: KeeperMessage): void {
    if (connection.socket.destroyed || connection.socket.writableEnded) return;
    if (!connection.socket.write(encodeMessage(message))) connection.waitingForDrain = true;
  }
}

/** A socket file left by a keeper that died is removed; anything else at that path is an error from listen. */
function removeStaleSocket(path: string): void {
  try {
    if (lstatSync(path).isSocket()) rmSync(path);
  } catch {
    // Nothing there.
  }
}
