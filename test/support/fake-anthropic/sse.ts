// Turns a scripted assistant message into the Messages API's SSE event sequence
// (message_start, content_block_start/delta/stop, message_delta, message_stop). No I/O.
import type { FakeMessageReply } from "./scenario.js";

export type SseEvent = { event: string; data: Record<string, unknown>; isDelta: boolean };

function cut(text: string, pieces: number): string[] {
  if (pieces <= 1 || text.length <= 1) return [text];
  const size = Math.ceil(text.length / pieces);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The events for one message; `ids` names the message and its tool_use blocks. */
export function messageEvents(
  reply: FakeMessageReply,
  ids: { messageId: string; toolUseId: (index: number) => string },
  model: string,
): SseEvent[] {
  const events: SseEvent[] = [];
  const push = (data: Record<string, unknown>, isDelta = false): void => {
    events.push({ event: String(data["type"]), data, isDelta });
  };
  const hasTool = reply.blocks.some((b) => b.type === "tool_use");
  push({
    type: "message_start",
    message: {
      id: ids.messageId,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: reply.inputTokens ?? 100,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: reply.cacheReadTokens ?? 0,
      },
    },
  });
  reply.blocks.forEach((block, index) => {
    switch (block.type) {
      case "text":
        push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
        for (const piece of cut(block.text, reply.chunks ?? 1)) {
          push({ type: "content_block_delta", index, delta: { type: "text_delta", text: piece } }, true);
        }
        break;
      case "thinking":
        push({ type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } });
        for (const piece of cut(block.thinking, reply.chunks ?? 1)) {
          push({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: piece } }, true);
        }
        push({
          type: "content_block_delta",
          index,
          delta: { type: "signature_delta", signature: "c2lnbmF0dXJlLWZvci10ZXN0cw==" },
        });
        break;
      case "tool_use":
        push({
          type: "content_block_start",
          index,
          content_block: { type: "tool_use", id: block.id ?? ids.toolUseId(index), name: block.name, input: {} },
        });
        push(
          {
            type: "content_block_delta",
            index,
            delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) },
          },
          true,
        );
        break;
    }
    push({ type: "content_block_stop", index });
  });
  push({
    type: "message_delta",
    delta: { stop_reason: reply.stopReason ?? (hasTool ? "tool_use" : "end_turn"), stop_sequence: null },
    usage: { output_tokens: reply.outputTokens ?? 20 },
  });
  push({ type: "message_stop" });
  return events;
}

/** A complete non-streaming message body (the answer to `stream: false` requests). */
export function messageJson(
  reply: FakeMessageReply,
  ids: { messageId: string; toolUseId: (index: number) => string },
  model: string,
): Record<string, unknown> {
  return {
    id: ids.messageId,
    type: "message",
    role: "assistant",
    model,
    content: reply.blocks.map((b, index) =>
      b.type === "tool_use" ? { type: "tool_use", id: b.id ?? ids.toolUseId(index), name: b.name, input: b.input } : b,
    ),
    stop_reason: reply.stopReason ?? "end_turn",
    stop_sequence: null,
    usage: { input_tokens: reply.inputTokens ?? 10, output_tokens: reply.outputTokens ?? 1 },
  };
}

export function formatSse(e: SseEvent): string {
  return `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`;
}
