// What Telegram changes about a chat under Telecode's feet, through the real bridge and the real
// CLI. A group it turns into a supergroup (a new chat id; the old one refuses every message):
// a run going at the time answers in the supergroup, the group's session and settings go on
// there, also after a restart, and nothing is edited or quoted across the move. A chat whose
// person blocked the bot: its schedules are skipped while it is, and it is told when it is back.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHAT_MOVED_TEXT } from "../../src/telegram/bridge/chat-moved.js";
import { reply } from "../support/fake-anthropic/index.js";
import { eventLog, type EventLog } from "../support/event-log.js";
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";
import { isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
let clock: FakeClock;
let log: EventLog;
beforeAll(async () => {
  clock = createFakeClock(Date.parse("2026-06-01T08:00:00Z"));
  log = eventLog();
  rig = await startRig({ scheduleClock: clock, logger: log, toml: ["[schedule]", 'timezone = "UTC"'] });
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

describe("a group that became a supergroup while Claude waited for an approval", () => {
  it("asks again there, with buttons whose tap lets the run go on", async () => {
    const person = rig.user(1004);
    const group = basicGroup(-4004, person);
    const supergroup = -100_4004;
    rig.script("[moved-approval]", [reply.bash("touch moved.txt", "Create a file"), reply.text("Created it.")]);
    rig.tg.sendText(group, `${BOT} make the file [moved-approval]`, { from: person });
    const asked = await rig.botMessage(group, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    rig.tg.upgradeGroup(group, supergroup);

    const again = await rig.botMessage(supergroup, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    expect(again.text).toBe(asked.text);
    const tap = rig.tg.tapButton(supergroup, again.messageId, "✅ Allow", { from: person });
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Approved");
    await rig.botMessage(supergroup, isAnswer("Created it."));
    expect(existsSync(join(rig.ws.cwd, "moved.txt"))).toBe(true);
  });
});

describe("the bot added to a group", () => {
  it("says how to ask it there: with privacy mode on, by command or reply, unless it is an admin", async () => {
    const person = rig.user(1006);
    const [plain, admin] = [-100_4006, -100_4106];
    rig.tg.addGroup({ id: plain, memberIds: [person] });
    rig.tg.addGroup({ id: admin, memberIds: [person] });
    rig.tg.setBotRole(plain, "member", { from: person });
    rig.tg.setBotRole(admin, "admin", { from: person });
    expect((await rig.botMessage(plain, /^👋/)).text).toBe(
      "👋 I'm in. Telegram's privacy mode is on for this bot, so here I get only commands and replies to my messages, not @mentions: start a task with /new@telecode_test_bot and your words, or reply to one of my messages. To be asked with @telecode_test_bot, make me an admin here (or turn privacy mode off in @BotFather with /setprivacy, then remove me from the group and add me again).",
    );
    expect((await rig.botMessage(admin, /^👋/)).text).toBe(
      "👋 I'm in. Ask me with @telecode_test_bot and your task, or reply to one of my messages; /help@telecode_test_bot says more.",
    );
    // As the greeting says: a task given as a command runs.
    rig.script("[joined-task]", [reply.text("Looked at the build.")]);
    rig.tg.sendText(plain, "/new@telecode_test_bot look at the build [joined-task]", { from: person });
    await rig.botMessage(plain, isAnswer("Looked at the build."));

    // Made an admin, then no longer one: it says what changed.
    rig.tg.setBotRole(plain, "admin", { from: person });
    expect((await rig.botMessage(plain, /^ℹ️ As an admin/)).text).toBe(
      "ℹ️ As an admin here I get every message now: ask me with @telecode_test_bot and your task.",
    );
    rig.tg.setBotRole(plain, "member", { from: person });
    expect((await rig.botMessage(plain, /^ℹ️ I'm no admin/)).text).toMatch(
      /^ℹ️ I'm no admin here any more\. Telegram's privacy mode is on for this bot, so here I get only commands/,
    );
    expect(rig.tg.botMessages(plain).filter((m) => m.text.startsWith("👋"))).toHaveLength(1);
  });
});

describe("a group that took the bot's right to send messages", () => {
  it("has its schedules skipped, however much its people write there, tells who asks in private, and goes on once the right is back", async () => {
    const person = rig.user(1005);
    const group = -100_4005;
    rig.tg.addGroup({ id: group, title: "Ops", memberIds: [person] });
    const every = rig.tg.sendCommand(group, "every", "1h MUTEDTICK check the queue", { from: person });
    expect((await rig.botMessage(group, (m) => m.replyToMessageId === every)).text).toContain("every hour");
    rig.tg.restrictBot(group, true, { from: person });
    await rig.tg.waitFor(() => log.fields("telegram.chat_closed").find((f) => f["chatId"] === group), {
      what: "the group known closed",
    });

    rig.tg.sendText(group, `${BOT} drain the queue [muted-task]`, { from: person });
    const told = await rig.botMessage(person, /^I can't post in/);
    expect(told.text).toBe(
      "I can't post in “Ops”: the group took my right to send messages, so I did not act on what you sent there. An admin can give it back (the group's permissions, or make me an admin); then send it again.",
    );
    expect(rig.api.requests("[muted-task]")).toEqual([]);
    // Its people writing there did not open it again: the schedule is still skipped.
    clock.advance(3_600_000);
    await rig.app.scheduler.whenIdle();
    expect(log.fields("telegram.run_skipped").filter((f) => f["chatId"] === group)).toHaveLength(1);
    expect(rig.api.requests("MUTEDTICK")).toEqual([]);

    rig.tg.restrictBot(group, false, { from: person });
    await rig.botMessage(group, /^ℹ️ While I could not write here .*, a schedule here did not run/);
    rig.script("MUTEDTICK", [reply.text("The queue is empty.")]);
    clock.advance(3_600_000);
    await rig.botMessage(group, isAnswer("The queue is empty."));
    // Its right given back is no joining: no greeting.
    expect(rig.tg.botMessages(group).filter((m) => m.text.startsWith("👋"))).toEqual([]);
  });
});

describe("a chat whose person blocked the bot", () => {
  it("has its schedules skipped while blocked, and is told so when the bot is unblocked", async () => {
    const chat = rig.user(1003);
    const every = rig.tg.sendCommand(chat, "every", "1h BLOCKEDTICK check the deploy");
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === every)).text).toContain("every hour");
    rig.tg.blockBot(chat);
    await rig.tg.waitFor(() => log.fields("telegram.chat_closed").find((f) => f["chatId"] === chat), {
      what: "the chat known closed",
    });
    for (let hour = 1; hour <= 2; hour++) {
      clock.advance(3_600_000);
      await rig.app.scheduler.whenIdle();
    }
    expect(log.fields("telegram.run_skipped").filter((f) => f["chatId"] === chat)).toHaveLength(2);
    expect(rig.api.requests("BLOCKEDTICK")).toEqual([]);

    rig.tg.blockBot(chat, false);
    const notice = await rig.botMessage(chat, /^ℹ️ While I could not write here/);
    // Since when: the bridge's own (real) clock, in the machine's zone.
    expect(notice.text).toMatch(
      /^ℹ️ While I could not write here \(since \d\d:\d\d (today|on .+)\), a schedule here did not run, so nothing ran unseen\. It goes on at its next time \(\/loops lists them\)\.$/,
    );
    rig.script("BLOCKEDTICK", [reply.text("The deploy is green.")]);
    clock.advance(3_600_000);
    await rig.botMessage(chat, isAnswer("The deploy is green."));
  });
});
