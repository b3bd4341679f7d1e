// Forum topics through the real bridge and the real CLI: each topic of a forum group (or of a
// private chat with topics on) is a conversation of its own — its session, its settings once it
// changes one, its schedules — and everything of it stays in it: progress, questions, answers.
// A topic Telegram stops taking messages in sends what Telecode has for it to General instead.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";
import { botMessageInTopic, isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
let clock: FakeClock;
beforeAll(async () => {
  clock = createFakeClock(Date.parse("2026-06-01T08:00:00Z"));
  rig = await startRig({ scheduleClock: clock, toml: ["[schedule]", 'timezone = "UTC"'] });
});
afterAll(async () => {
  await rig?.dispose();
});

const BOT = "@telecode_test_bot";

/** A forum group with `person` in it. */
function forum(id: number, person: number): number {
  rig.tg.addGroup({ id, memberIds: [person] });
  return id;
}

/** The bot's message in topic `thread` (undefined: General) matching `match`, waiting for it. */
const inTopic = (chat: number, thread: number | undefined, match: (m: MessageView) => boolean) =>
  botMessageInTopic(rig, chat, thread, match);

/**
 * Sends `words` (ending in a [marker]) in topic `thread` (undefined: General) with `answer`
 * scripted for it, and waits for that answer there.
 */
function ask(chat: number, thread: number | undefined, words: string, answer: string): Promise<MessageView> {
  rig.script(/\[[^\]]+\]$/.exec(words)![0], [reply.text(answer)]);
  rig.tg.sendText(chat, words, thread === undefined ? {} : { topic: thread });
  return inTopic(chat, thread, isAnswer(answer));
}

/** Sends `/name args` in a topic and waits for the bot's reply to it there. */
async function topicCommand(chat: number, thread: number, name: string, args: string): Promise<MessageView> {
  const sent = rig.tg.sendCommand(chat, name, args, { topic: thread });
  return inTopic(chat, thread, (m) => m.replyToMessageId === sent);
}

