// A scripted fake of the Anthropic Messages API on 127.0.0.1 (port 0) for the real CLI to talk
// to: replies are consumed in order from a queue, per scenario key (a marker in the prompt) so
// concurrent sessions each get their own answers. Records every request. Test-only.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { formatSse, messageEvents, messageJson } from "./sse.js";
import type { FakeMessageReply, FakeReply, RecordedRequest } from "./scenario.js";

export type FakeAnthropic = {
  /** e.g. http://127.0.0.1:43117, for ANTHROPIC_BASE_URL. */
  readonly url: string;
  /** Appends replies to a queue: `key` "" (default) or a marker the prompt contains. */
  script(replies: readonly FakeReply[], key?: string): void;
  /**
   * Requests seen so far: those routed to `key`, or without one all but Claude Code's requests
   * for a guess at the next message, which come when they do (see `guesses`).
   */
  requests(key?: string): RecordedRequest[];
  /** Claude Code's requests for a guess at the next message (`suggestionsFor`). */
  guesses(): RecordedRequest[];
  /** Resolves when at least `count` requests were routed to `key` (all keys but guesses' when omitted). */
  waitForRequests(count: number, key?: string): Promise<RecordedRequest[]>;
  /** Replies still queued for `key`. */
  pending(key?: string): number;
  close(): Promise<void>;
};

/**
 * How Claude Code's request for a guess at the next message begins (its prompt suggestion, after
 * a turn's result when the host asked for them). Such requests go to queues of their own, one
 * per conversation (`suggestionsFor`), so a test's replies are never taken by them.
 */
export const SUGGESTION_KEY = "[SUGGESTION MODE";

/** The queue of guesses for the conversation whose replies are scripted under `marker` ("": the default queue's). */
export const suggestionsFor = (marker: string): string => `${SUGGESTION_KEY}${marker}`;

/** The answer to a request for a guess nobody scripted: one Claude Code drops, costing nothing. */
const NO_SUGGESTION: FakeMessageReply = {
  kind: "message",
  blocks: [{ type: "text", text: "nothing to suggest" }],
  inputTokens: 0,
  outputTokens: 0,
};

export type FakeAnthropicOptions = {
  replies?: readonly FakeReply[];
  /** Answer when a queue is empty. Default: a short text turn saying so. */
  fallback?: FakeReply;
};

type Message = { role?: unknown; content?: unknown };

function textsOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  const out: string[] = [];
  for (const block of content as Record<string, unknown>[]) {
    if (block["type"] === "text" && typeof block["text"] === "string") out.push(block["text"]);
  }
  return out;
}

/** The person's prompt: the last text of the last user message that has typed text. */
function lastPromptOf(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    const texts = textsOf(m.content).filter((t) => !t.trimStart().startsWith("<system-reminder>"));
    const last = texts[texts.length - 1];
    if (last !== undefined) return last;
  }
  return "";
}

function toolResultsOf(messages: readonly Message[]): RecordedRequest["toolResults"] {
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  if (!lastUser || !Array.isArray(lastUser.content)) return [];
  return (lastUser.content as Record<string, unknown>[])
    .filter((b) => b["type"] === "tool_result")
    .map((b) => ({
      toolUseId: String(b["tool_use_id"]),
      isError: b["is_error"] === true,
      text: typeof b["content"] === "string" ? b["content"] : textsOf(b["content"]).join("\n"),
    }));
}

