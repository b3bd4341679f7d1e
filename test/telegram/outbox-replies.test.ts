// The outbox's memory of what its messages answered: bounded per chat and in chats, the
// oldest dropped first, a chat written to again kept.
import { describe, expect, it } from "vitest";
import { ReplyMemory } from "../../src/telegram/outbox-replies.js";

describe("reply memory", () => {
  it("remembers the latest 256 replies of a chat", () => {
    const memory = new ReplyMemory();
    for (let id = 1; id <= 257; id++) memory.sent(7, id, id * 10);
    expect(memory.answeredBy(7, 1)).toBeUndefined();
    expect(memory.answeredBy(7, 2)).toBe(20);
    expect(memory.answeredBy(7, 257)).toBe(2570);
    expect(memory.answeredBy(8, 257)).toBeUndefined();
  });

  it("keeps 1,000 chats, dropping the one written to longest ago", () => {
    const memory = new ReplyMemory();
    for (let chat = 1; chat <= 1000; chat++) memory.sent(chat, 1, 100);
    memory.sent(1, 2, 200); // chat 1 is written to again: now the newest
    memory.sent(1001, 1, 100);
    expect(memory.answeredBy(1, 1)).toBe(100);
    expect(memory.answeredBy(2, 1)).toBeUndefined();
    expect(memory.answeredBy(1001, 1)).toBe(100);
  });
});
