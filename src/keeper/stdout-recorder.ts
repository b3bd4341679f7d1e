// The CLI's stdout as the keeper records it: cut into lines and numbered as bytes (never
// decoded), handed to a caught-up client first, then logged. Also spots `system/init` lines,
// and reads the session id and CLI version they carry.
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

/** What a `system/init` line tells the keeper; null where the line holds no plain string for it. */
export type InitFields = { sessionId: string | null; cliVersion: string | null };

const TYPE_KEY = Buffer.from('{"type":"');
const SYSTEM_TYPE = Buffer.from('{"type":"system"');
const INIT_PREFIX = Buffer.from('{"type":"system","subtype":"init"');
const SYSTEM_SUBTYPE_PREFIX = Buffer.from('{"type":"system","subtype":"');
const INIT_MARK = Buffer.from('"subtype":"init"');
const SYSTEM_MARK = Buffer.from('"type":"system"');
const SESSION_KEY = Buffer.from('"session_id":"');
const VERSION_KEY = Buffer.from('"claude_code_version":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether bytes [start, end) of `buffer` begin with `prefix`. */
function startsWith(buffer: Buffer, start: number, end: number, prefix: Buffer): boolean {
  if (end - start < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (buffer[start + i] !== prefix[i]) return false;
  return true;
}

/**
 * Whether a line is `system/init`. The CLI writes `type` first and a system line's `subtype`
 * second, so nearly every line is told by its first bytes; lines of another shape are searched.
 */
function isInit(buffer: Buffer, start: number, end: number): boolean {
  if (startsWith(buffer, start, end, SYSTEM_SUBTYPE_PREFIX)) return startsWith(buffer, start, end, INIT_PREFIX);
  const line = buffer.subarray(start, end);
  if (startsWith(buffer, start, end, TYPE_KEY))
    return startsWith(buffer, start, end, SYSTEM_TYPE) && line.includes(INIT_MARK);
  return line.includes(INIT_MARK) && line.includes(SYSTEM_MARK);
}

/** The value of `"key":"…"` in `line` when it is a plain string (ids and versions have no escapes). */
function stringField(line: Buffer, key: Buffer): string | null {
  const at = line.indexOf(key);
  if (at < 0) return null;
  const from = at + key.length;
  const to = line.indexOf(QUOTE, from);
  if (to < 0 || line.subarray(from, to).includes(BACKSLASH)) return null;
  return line.toString("utf8", from, to);
}

/** The session id and CLI version of an init line, read from its bytes (the line is never decoded whole). */
function initFields(line: Buffer): InitFields {
  return { sessionId: stringField(line, SESSION_KEY), cliVersion: stringField(line, VERSION_KEY) };
}

export class StdoutRecorder {
  readonly #log: KeeperLog;
  readonly #delivery: FrameDelivery;
  readonly #splitter: FrameSplitter;
  readonly #builder: FrameBuilder;

  constructor(options: {
    log: KeeperLog;
    delivery: FrameDelivery;
    /** A `system/init` line's session id and CLI version. */
    onInit(fields: InitFields): void;
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
        if (isInit(buffer, start, end)) options.onInit(initFields(buffer.subarray(start, end)));
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
