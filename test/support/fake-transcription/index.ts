// A scripted fake of an OpenAI-compatible transcription server (POST /v1/audio/transcriptions,
// multipart) on 127.0.0.1, for the voice client's tests: replies in order (a transcript, an
// error status, a hang), every request recorded with its fields and audio. Test-only.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import busboy from "busboy";

export type TranscriptionReply =
  | { kind: "text"; text: string }
  | { kind: "error"; status: number; message?: string }
  /** Accepts the request and never answers (until the server closes). */
  | { kind: "hang" };

export type TranscriptionRequest = {
  path: string;
  authorization: string | undefined;
  /** The form's text fields: model, language, response_format, … */
  fields: Readonly<Record<string, string>>;
  file: { field: string; filename: string; mimeType: string; bytes: Buffer } | undefined;
  answered: string;
};

export type FakeTranscription = {
  /** The api_root to configure, e.g. http://127.0.0.1:41234/v1 */
  readonly apiRoot: string;
  script(replies: readonly TranscriptionReply[]): void;
  requests(): readonly TranscriptionRequest[];
  close(): Promise<void>;
};

export const transcriptionReply = {
  text: (text: string): TranscriptionReply => ({ kind: "text", text }),
  error: (status: number, message?: string): TranscriptionReply =>
    message === undefined ? { kind: "error", status } : { kind: "error", status, message },
  hang: (): TranscriptionReply => ({ kind: "hang" }),
};

export async function startFakeTranscription(replies: readonly TranscriptionReply[] = []): Promise<FakeTranscription> {
  const queue = [...replies];
  const recorded: TranscriptionRequest[] = [];
  const sockets = new Set<Socket>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    if (req.method !== "POST" || path !== "/v1/audio/transcriptions") {
      req.resume();
      return json(res, 404, { error: { message: `no route ${req.method} ${path}`, type: "invalid_request_error" } });
    }
    const request: TranscriptionRequest = {
      path,
      authorization: req.headers.authorization,
      ...(await readForm(req)),
      answered: "",
    };
    recorded.push(request);
    const next = queue.shift() ?? { kind: "error", status: 500, message: "the fake has no scripted reply left" };
    if (next.kind === "hang") {
      request.answered = "hang";
      return;
    }
    if (next.kind === "error") {
      request.answered = `error ${next.status}`;
      return json(res, next.status, {
        error: { message: next.message ?? `fake ${next.status}`, type: "server_error" },
      });
    }
    if (request.file === undefined) {
      request.answered = "error 400";
      return json(res, 400, { error: { message: "file is required", type: "invalid_request_error" } });
    }
    request.answered = "text";
    json(res, 200, { text: next.text });
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { message: String(error) } });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("fake transcription: no TCP address");

  return {
    apiRoot: `http://127.0.0.1:${address.port}/v1`,
    script: (more) => void queue.push(...more),
    requests: () => recorded,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readForm(req: IncomingMessage): Promise<Pick<TranscriptionRequest, "fields" | "file">> {
  const fields: Record<string, string> = {};
  let file: TranscriptionRequest["file"];
  if (!(req.headers["content-type"] ?? "").startsWith("multipart/form-data")) {
    req.resume();
    return { fields, file };
  }
  await new Promise<void>((resolve, reject) => {
    const parser = busboy({ headers: req.headers });
    parser.on("field", (name, value) => {
      fields[name] = value;
    });
    parser.on("file", (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        file = { field, filename: info.filename ?? "", mimeType: info.mimeType, bytes: Buffer.concat(chunks) };
      });
    });
    parser.on("close", () => resolve());
    parser.on("error", reject);
    req.pipe(parser);
  });
  return { fields, file };
}
