// One chat's queue of writes: what goes next when an edit comes back to be tried again.
import { describe, expect, it } from "vitest";
import { ChatQueue, jobBase, type EditJob } from "../../src/telegram/outbox-queue.js";

const keyboard = { inline_keyboard: [[{ text: "Allow", callback_data: "v1.a.a" }]] };

describe("ChatQueue", () => {
  it("keeps the text of an edit tried again when only a change of the buttons came after it", () => {
    const queue = new ChatQueue(1001);
    const settled: EditJob = {
      ...jobBase(true),
      kind: "edit",
      messageId: 7,
      change: { kind: "text", content: { html: "Allow Bash?\n\n<b>✅ Allowed (Ann)</b>" } },
    };
    queue.queueEdit(settled);
    queue.take(settled); // in flight, then a 429 brings it back
    queue.queueEditOf(7, { kind: "keyboard", keyboard: undefined }, false, () => undefined);
    queue.requeue(settled);
    const next = queue.head();
    expect(next).toMatchObject({
      kind: "edit",
      messageId: 7,
      must: true,
      change: { kind: "text", content: { html: "Allow Bash?\n\n<b>✅ Allowed (Ann)</b>" } },
    });
    expect(next?.kind === "edit" && next.change.kind === "text" && next.change.content.keyboard).toBeUndefined();
  });

  it("lets a newer text win over an older one tried again, with the older callers answered too", () => {
    const queue = new ChatQueue(1001);
    const older: EditJob = {
      ...jobBase(false, () => undefined),
      kind: "edit",
      messageId: 7,
      change: { kind: "text", content: { html: "step 2", keyboard } },
    };
    queue.queueEdit(older);
    queue.take(older);
    queue.queueEditOf(7, { kind: "text", content: { html: "step 3" } }, false, () => undefined);
    queue.requeue(older);
    expect(queue.head()).toMatchObject({ change: { kind: "text", content: { html: "step 3" } } });
    expect(queue.head()?.waiters).toHaveLength(2);
  });
});
