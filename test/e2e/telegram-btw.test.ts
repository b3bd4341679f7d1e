// /btw through the real bridge and the real CLI: a question asked while Claude works is answered
// at once from the conversation (Claude Code's side question), beside the task, which goes on and
// ends as it would have; the question stays out of the conversation's later turns. Without a
// question, or without a Claude Code running in the chat, the person is told what to do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import { makePng } from "../media/samples.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

/** Asks for a task whose answer waits on the returned gate: Claude Code is at work until it opens. */
async function heldTask(chat: number, marker: string, ask: string, answer: string): Promise<{ open: () => void }> {
  const held = gate();
  rig.script(marker, [reply.text(answer, { until: held.until })]);
  rig.tg.sendText(chat, `${ask} ${marker}`);
  await rig.api.waitForRequests(1, marker);
  return held;
}

describe("/btw", () => {
  it("answers at once beside the task, which goes on; the question stays out of the conversation", async () => {
    const chat = rig.user(1001);
    const held = await heldTask(
      chat,
      "[refactor]",
      "Rename parse() to parseLine()",
      "Renamed parse() to parseLine() everywhere.",
    );

    rig.script("[btw]", [reply.text("I am renaming `parse()` in **src/parser.ts**, then its callers.")]);
    rig.tg.sendText(chat, "/btw what are you doing now? [btw]");
    const side = await rig.botMessage(chat, (m) => m.text.startsWith("💬"));
    expect(side.text).toBe("💬 I am renaming parse() in src/parser.ts, then its callers.");
    expect(side.html).toContain("<code>parse()</code>");
    // Asked with the conversation so far: the task's own message.
    const asked = rig.api.requests("[btw]")[0];
    expect(JSON.stringify(asked?.body["messages"])).toContain("Rename parse() to parseLine() [refactor]");
    // The task did not wait, and was not interrupted.
    expect(rig.tg.botMessages(chat).some(isAnswer("Renamed parse() to parseLine() everywhere."))).toBe(false);
    held.open();
    await rig.botMessage(chat, isAnswer("Renamed parse() to parseLine() everywhere."));

    rig.script("[after]", [reply.text("The tests pass.")]);
    rig.tg.sendText(chat, "Run the tests [after]");
    await rig.botMessage(chat, isAnswer("The tests pass."));
    expect(JSON.stringify(rig.api.requests("[after]")[0]?.body["messages"])).not.toContain("what are you doing now?");
  });

  it("follows a side answer up when it is replied to, with the side questions before it; once Claude Code has ended, the reply is a task", async () => {
    const chat = rig.user(1003);
    const held = await heldTask(chat, "[migrate]", "Migrate the schema", "Migrated the schema.");

    rig.script("[side-1]", [reply.text("Adding the `users.email` index.")]);
    rig.tg.sendText(chat, "/btw what are you on? [side-1]");
    const first = await rig.botMessage(chat, (m) => m.text.startsWith("💬 Adding"));
    rig.script("[side-2]", [reply.text("Migration 0042, line 12.")]);
    const followUp = rig.tg.sendText(chat, "which file? [side-2]", { replyTo: first.messageId });
    const second = await rig.botMessage(chat, (m) => m.text.startsWith("💬 Migration"));
    expect(second.replyToMessageId).toBe(followUp);
    // Asked with the side question before it and its answer.
    const asked = JSON.stringify(rig.api.requests("[side-2]")[0]?.body["messages"]);
    expect(asked).toContain("what are you on? [side-1]");
    expect(asked).toContain("Adding the `users.email` index.");
    // /btw sent as a reply follows up too.
    rig.script("[side-3]", [reply.text("About a minute.")]);
    rig.tg.sendText(chat, "/btw how long? [side-3]", { replyTo: second.messageId });
    await rig.botMessage(chat, (m) => m.text === "💬 About a minute.");
    expect(JSON.stringify(rig.api.requests("[side-3]")[0]?.body["messages"])).toContain("which file? [side-2]");
    held.open();
    await rig.botMessage(chat, isAnswer("Migrated the schema."));

    // With Claude Code ended (/new closes it), a reply to a side answer is a message like any.
    await rig.command(chat, "new");
    rig.script("[line-12]", [reply.text("Line 12 adds the index.")]);
    rig.tg.sendText(chat, "what does line 12 do? [line-12]", { replyTo: second.messageId });
    await rig.botMessage(chat, isAnswer("Line 12 adds the index."));
    expect(rig.api.requests("[line-12]")[0]?.lastPrompt).toContain("what does line 12 do? [line-12]");
  });

  it("says a photo cannot go with a side question, and sends nothing", async () => {
    const chat = rig.user(1004);
    const requests = rig.api.requests().length;
    rig.tg.sendPhoto(chat, makePng(40, 30), { caption: "/btw what is this error?" });
    await rig.botMessage(
      chat,
      "A side question (/btw) takes words only: Claude answers it from the conversation, without photos or files, so nothing went to Claude. Send the photo or file without /btw to give it to Claude as a task, or ask in words with /btw.",
    );
    expect(rig.api.requests()).toHaveLength(requests);
  });

  it("says how to ask, and what to do when no Claude Code runs in the chat", async () => {
    const chat = rig.user(1002);
    expect(await rig.command(chat, "btw")).toBe(
      "Put the question after the command, e.g. /btw which file are you in? Claude answers it beside the task, which goes on, and the answer stays out of the conversation. Reply to an answer to ask more.",
    );
    const requests = rig.api.requests().length;
    expect(await rig.command(chat, "btw", "how far along are you?")).toBe(
      "Claude Code is not running in this chat now, so there is no work to ask about beside: send the question as a message.",
    );
    expect(rig.api.requests()).toHaveLength(requests);
  });
});
