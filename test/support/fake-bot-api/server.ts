// The fake Bot API's HTTP side on 127.0.0.1: routes /bot<token>/<method> and file downloads
// (/file/bot<token>/<file_path>), reads every body encoding grammY uses (JSON, multipart via
// busboy, urlencoded), long-polls getUpdates, applies injected faults and logs every call.
// Method semantics live in methods.ts and media-methods.ts.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { pipeline, Readable, Transform } from "node:stream";
import busboy from "busboy";
import { BOT_DOWNLOAD_MAX_BYTES } from "./media-state.js";
import { methods } from "./methods.js";
import { ApiFailure, Params, type UploadedFile } from "./params.js";
import type { FakeWorld, QueuedUpdate } from "./state.js";

/** What an armed fault does to the next matching call instead of serving it. */
export type Fault =
  /** 429 with parameters.retry_after, as Telegram's flood control answers. */
  | { kind: "retry_after"; seconds: number }
  /** Any Bot API error, e.g. { code: 500, description: "Internal Server Error" }. */
  | { kind: "error"; code: number; description: string }
  /** The connection is dropped without an answer. */
  | { kind: "network" }
  /**
   * The request is read and never answered, as when the network drops without a word (a laptop
   * woke on another Wi-Fi): the call waits until its caller gives up on it.
   */
  | { kind: "silent" }
  /**
   * A slow line: the request's body is read (for "file", the file is sent) at this many bytes a
   * second, and the call is then served as usual. With `stallAfterBytes`, nothing more moves
   * after that many and no answer comes, as when a connection dies mid-transfer.
   */
  | SlowLine;

export type SlowLine = { kind: "slow"; bytesPerSecond: number; stallAfterBytes?: number };

export type FaultOptions = { chatId?: number; times?: number };

type ArmedFault = { method: string; chatId: number | undefined; fault: Fault; remaining: number };

type Poll = { finish: () => void };

/** A request as it arrived: its method (or "file") and the connection it came on (1, 2, … in opening order). */
export type Arrival = { method: string; connection: number };

export class BotApiServer {
  private readonly server: Server;
  private readonly faults: ArmedFault[] = [];
  private readonly polls = new Set<Poll>();
  private allowedUpdates: readonly string[] = [];
  private closing = false;
  private readonly connectionOf = new WeakMap<object, number>();
  private connectionsOpened = 0;
  readonly arrivals: Arrival[] = [];

