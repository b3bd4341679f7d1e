#!/usr/bin/env node
// A stdio MCP server whose one tool asks the person something before it does anything, as MCP
// servers do with `elicitation/create` (a deploy's target, an approval, a sign-in link). What
// it asks is the tool call's `ask` argument: the request's params (a form's `message` and
// `requestedSchema`, or `mode: "url"` with `url` and `elicitationId`); `wait_ms` makes it work that
// long before it asks (a build first, say). The tool answers with
// what came back, as JSON, so the conversation shows it. No MCP library: newline-delimited
// JSON-RPC on stdin and stdout, as the stdio transport is.
import process from "node:process";
import { setTimeout as sleep } from "node:timers/promises";
import { createInterface } from "node:readline";

const GO_AHEAD = { message: "Go ahead?", requestedSchema: { type: "object", properties: {} } };
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
const waiting = new Map();
let asked = 0;

const tool = {
  name: "deploy",
  description: "Deploys the project; asks the person where to first.",
  inputSchema: { type: "object", properties: { ask: { type: "object" }, wait_ms: { type: "number" } } },
};

async function handle(request) {
  switch (request.method) {
    case "initialize":
      return {
        protocolVersion: request.params.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: "asking-server", version: "1.0.0" },
      };
    case "tools/list":
      return { tools: [tool] };
    case "tools/call": {
      const id = `ask-${++asked}`;
      const answer = new Promise((resolve) => waiting.set(id, resolve));
      const ask = request.params.arguments?.ask ?? GO_AHEAD;
      await sleep(request.params.arguments?.wait_ms ?? 0);
      send({ id, method: "elicitation/create", params: ask });
      const result = await answer;
      // A link's task is done once it is accepted (a sign-in here needs no browser): said as MCP does.
      if (ask.mode === "url" && result.action === "accept")
        send({ method: "notifications/elicitation/complete", params: { elicitationId: ask.elicitationId } });
      return { content: [{ type: "text", text: JSON.stringify(result) }] };
    }
    default:
      return undefined;
  }
}

createInterface({ input: process.stdin }).on("line", (line) => {
  if (line.trim() === "") return;
  const message = JSON.parse(line);
  if (message.method === undefined) {
    // An answer to our own request.
    const resolve = waiting.get(message.id);
    waiting.delete(message.id);
    resolve?.(message.result ?? { error: message.error });
    return;
  }
  if (message.id === undefined) return; // a notification
  void handle(message).then((result) =>
    send(
      result === undefined
        ? { id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } }
        : { id: message.id, result },
    ),
  );
});
