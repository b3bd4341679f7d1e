// /btw through the real bridge and the real CLI: a question asked while Claude works is answered
// at once from the conversation (Claude Code's side question), beside the task, which goes on and
// ends as it would have; the question stays out of the conversation's later turns. Without a
// question, or without a Claude Code running in the chat, the person is told what to do.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

describe("/btw", () => {
  it("answers at once beside the task, which goes on; the question stays out of the conversation", async () => {
    const chat = rig.user(1001);
    const held = gate();
    rig.script("[refactor]", [reply.text("Renamed parse() to parseLine() everywhere.", { until: held.until })]);
    rig.tg.sendText(chat, "Rename parse() to parseLine() [refactor]");
    await rig.api.waitForRequests(1, "[refactor]");

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

  it("says how to ask, and what to do when no Claude Code runs in the chat", async () => {
    const chat = rig.user(1002);
    expect(await rig.command(chat, "btw")).toBe(
      "Put the question after the command, e.g. /btw which file are you in? Claude answers it beside the task, which goes on, and the answer stays out of the conversation.",
    );
    const requests = rig.api.requests().length;
    expect(await rig.command(chat, "btw", "how far along are you?")).toBe(
      "Claude Code is not running in this chat now, so there is no work to ask about beside: send the question as a message.",
    );
    expect(rig.api.requests()).toHaveLength(requests);
  });
});
