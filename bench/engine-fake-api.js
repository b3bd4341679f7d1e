// A minimal Messages API for bench/engine: every streaming request gets a short text turn as
// SSE, anything else a one-token JSON message. The scripted fake for tests lives in
// test/support/fake-anthropic (TypeScript, not built into dist/); this is only what the bench needs.
import { Buffer } from "node:buffer";
import { createServer } from "node:http";
import process from "node:process";

function sse(res, n, model) {
  const events = [
    {
      type: "message_start",
      message: {
        id: `msg_bench_${n}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 1 },
      },
    },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: `Answer ${n}.` } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ];
  res.writeHead(200, { "content-type": "text/event-stream", "request-id": `req_bench_${n}` });
  res.end(events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
}

/** The real CLI's environment against `api`: its own HOME, temp files in `work`, no traffic elsewhere. */
export function realCliEnv(api, home, work) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: work,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: "bench-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
  };
}

/** Starts the server on 127.0.0.1; resolves with its base URL and a close function. */
export async function startBenchApi() {
  let n = 0;
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      n += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      if (body.stream === true) return sse(res, n, body.model ?? "claude-bench");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          id: `msg_bench_${n}`,
          type: "message",
          role: "assistant",
          model: body.model,
          content: [{ type: "text", text: "ok" }],
          stop_reason: "max_tokens",
          usage: { input_tokens: 1, output_tokens: 1 },
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
