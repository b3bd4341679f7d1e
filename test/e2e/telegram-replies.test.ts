// What Claude reads of a message beyond its plain words, through the real bridge and the real
// CLI: a link's address and a code block's fences (Telegram sends them apart from the text),
// the colleague's message a person replies to (its words, its photo), and the part of an
// answer a person quoted. The fake Messages API's request bodies are asserted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type RecordedRequest } from "../support/fake-anthropic/index.js";
import { makePng } from "../media/samples.js";
import { isAnswer, sessionOf, startRig, STRANGER_ID, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

const BOT = "@telecode_test_bot";

/** The blocks of the last user message the CLI sent, without its system reminders. */
function userBlocks(request: RecordedRequest | undefined): Record<string, unknown>[] {
  const messages = (request?.body["messages"] ?? []) as { role: string; content: unknown }[];
  const content = messages.filter((m) => m.role === "user").at(-1)?.content;
  const blocks =
    typeof content === "string" ? [{ type: "text", text: content }] : (content as Record<string, unknown>[]);
  return (blocks ?? []).filter((b) => !(b["type"] === "text" && String(b["text"]).startsWith("<system-reminder>")));
}

describe("formatting Telegram sends apart from the text", () => {
  it("a link's address and a code block reach Claude as Markdown", async () => {
    const chat = rig.user(1001);
    rig.script("[formatted]", [reply.text("Fixed the parser.")]);
    const text = "Fix this, as the issue says:\nconst x = parse(input);\nthen run npm test [formatted]";
    const at = (words: string): number => text.indexOf(words);
    rig.tg.sendText(chat, text, {
      formatting: [
        { type: "text_link", offset: at("the issue"), length: 9, url: "https://example.com/issues/7" },
        { type: "pre", offset: at("const x"), length: "const x = parse(input);".length, language: "ts" },
        { type: "code", offset: at("npm test"), length: 8 },
      ],
    });
    await rig.botMessage(chat, isAnswer("Fixed the parser."));
    expect(rig.api.requests("[formatted]")[0]?.lastPrompt).toBe(
      "Fix this, as [the issue](https://example.com/issues/7) says:\n```ts\nconst x = parse(input);\n```\nthen run `npm test` [formatted]",
    );
  });
});

describe("a checklist", () => {
  it("reaches Claude as its title and a task list, the done ones ticked", async () => {
    const chat = rig.user(1009);
    rig.script("[checklist]", [reply.text("Did the two left.")]);
    const task = (id: number, text: string, done = false) => ({
      id,
      text,
      ...(done
        ? { completed_by_user: { id: chat, is_bot: false, first_name: "Ann" }, completion_date: 1_780_000_000 }
        : {}),
    });
    rig.tg.sendOther(chat, {
      checklist: {
        title: "Release 2.3 [checklist]",
        tasks: [task(1, "Bump the version", true), task(2, "Update the changelog"), task(3, "Tag the release")],
      },
    });
    await rig.botMessage(chat, isAnswer("Did the two left."));
    expect(rig.api.requests("[checklist]")[0]?.lastPrompt).toBe(
      "Release 2.3 [checklist]\n\n- [x] Bump the version\n- [ ] Update the changelog\n- [ ] Tag the release",
    );
    // Ticking a task is Telegram's notice, not a message to read.
    rig.tg.sendOther(chat, { checklist_tasks_done: { marked_as_done_task_ids: [2] } });
    rig.script("[after-tick]", [reply.text("Noted.")]);
    rig.tg.sendText(chat, "and the tag? [after-tick]");
    await rig.botMessage(chat, isAnswer("Noted."));
    expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("I can't read"))).toEqual([]);
  });
});