  constructor(
    private readonly world: FakeWorld,
    private readonly token: string,
    private readonly maxPollWaitMs: number,
  ) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent)
          reply(res, 500, { ok: false, error_code: 500, description: `Internal Server Error: ${String(error)}` });
      });
    });
    this.server.on("connection", (socket) => this.connectionOf.set(socket, ++this.connectionsOpened));
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(0, "127.0.0.1", () => resolve());
    });
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    this.closing = true;
    for (const poll of [...this.polls]) poll.finish();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  injectFault(method: string, fault: Fault, options: FaultOptions = {}): void {
    this.faults.push({ method, chatId: options.chatId, fault, remaining: options.times ?? 1 });
  }

  pollsWaiting(): number {
    return this.polls.size;
  }

  /** Disarms every fault not yet used. */
  clearFaults(): void {
    this.faults.splice(0);
  }

  pendingFaults(): number {
    return this.faults.reduce((sum, armed) => sum + armed.remaining, 0);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Telegram's clock, as its answers' Date header says it: the fake's own (a test may set it apart).
    res.setHeader("date", new Date(this.world.now()).toUTCString());
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const connection = this.connectionOf.get(req.socket) ?? 0;
    this.arrivals.push({
      method: url.pathname.startsWith("/file/") ? "file" : (url.pathname.split("/").at(-1) ?? ""),
      connection,
    });
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download !== null) {
      const params = { file_path: decodeURIComponent(download[2]!) };
      const fault = this.takeFault("file", undefined);
      if (fault?.kind === "slow") return this.serveFile(res, download[1]!, params.file_path, fault);
      if (fault !== undefined) return this.fail(req, res, "file", new Params(params), undefined, fault);
      return this.serveFile(res, download[1]!, params.file_path);
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (match === null) return reply(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    if (match[1] !== this.token) return reply(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    const method = match[2]!;
    const line = this.takeSlowLine(method);
    const params = await readParams(req, url, line === undefined ? req : req.pipe(paced(line)));
    const chatId = this.chatOf(method, params);
    const fault = this.takeFault(method, chatId);
    if (fault !== undefined && fault.kind !== "slow") return this.fail(req, res, method, params, chatId, fault);
    if (method === "getUpdates") return this.getUpdates(req, res, params);
    const handler = methods[method];
    try {
      if (handler === undefined) throw new ApiFailure(404, "Not Found");
      const result = handler(this.world, params);
      this.log(method, params, chatId, undefined);
      reply(res, 200, { ok: true, result });
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      this.log(method, params, chatId, error);
      reply(res, error.errorCode, error.body());
    }
    this.world.changed();
  }

  private fail(
    req: IncomingMessage,
    res: ServerResponse,
    method: string,
    params: Params,
    chatId: number | undefined,
    fault: Exclude<Fault, SlowLine>,
  ): void {
    if (fault.kind === "network") {
      this.log(method, params, chatId, new ApiFailure(0, "network fault: connection dropped"));
      req.socket.destroy();
    } else if (fault.kind === "silent") {
      this.log(method, params, chatId, new ApiFailure(0, "network fault: no answer"));
    } else {
      const failure =
        fault.kind === "retry_after"
          ? new ApiFailure(429, `Too Many Requests: retry after ${fault.seconds}`, { retry_after: fault.seconds })
          : new ApiFailure(fault.code, fault.description);
      this.log(method, params, chatId, failure);
      reply(res, failure.errorCode, failure.body());
    }
    this.world.changed();
  }

  /** A file download as Telegram's file server answers it: the bytes, or 404; logged as method "file". */
  private serveFile(res: ServerResponse, token: string, filePath: string, line?: SlowLine): void {
    if (token !== this.token) return reply(res, 401, { ok: false, error_code: 401, description: "Unauthorized" });
    const file = this.world.files.byPath(filePath);
    const known = file !== undefined && file.content.length <= BOT_DOWNLOAD_MAX_BYTES;
    this.world.calls.push({
      method: "file",
      params: { file_path: filePath },
      atMs: this.world.now(),
      chatId: undefined,
      ok: known,
    });
    if (!known) return reply(res, 404, { ok: false, error_code: 404, description: "Not Found" });
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": file.content.length });
    if (line === undefined) res.end(file.content);
    else pipeline(Readable.from([file.content]), paced(line), res, () => undefined);
    this.world.changed();
  }

  /** Long polling as Telegram does it: answers at once when updates wait, else when one arrives or the (capped) timeout ends. */
  private async getUpdates(req: IncomingMessage, res: ServerResponse, params: Params): Promise<void> {
    let limit: number;
    let timeoutS: number;
    try {
      const offset = params.optionalInt("offset");
      limit = Math.min(100, Math.max(1, params.optionalInt("limit") ?? 100));
      timeoutS = Math.max(0, params.optionalInt("timeout") ?? 0);
      const allowed = params.optionalJson("allowed_updates");
      if (Array.isArray(allowed))
        this.allowedUpdates = allowed.filter((kind): kind is string => typeof kind === "string");
      if (this.world.webhookUrl !== "")
        throw new ApiFailure(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        );
      this.confirm(offset);
    } catch (error) {
      if (!(error instanceof ApiFailure)) throw error;
      this.log("getUpdates", params, undefined, error);
      return reply(res, error.errorCode, error.body());
    }
    // A newer poll replaces an older one (Telegram would answer the older with 409 Conflict;
    // here the older simply gets what is queued so a restarting client never sees an error).
    for (const poll of [...this.polls]) poll.finish();
    if (this.deliverable(limit).length === 0 && timeoutS > 0 && !this.closing) {
      await new Promise<void>((resolve) => {
        const poll: Poll = {
          finish: () => {
            clearTimeout(timer);
            stopListening();
            this.polls.delete(poll);
            res.off("close", poll.finish);
            resolve();
          },
        };
        const timer = setTimeout(poll.finish, Math.min(timeoutS * 1000, this.maxPollWaitMs));
        const stopListening = this.world.onChange(() => {
          if (this.deliverable(limit).length > 0) poll.finish();
        });
        res.on("close", poll.finish);
        this.polls.add(poll);
        this.world.changed();
      });
    }
    const updates = res.destroyed ? [] : this.deliverable(limit);
    this.log("getUpdates", params, undefined, undefined);
    reply(res, 200, { ok: true, result: updates });
  }

  /** Forgets updates below `offset` (a negative offset keeps only the last -offset updates). */
  private confirm(offset: number | undefined): void {
    if (offset === undefined || offset === 0) return;
    const updates = this.world.updates;
    this.world.updates = offset > 0 ? updates.filter((u) => u.update_id >= offset) : updates.slice(offset);
  }

  private deliverable(limit: number): QueuedUpdate[] {
    const allowed = this.allowedUpdates;
    const wanted =
      allowed.length === 0 ? this.world.updates : this.world.updates.filter((u) => allowed.some((kind) => kind in u));
    return wanted.slice(0, limit);
  }

  /** A slow line armed for `method` (for any chat: its body is read before its chat is known). */
  private takeSlowLine(method: string): SlowLine | undefined {
    const fault = this.takeFault(method, undefined, (armed) => armed.fault.kind === "slow");
    return fault?.kind === "slow" ? fault : undefined;
  }

  private takeFault(
    method: string,
    chatId: number | undefined,
    which: (armed: ArmedFault) => boolean = (armed) => armed.fault.kind !== "slow" || method === "file",
  ): Fault | undefined {
    const index = this.faults.findIndex(
      (armed) => armed.method === method && (armed.chatId === undefined || armed.chatId === chatId) && which(armed),
    );
    const armed = this.faults[index];
    if (armed === undefined) return undefined;
    armed.remaining--;
    if (armed.remaining <= 0) this.faults.splice(index, 1);
    return armed.fault;
  }

  private chatOf(method: string, params: Params): number | undefined {
    if (method === "answerCallbackQuery") {
      const id = params.optionalString("callback_query_id");
      return id === undefined ? undefined : this.world.callbackQueries.get(id)?.chatId;
    }
    const raw = params.raw("chat_id");
    const chatId = typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw) : NaN;
    return Number.isInteger(chatId) ? chatId : undefined;
  }

  private log(method: string, params: Params, chatId: number | undefined, failure: ApiFailure | undefined): void {
    this.world.calls.push({
      method,
      params: params.snapshot(),
      atMs: this.world.now(),
      chatId,
      ok: failure === undefined,
      ...(failure === undefined ? {} : { errorCode: failure.errorCode, description: failure.description }),
    });
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  if (res.destroyed) return;
  const json = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(json) });
  res.end(json);
}

