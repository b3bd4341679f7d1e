// The CLI's stdout as the keeper records it: cut into lines and numbered as bytes (never
// decoded), handed to a caught-up client first, then logged. Also spots `system/init` lines,
// which carry the session id and CLI version.
import { FrameBuilder, FrameSplitter } from "./frame-splitter.js";
import type { KeeperLog } from "./keeper-log.js";
import type { SlabPool } from "./slab-pool.js";

/** Where numbered frames go besides the log: a client that is caught up, or one that reads from the log. */
export type FrameDelivery = {
  /** Sends at once to a client that has everything before `firstSeq`; false when none could take them. */
  sendLive(frames: Buffer, firstSeq: number, lastSeq: number): boolean;
  /** Lets a client that is behind read what it misses from the log. */
  catchUp(): void;
};

const INIT_MARK = Buffer.from('"subtype":"init"');
const TYPE_KEY = Buffer.from('{"type":"');
const SYSTEM_TYPE = Buffer.from('{"type":"system"');

/** Whether bytes [start, end) of `buffer` begin with `prefix`. */
function startsWith(buffer: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buffer[start + i] !== prefix[i]) return false;
  return true;
}

/**
 * Whether a line may be `system/init`: a line whose first key is `type` says so in its first
 * bytes (the CLI writes `type` first), so only system lines and lines of another shape are searched.
 */
function mayBeInit(buffer: Buffer, start: number, end: number): boolean {
  if (startsWith(buffer, start, end, TYPE_KEY) && !startsWith(buffer, start, end, SYSTEM_TYPE)) return false;
  return buffer.subarray(start, end).includes(INIT_MARK);
}

export class StdoutRecorder {
  readonly #log: KeeperLog;
  readonly #delivery: FrameDelivery;
  readonly #splitter: FrameSplitter;
  readonly #builder: FrameBuilder;

  constructor(options: {
    log: KeeperLog;
    delivery: FrameDelivery;
    /** A line that looks like `system/init`, decoded. */
    onInitLine(line: string): void;
    maxLineBytes: number;
    /** Where frames are built: slabs reused once the socket, disk and memory let go of them. */
    slabs?: SlabPool;
  }) {
    this.#builder = new FrameBuilder(options.slabs);
    this.#log = options.log;
    this.#delivery = options.delivery;
    this.#splitter = new FrameSplitter({
      maxFrameBytes: options.maxLineBytes,
      onFrame: (buffer, start, end) => {
        this.#builder.add(this.#log.nextSeq + this.#builder.count, buffer, start, end);
        if (mayBeInit(buffer, start, end)) options.onInitLine(buffer.toString("utf8", start, end));
      },
      onOversized: () => {
        this.#flush();
        const seq = this.#log.nextSeq;
        const frame = this.#log.appendOversized();
        if (!this.#delivery.sendLive(frame, seq, seq)) this.#delivery.catchUp();
      },
    });
    this.#builder.begin(0);
  }

  push(chunk: Buffer): void {
    this.#builder.begin(chunk.length + (chunk.length >> 3) + 64);
    this.#splitter.push(chunk);
    this.#flush();
  }

  /** stdout closed: a last line without a newline is recorded too. */
  end(): void {
    this.#builder.begin(64);
    this.#splitter.end();
    this.#flush();
  }

  #flush(): void {
    const count = this.#builder.count;
    if (count === 0) return;
    const first = this.#log.nextSeq;
    const frames = this.#builder.take();
    // The client first: a slow disk must not delay a line someone is waiting for.
    const sent = this.#delivery.sendLive(frames, first, first + count - 1);
    this.#log.append(frames, count);
    if (!sent) this.#delivery.catchUp();
    this.#builder.begin(64);
  }
}