describe("replies", () => {
  it("in a group, a reply to a colleague's message gives Claude that message before the words", async () => {
    const person = rig.user(1002);
    const group = -100_302;
    rig.tg.addGroup({ id: group, memberIds: [person, STRANGER_ID] });
    const trace = "TypeError: cannot read 'id' of undefined\n    at save (src/store.ts:41)";
    const posted = rig.tg.sendText(group, trace, { from: STRANGER_ID });
    rig.script("[colleague]", [reply.text("The user is not loaded yet.")]);
    rig.tg.sendText(group, `${BOT} why does this happen? [colleague]`, { from: person, replyTo: posted });
    await rig.botMessage(group, isAnswer("The user is not loaded yet."));
    expect(rig.api.requests("[colleague]")[0]?.lastPrompt).toBe(
      "> TypeError: cannot read 'id' of undefined\n>     at save (src/store.ts:41)\n\nwhy does this happen? [colleague]",
    );
  });

  it("in a group, a reply to a colleague's screenshot gives Claude the image", async () => {
    const person = rig.user(1003);
    const group = -100_303;
    rig.tg.addGroup({ id: group, memberIds: [person, STRANGER_ID] });
    const png = makePng(64, 48);
    const posted = rig.tg.sendPhoto(group, png, { from: STRANGER_ID, caption: "the checkout page today" });
    rig.script("[screenshot]", [reply.text("The total overlaps the button.")]);
    rig.tg.sendText(group, `${BOT} what is wrong here? [screenshot]`, { from: person, replyTo: posted });
    await rig.botMessage(group, isAnswer("The total overlaps the button."));
    const blocks = userBlocks(rig.api.requests("[screenshot]")[0]);
    expect(blocks[0]).toEqual({
      type: "image",
      source: { type: "base64", media_type: "image/png", data: png.toString("base64") },
    });
    // The words after the image (Claude Code adds a note of where it saved it).
    expect(blocks.find((b) => b["type"] === "text")?.["text"]).toBe(
      "> the checkout page today\n\nwhat is wrong here? [screenshot]\n",
    );
  });

  it("quoting part of an answer continues its session, with the quoted part before the words", async () => {
    const chat = rig.user(1004);
    rig.script("[first]", [reply.text("Two options: retry with backoff, or queue the writes.")]);
    rig.tg.sendText(chat, "How do I stop losing writes? [first]");
    const answer = await rig.botMessage(chat, isAnswer("Two options"));
    rig.script("[quoted]", [reply.text("A queue keeps them in order.")]);
    rig.tg.sendText(chat, "tell me more about this [quoted]", {
      replyTo: answer.messageId,
      quote: "queue the writes",
    });
    const second = await rig.botMessage(chat, isAnswer("A queue keeps them in order."));
    expect(sessionOf(second)).toBe(sessionOf(answer));
    expect(rig.api.requests("[quoted]")[0]?.lastPrompt).toBe("> queue the writes\n\ntell me more about this [quoted]");
  });

  it("a reply to the bot's answer without a quote continues the session with the words alone", async () => {
    const chat = rig.user(1005);
    rig.script("[plain-first]", [reply.text("Done: the cache is warmed at start.")]);
    rig.tg.sendText(chat, "Warm the cache [plain-first]");
    const answer = await rig.botMessage(chat, isAnswer("Done: the cache"));
    rig.script("[plain-again]", [reply.text("Now at every deploy too.")]);
    rig.tg.sendText(chat, "and at every deploy [plain-again]", { replyTo: answer.messageId });
    const second = await rig.botMessage(chat, isAnswer("Now at every deploy too."));
    expect(sessionOf(second)).toBe(sessionOf(answer));
    expect(rig.api.requests("[plain-again]")[0]?.lastPrompt).toBe("and at every deploy [plain-again]");
  });

  it("/new with words, in reply to a colleague's message, starts a fresh session with that message and the words", async () => {
    const person = rig.user(1006);
    const group = -100_306;
    rig.tg.addGroup({ id: group, memberIds: [person, STRANGER_ID] });
    const posted = rig.tg.sendText(group, "the deploy of v2.3 failed on step 4", { from: STRANGER_ID });
    rig.script("[new-quoted]", [reply.text("Step 4 needs the migration first.")]);
    const words = "look into it, see the log [new-quoted]";
    rig.tg.sendText(group, `/new ${words}`, {
      from: person,
      replyTo: posted,
      formatting: [
        {
          type: "text_link",
          offset: "/new ".length + words.indexOf("the log"),
          length: 7,
          url: "https://ci.example/42",
        },
      ],
    });
    await rig.botMessage(group, isAnswer("Step 4 needs the migration first."));
    expect(rig.api.requests("[new-quoted]")[0]?.lastPrompt).toBe(
      "> the deploy of v2.3 failed on step 4\n\nlook into it, see [the log](https://ci.example/42) [new-quoted]",
    );
  });

  it("a queued reply, edited, keeps what it replies to before its new words", async () => {
    const chat = rig.user(1007);
    rig.script("[reply-slow]", [reply.text("Slow part done.", { delayMs: 2_000 })]);
    rig.script("[reply-edited]", [reply.text("Renamed both.")]);
    const earlier = rig.tg.sendText(chat, "Rename getUser to loadUser [reply-slow]");
    await rig.api.waitForRequests(1, "[reply-slow]");
    const queued = rig.tg.sendText(chat, "and its tset [reply-edited]", { replyTo: earlier });
    await rig.botMessage(chat, "Queued — will run after the current task");
    rig.tg.editText(chat, queued, "and its test [reply-edited]");
    await rig.botMessage(chat, (m) => m.replyToMessageId === queued && m.text.startsWith("✏️ Changed"));
    await rig.botMessage(chat, isAnswer("Renamed both."));
    expect(rig.api.requests("[reply-edited]")[0]?.lastPrompt).toBe(
      "> Rename getUser to loadUser [reply-slow]\n\nand its test [reply-edited]",
    );
  });
});

describe("forwarded messages", () => {
  it("several forwarded at once are one task, and a forwarded command is only words", async () => {
    const chat = rig.user(1008);
    rig.script("[forwarded]", [reply.text("The job ran out of memory.")]);
    rig.tg.sendText(chat, "/cancel the nightly job", { forwardedFrom: "Ops alerts" });
    rig.tg.sendText(chat, "nightly-build failed: exit 137 [forwarded]", { forwardedFrom: "Ops alerts" });
    await rig.botMessage(chat, isAnswer("The job ran out of memory."));
    expect(rig.api.requests("[forwarded]").map((r) => r.lastPrompt)).toEqual([
      "/cancel the nightly job\n\nnightly-build failed: exit 137 [forwarded]",
    ]);
    expect(rig.app.store.runs.recent(chat)).toHaveLength(1);
    // Not read as /cancel ("Nothing is running or queued here.").
    expect(rig.tg.botMessages(chat).filter((m) => /Nothing is running|Cancelling/.test(m.text))).toEqual([]);
  });
});