/** Bytes at the line's pace (a piece every 50 ms or so); once `stallAfterBytes` passed, none more. */
function paced(line: SlowLine): Transform {
  const pieceBytes = Math.max(1, Math.round(line.bytesPerSecond / 20));
  const limit = line.stallAfterBytes ?? Infinity;
  let passed = 0;
  let startedMs: number | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      startedMs ??= Date.now();
      const from = (at: number): void => {
        if (at >= chunk.length) return done();
        if (passed >= limit) return; // stalled for good: the rest never moves
        const size = Math.min(pieceBytes, chunk.length - at, limit - passed);
        passed += size;
        this.push(chunk.subarray(at, at + size));
        // The next piece when the line has carried this one: on the line's own schedule.
        const dueMs = startedMs! + (passed / line.bytesPerSecond) * 1000;
        setTimeout(() => from(at + size), Math.max(0, dueMs - Date.now()));
      };
      from(0);
    },
  });
}

/** The call's parameters, its body read from `body` (the request's own, or it at a slow line's pace). */
async function readParams(req: IncomingMessage, url: URL, body: Readable): Promise<Params> {
  const values: Record<string, unknown> = Object.fromEntries(url.searchParams.entries());
  const type = req.headers["content-type"] ?? "";
  if (type.startsWith("multipart/form-data")) {
    const files: UploadedFile[] = [];
    await new Promise<void>((resolve, reject) => {
      const parser = busboy({ headers: req.headers });
      parser.on("field", (name, value) => {
        values[name] = value;
      });
      parser.on("file", (field, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          files.push({
            field,
            filename: info.filename ?? field,
            mimeType: info.mimeType,
            content: Buffer.concat(chunks),
          });
        });
      });
      parser.on("close", () => resolve());
      parser.on("error", reject);
      body.pipe(parser);
    });
    return new Params(values, files);
  }
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text.length === 0) return new Params(values);
  if (type.startsWith("application/json")) {
    const parsed = JSON.parse(text) as unknown;
    return new Params({ ...values, ...(typeof parsed === "object" && parsed !== null ? parsed : {}) });
  }
  return new Params({ ...values, ...Object.fromEntries(new URLSearchParams(text).entries()) });
}
