// A group that Telegram turns into a supergroup (it gets a new chat id; the old one refuses
// every message), through the real bridge and the real CLI: a run going at the time answers
// in the supergroup, the group's session, settings and schedules go on there, also after a
// restart, and nothing is edited or quoted across the move.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_MOVED_TEXT } from "../../src/telegram/bridge/chat-moved.js";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

const BOT = "@telecode_test_bot";

/** A basic group (what Telegram makes first) with `person` in it. */
function basicGroup(id: number, person: number): number {
  rig.tg.addGroup({ id, type: "group", memberIds: [person] });
  return id;
}

describe("a group that became a supergroup", () => {
  it("gets the answer of a run going at the time there, never edits its messages by an old id, and goes on in the session", async () => {
    const person = rig.user(1001);
    const group = basicGroup(-4001, person);
    const supergroup = -100_4001;
    rig.script("[before-move]", [reply.text("Migrated the schema.", { delayMs: 2_500 })]);
    rig.tg.sendText(group, `${BOT} migrate the schema [before-move]`, { from: person });
    await rig.api.waitForRequests(1, "[before-move]");
    const oldProgress = await rig.botMessage(group, /Working|Starting/);
    rig.tg.upgradeGroup(group, supergroup);

    const answer = await rig.botMessage(supergroup, isAnswer("Migrated the schema."));
    // The request is in the old group, where the supergroup cannot quote it.
    expect(answer.replyToMessageId).toBeUndefined();
    // The supergroup numbers its messages from 1 again, so the old progress message's id names
    // one of its messages too (Telegram's notice of the move, or ours): that one is left alone,
    // and the progress goes on in a message of its own.
    expect(rig.tg.message(supergroup, oldProgress.messageId)).toBeDefined();
    const progress = rig.tg.botMessages(supergroup).filter((m) => m.revisions[0]!.text.includes("Working"));
    expect(progress).toHaveLength(1);
    for (const message of rig.tg.botMessages(supergroup))
      if (message.messageId !== progress[0]!.messageId) expect(message.edited, message.text).toBe(false);
    expect(rig.tg.botMessages(supergroup).filter((m) => m.text === CHAT_MOVED_TEXT)).toHaveLength(1);

    rig.script("[after-move]", [reply.text("Also added the index.")]);
    rig.tg.sendText(supergroup, `${BOT} add the index too [after-move]`, { from: person });
    const next = await rig.botMessage(supergroup, isAnswer("Also added the index."));
    expect(sessionOf(next)).toBe(sessionOf(answer));
  });

  it("learns of the move from a refused message when Telegram's notices were missed, and keeps it across a restart", async () => {
    const person = rig.user(1002);
    const group = basicGroup(-4002, person);
    const supergroup = -100_4002;
    expect(await rig.command(group, "/model", "haiku")).toMatch(/haiku/i);
    rig.script("[refused-first]", [reply.text("Read the code.", { delayMs: 1_500 })]);
    rig.tg.sendText(group, `${BOT} read the code [refused-first]`, { from: person });
    await rig.api.waitForRequests(1, "[refused-first]");
    rig.tg.upgradeGroup(group, supergroup, { notices: false });
    const first = await rig.botMessage(supergroup, isAnswer("Read the code."));
    await rig.botMessage(supergroup, CHAT_MOVED_TEXT);
    expect(rig.app.store.chats.moves()).toContainEqual({ from: group, to: supergroup });

    await rig.app.stop();
    await rig.startApp();
    rig.script("[moved-on]", [reply.text("Same session, after the restart.")]);
    rig.tg.sendText(supergroup, `${BOT} go on [moved-on]`, { from: person });
    const next = await rig.botMessage(supergroup, isAnswer("Same session, after the restart."));
    expect(sessionOf(next)).toBe(sessionOf(first));
    // The model chosen in the group before the move.
    expect(rig.api.requests("[moved-on]")[0]?.model).toMatch(/haiku/);
    // Told once, not again at the restart.
    expect(rig.tg.botMessages(supergroup).filter((m) => m.text === CHAT_MOVED_TEXT)).toHaveLength(1);
  });
});