describe("a forum group", () => {
  it("runs each topic in its own session, at the same time, with every message of a run in its topic", async () => {
    const person = rig.user(1001);
    const group = forum(-100_5001, person);
    const build = rig.tg.topics.create(group, "Build");
    const docs = rig.tg.topics.create(group, "Docs");
    // Build's turn goes on until Docs has answered: were the topics one queue, Docs never would.
    const docsAnswered = gate();
    rig.script("[topic-build]", [reply.text("The build is fixed.", { until: docsAnswered.until })]);
    rig.script("[topic-docs]", [reply.text("The docs are written.")]);
    rig.tg.sendText(group, `${BOT} fix the build [topic-build]`, { topic: build });
    await rig.api.waitForRequests(1, "[topic-build]");
    rig.tg.sendText(group, `${BOT} write the docs [topic-docs]`, { topic: docs });
    const docsAnswer = await inTopic(group, docs, isAnswer("The docs are written."));
    expect(rig.tg.topics.botMessages(group, build).some(isAnswer("The build is fixed."))).toBe(false);
    docsAnswered.open();
    const buildAnswer = await inTopic(group, build, isAnswer("The build is fixed."));
    expect(sessionOf(buildAnswer)).toBeDefined();
    expect(sessionOf(docsAnswer)).not.toBe(sessionOf(buildAnswer));
    // Nothing of either run landed in General, nor in the other topic.
    expect(rig.tg.topics.botMessages(group, undefined)).toEqual([]);
    for (const m of rig.tg.topics.botMessages(group, docs)) expect(m.text).not.toContain("build");

    const again = await ask(group, build, `${BOT} the lint too [topic-build-again]`, "Also the lint.");
    expect(sessionOf(again)).toBe(sessionOf(buildAnswer));
    // The topic's first message, which Telegram names as what every message in it replies to,
    // is no quote: Claude gets the person's words alone.
    expect(rig.api.requests("[topic-build-again]").at(-1)?.lastPrompt).toBe("the lint too [topic-build-again]");
  });

  it("reads a topic's settings as the group's until the topic changes one", async () => {
    const person = rig.user(1002);
    const group = forum(-100_5002, person);
    const api = rig.tg.topics.create(group, "API");
    const web = rig.tg.topics.create(group, "Web");
    expect(await rig.command(group, "/model", "haiku")).toMatch(/haiku/i);
    expect((await topicCommand(group, web, "/model", "opus")).text).toMatch(/opus/i);
    rig.script("[settings-api]", [reply.text("Done in API.")]);
    rig.script("[settings-web]", [reply.text("Done in Web.")]);
    rig.tg.sendText(group, `${BOT} go [settings-api]`, { topic: api });
    rig.tg.sendText(group, `${BOT} go [settings-web]`, { topic: web });
    await inTopic(group, api, isAnswer("Done in API."));
    await inTopic(group, web, isAnswer("Done in Web."));
    expect(rig.api.requests("[settings-api]")[0]?.model).toMatch(/haiku/);
    expect(rig.api.requests("[settings-web]")[0]?.model).toMatch(/opus/);
  });

  it("asks for an approval in the topic, and the tap there lets the run go on", async () => {
    const person = rig.user(1003);
    const group = forum(-100_5003, person);
    const ops = rig.tg.topics.create(group, "Ops");
    rig.script("[topic-approval]", [reply.bash("touch topic.txt", "Create a file"), reply.text("Created it.")]);
    rig.tg.sendText(group, `${BOT} make the file [topic-approval]`, { topic: ops });
    const asked = await inTopic(group, ops, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    const tap = rig.tg.tapButton(group, asked.messageId, "✅ Allow", { from: person });
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Approved");
    await inTopic(group, ops, isAnswer("Created it."));
    expect(existsSync(join(rig.ws.cwd, "topic.txt"))).toBe(true);
  });

  it("keeps a topic's open approval across a restart: the tap there lets the run go on in the topic", async () => {
    const person = rig.user(1008);
    const group = forum(-100_5008, person);
    const ops = rig.tg.topics.create(group, "Ops");
    rig.script("[topic-restart]", [
      reply.bash("touch restarted.txt", "Create a file"),
      reply.text("Created it after the restart."),
    ]);
    rig.tg.sendText(group, `${BOT} make the file [topic-restart]`, { topic: ops });
    const asked = await inTopic(group, ops, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    await rig.app.stop();
    await rig.startApp();
    const tap = rig.tg.tapButton(group, asked.messageId, "✅ Allow", { from: person });
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Approved");
    await inTopic(group, ops, isAnswer("Created it after the restart."));
    expect(rig.tg.topics.botMessages(group, undefined)).toEqual([]);
  });

  it("runs a schedule made in a topic in that topic", async () => {
    const person = rig.user(1004);
    const group = forum(-100_5004, person);
    const deploys = rig.tg.topics.create(group, "Deploys");
    const made = await topicCommand(group, deploys, "/every", "1h TOPICTICK check the deploy");
    expect(made.text).toContain("every hour");
    rig.script("TOPICTICK", [reply.text("The deploy is green.")]);
    clock.advance(3_600_000);
    await inTopic(group, deploys, isAnswer("The deploy is green."));
    expect(rig.tg.topics.botMessages(group, undefined)).toEqual([]);
  });

  it("sends a closed topic's answer to General, saying why once, and goes back to the topic when it is reopened", async () => {
    const person = rig.user(1005);
    const group = forum(-100_5005, person);
    const release = rig.tg.topics.create(group, "Release");
    rig.script("[closed-topic]", [reply.text("Tagged v2.", { delayMs: 2_000 })]);
    rig.tg.sendText(group, `${BOT} tag the release [closed-topic]`, { topic: release });
    await rig.api.waitForRequests(1, "[closed-topic]");
    rig.tg.topics.close(group, release);

    const answer = await inTopic(group, undefined, isAnswer("Tagged v2."));
    // The request is in the closed topic: a reply to it would land there too.
    expect(answer.replyToMessageId).toBeUndefined();
    // The note goes on the chat's own queue: on a busy machine it may follow the answer.
    await inTopic(group, undefined, (m) => m.text.startsWith("ℹ️ The topic"));
    const notices = rig.tg.topics.botMessages(group, undefined).filter((m) => m.text.startsWith("ℹ️ The topic"));
    expect(notices.map((m) => m.text)).toEqual([
      "ℹ️ The topic “Release” was closed, so I write what I have for it here instead, until it is reopened.",
    ]);

    // A reply there, to the topic's answer, goes on in the topic's session; so does a tap on a
    // question asked there meanwhile.
    rig.script("[aside-reply]", [reply.bash("touch notes.md", "Write the notes"), reply.text("Wrote the notes.")]);
    const asking = rig.tg.sendText(group, `${BOT} write the notes [aside-reply]`, { replyTo: answer.messageId });
    const asked = await inTopic(group, undefined, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    const tap = rig.tg.tapButton(group, asked.messageId, "✅ Allow", { from: person });
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Approved");
    const wrote = await inTopic(group, undefined, isAnswer("Wrote the notes."));
    expect(sessionOf(wrote)).toBe(sessionOf(answer));
    // In General, the request is there to quote.
    expect(wrote.replyToMessageId).toBe(asking);

    rig.tg.topics.reopen(group, release);
    const next = await ask(group, release, `${BOT} publish the notes [reopened-topic]`, "Published the notes.");
    expect(sessionOf(next)).toBe(sessionOf(answer));
  });
});

describe("a group that turned on topics", () => {
  it("became a supergroup on the way: its topics are new conversations, and General goes on as the group", async () => {
    const person = rig.user(1007);
    rig.tg.addGroup({ id: -5007, type: "group", memberIds: [person] });
    rig.script("[before-topics]", [reply.text("Set up the repo.")]);
    rig.tg.sendText(-5007, `${BOT} set up the repo [before-topics]`, { from: person });
    const before = await rig.botMessage(-5007, isAnswer("Set up the repo."));
    const supergroup = -100_5007;
    rig.tg.upgradeGroup(-5007, supergroup);
    const bugs = rig.tg.topics.create(supergroup, "Bugs");

    rig.script("[first-topic]", [reply.text("Found the bug.")]);
    const asked = rig.tg.sendText(supergroup, `${BOT} find the bug [first-topic]`, { topic: bugs });
    const found = await inTopic(supergroup, bugs, isAnswer("Found the bug."));
    expect(found.replyToMessageId).toBe(asked);
    expect(sessionOf(found)).not.toBe(sessionOf(before));
    const general = await ask(supergroup, undefined, `${BOT} and the CI [general-after]`, "Still the repo's session.");
    expect(sessionOf(general)).toBe(sessionOf(before));
  });
});

describe("a private chat with topics", () => {
  it("keeps each topic's session apart from the chat's own, and says nothing to Telegram's notices", async () => {
    const chat = rig.user(1006);
    const main = await ask(chat, undefined, "a question [dm-main]", "Answered in the chat.");
    const idea = rig.tg.topics.create(chat, "Idea");
    const inIdea = await ask(chat, idea, "another question [dm-topic]", "Answered in the topic.");
    expect(sessionOf(inIdea)).not.toBe(sessionOf(main));
    // As in the chat itself, a quiet one-person conversation: the answer quotes nothing.
    expect([main.replyToMessageId, inIdea.replyToMessageId]).toEqual([undefined, undefined]);
    // The topic's creation is Telegram's notice, not something the person sent to read.
    expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("I can't read"))).toEqual([]);

    // A schedule of a topic deleted since runs in the chat itself, saying why.
    expect((await topicCommand(chat, idea, "/every", "1h DMTICK water the plants")).text).toContain("every hour");
    rig.tg.topics.delete(chat, idea);
    rig.script("DMTICK", [reply.text("Watered.")]);
    clock.advance(3_600_000);
    await inTopic(chat, undefined, isAnswer("Watered."));
    // Said once, on the chat's own queue: it may come a moment after the answer on a busy machine.
    await inTopic(chat, undefined, (m) => m.text.startsWith("ℹ️"));
    expect(
      rig.tg
        .botMessages(chat)
        .filter((m) => m.text.startsWith("ℹ️"))
        .map((m) => m.text),
    ).toEqual([
      "ℹ️ The topic “Idea” is gone (Telegram says it was deleted), so I write what I have for it here instead.",
    ]);
  });
});