function keyOf(messages: readonly Message[], keys: readonly string[]): string {
  if (keys.length === 0) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== "user") continue;
    // The CLI may merge an unanswered message into the next one: the marker written last wins.
    const text = textsOf(m.content).join("\n");
    let hit: string | undefined;
    for (const k of keys)
      if (text.includes(k) && (hit === undefined || text.lastIndexOf(k) > text.lastIndexOf(hit))) hit = k;
    if (hit !== undefined) return hit;
  }
  return "";
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Starts the fake on 127.0.0.1 with an OS-chosen port. */
export async function startFakeAnthropic(options: FakeAnthropicOptions = {}): Promise<FakeAnthropic> {
  const queues = new Map<string, FakeReply[]>([["", [...(options.replies ?? [])]]]);
  const fallback: FakeReply = options.fallback ?? {
    kind: "message",
    blocks: [{ type: "text", text: "(the fake API has no scripted reply left)" }],
  };
  const recorded: RecordedRequest[] = [];
  const waiters: { count: number; key: string | undefined; resolve: (r: RecordedRequest[]) => void }[] = [];
  const sockets = new Set<Socket>();
  let closed = false;

  const filtered = (key: string | undefined): RecordedRequest[] =>
    key === undefined
      ? recorded.filter((r) => !r.key.startsWith(SUGGESTION_KEY))
      : recorded.filter((r) => r.key === key);
  const notify = (): void => {
    for (const w of [...waiters]) {
      const hits = filtered(w.key);
      if (hits.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(hits);
      }
    }
  };

  async function stream(
    res: ServerResponse,
    r: FakeMessageReply,
    n: number,
    model: string,
    cutAfter?: number,
  ): Promise<void> {
    if (r.delayMs) await sleep(r.delayMs);
    if (r.until) await r.until;
    if (res.destroyed || closed) return;
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "request-id": `req_fake_${n}`,
      ...r.headers,
    });
    const events = messageEvents(
      r,
      // The recorded fixtures name blocks this way: msg_fake_0003, toolu_fake_003_1.
      {
        messageId: `msg_fake_${String(n).padStart(4, "0")}`,
        toolUseId: (i) => `toolu_fake_${String(n).padStart(3, "0")}_${i}`,
      },
      model,
    );
    let sent = 0;
    for (const e of events) {
      if (cutAfter !== undefined && sent >= cutAfter) {
        res.socket?.destroy();
        return;
      }
      if (e.isDelta && r.deltaDelayMs) await sleep(r.deltaDelayMs);
      if (e.event === "message_delta" && r.stopDelayMs) await sleep(r.stopDelayMs);
      if (res.destroyed || closed) return;
      res.write(formatSse(e));
      sent++;
    }
    res.end();
  }

  async function answer(res: ServerResponse, rec: RecordedRequest, scripted: FakeReply): Promise<void> {
    const model = rec.model || "claude-fake";
    const r = scripted.kind === "dynamic" ? scripted.build(rec) : scripted;
    rec.reply = r;
    switch (r.kind) {
      case "message":
        rec.answered = "sse";
        return stream(res, r, rec.n, model);
      case "cut":
        rec.answered = "cut";
        return stream(res, r.message, rec.n, model, r.afterEvents);
      case "hang":
        rec.answered = "hang";
        return;
      case "error": {
        rec.answered = `error ${r.status}`;
        if (r.delayMs) await sleep(r.delayMs);
        const errorType =
          r.errorType ??
          (r.status === 529
            ? "overloaded_error"
            : r.status === 429
              ? "rate_limit_error"
              : r.status >= 500
                ? "api_error"
                : "invalid_request_error");
        res.writeHead(r.status, {
          "content-type": "application/json",
          "request-id": `req_fake_${rec.n}`,
          ...r.headers,
        });
        res.end(
          JSON.stringify({
            type: "error",
            error: {
              type: errorType,
              message: r.message ?? `fake ${r.status}`,
              ...(r.details === undefined ? {} : { details: r.details }),
            },
          }),
        );
        return;
      }
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    if (req.method !== "POST" || !(req.url ?? "").startsWith("/v1/messages")) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "not_found_error", message: `no route ${req.method} ${req.url}` },
        }),
      );
      return;
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      res.writeHead(400, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "body is not JSON" } }));
      return;
    }
    const messages = Array.isArray(body["messages"]) ? (body["messages"] as Message[]) : [];
    const keys = [...queues.keys()].filter((k) => k !== "" && !k.startsWith(SUGGESTION_KEY));
    const lastPrompt = lastPromptOf(messages);
    const guessing = lastPrompt.startsWith(SUGGESTION_KEY);
    const conversation = keyOf(messages, keys);
    const rec: RecordedRequest = {
      n: recorded.length + 1,
      method: req.method,
      url: req.url ?? "",
      headers: req.headers,
      body,
      stream: body["stream"] === true,
      model: typeof body["model"] === "string" ? body["model"] : "",
      maxTokens: typeof body["max_tokens"] === "number" ? body["max_tokens"] : 0,
      key: guessing ? suggestionsFor(conversation) : conversation,
      lastPrompt,
      toolResults: toolResultsOf(messages),
      answered: "",
    };
    recorded.push(rec);
    if (!rec.stream) {
      // The CLI's model probe (set_model) and other one-shot checks: never consume the script.
      rec.answered = "json";
      const json = messageJson(
        { kind: "message", blocks: [{ type: "text", text: "ok" }], stopReason: "max_tokens" },
        { messageId: `msg_fake_${rec.n}`, toolUseId: (i) => `toolu_fake_${rec.n}_${i}` },
        rec.model,
      );
      res.writeHead(200, { "content-type": "application/json", "request-id": `req_fake_${rec.n}` });
      res.end(JSON.stringify(json));
      notify();
      return;
    }
    const next = queues.get(rec.key)?.shift();
    if (next === undefined) rec.answered = "fallback";
    notify();
    await answer(res, rec, next ?? (guessing ? NO_SUGGESTION : fallback));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("fake API: no TCP address");

  return {
    url: `http://127.0.0.1:${address.port}`,
    script(replies, key = "") {
      const q = queues.get(key) ?? [];
      q.push(...replies);
      queues.set(key, q);
    },
    requests: (key) => filtered(key),
    guesses: () => recorded.filter((r) => r.key.startsWith(SUGGESTION_KEY)),
    waitForRequests(count, key) {
      const hits = filtered(key);
      if (hits.length >= count) return Promise.resolve(hits);
      return new Promise((resolve) => waiters.push({ count, key, resolve }));
    },
    pending: (key = "") => queues.get(key)?.length ?? 0,
    async close() {
      closed = true;
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
