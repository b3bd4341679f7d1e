// The outbox against grammY and the fake Bot API, on a fake clock: pacing, coalescing,
// ordering, Telegram's errors and injected faults, as a person in the chat would notice them.

import { Bot, InlineKeyboard } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventName, LogFields, Logger, LogLevel } from "../../src/ports/index.js";
import { ChatMoves } from "../../src/telegram/chat-moves.js";
import { Outbox, OutboxError, type Delivery, type OutboxApi, type OutboxOptions } from "../../src/telegram/index.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";
import { createFakeClock, driveUntilDone, type FakeClock } from "../support/fake-clock.js";
import { makePng } from "../media/samples.js";

const T0 = 1_800_000_000_000;
const ALICE = 1001;
const BOB = 1002;
const GROUP = -100_777;

type Logged = { name: string; level: LogLevel; fields: LogFields };

function recordingLogger(lines: Logged[]): Logger {
  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    event: (name: EventName, fields: LogFields = {}, level: LogLevel = "info") =>
      void lines.push({ name, level, fields }),
    child: () => logger,
    addSecret: () => undefined,
  };
  return logger;
}

let clock: FakeClock;
let tg: FakeBotApi;
let bot: Bot;
let logged: Logged[];
let replaced: [number, number, number][];

beforeEach(async () => {
  clock = createFakeClock(T0);
  tg = await startFakeBotApi({ now: () => clock.now() });
  tg.addUser({ id: ALICE, firstName: "Alice" });
  tg.addUser({ id: BOB, firstName: "Bob" });
  tg.addGroup({ id: GROUP, memberIds: [ALICE, BOB] });
  bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  logged = [];
  replaced = [];
});

afterEach(async () => {
  await tg.close();
});

function outbox(options: Partial<OutboxOptions> = {}): Outbox {
  return new Outbox({
    api: bot.api,
    clock,
    logger: recordingLogger(logged),
    random: () => 0.5,
    onMessageReplaced: (chatId, oldId, newId) => void replaced.push([chatId, oldId, newId]),
    ...options,
  });
}

/** When each call of `method` reached Telegram, in ms after T0, with its outcome. */
function timeline(method: string, chatId?: number): string[] {
  return tg
    .calls(method)
    .filter((c) => chatId === undefined || c.chatId === chatId)
    .map((c) => `${c.atMs - T0}${c.ok ? "" : `:${c.errorCode}`}`);
}

const html = (text: string) => ({ html: text });

describe("pacing", () => {
  it("grammY's bot.api is the API the outbox needs", () => {
    const api: OutboxApi = bot.api;
    expect(typeof api.sendMessage).toBe("function");
  });

  it("writes to a private chat about once a second and to a group every three, each chat on its own", async () => {
    const box = outbox();
    const sent = ["one", "two", "three"].map((t) => box.send(ALICE, html(t)));
    const group = ["a", "b"].map((t) => box.send(GROUP, html(t)));
    await driveUntilDone(box, clock);
    expect((await Promise.all(sent)).map((d) => d.ok)).toEqual([true, true, true]);
    await Promise.all(group);
    expect(timeline("sendMessage", ALICE)).toEqual(["0", "1000", "2000"]);
    expect(timeline("sendMessage", GROUP)).toEqual(["0", "3000"]);
    expect(tg.botMessages(ALICE).map((m) => m.text)).toEqual(["one", "two", "three"]);
  });

  it("lets a final answer go right after a progress edit took the chat's slot, and keeps the average", async () => {
    const box = outbox();
    const progress = await box.send(ALICE, html("Working · step 1"));
    if (!progress.ok) throw new Error("send failed");
    clock.advance(1000);
    await box.edit(ALICE, progress.messageId, html("Working · step 2"));
    // The run ends 100 ms later: a progress edit waits for the next slot; the answer and the
    // summary (which replaces that edit) are what the person waits for.
    clock.advance(100);
    void box.edit(ALICE, progress.messageId, html("Working · step 3"));
    const answer = box.send(ALICE, html("The answer."), { urgent: true });
    const summary = box.edit(ALICE, progress.messageId, html("Done · 3 steps"), { urgent: true });
    await driveUntilDone(box, clock);
    await Promise.all([answer, summary]);
    expect(timeline("sendMessage", ALICE)).toEqual(["0", "1100"]);
    expect(timeline("editMessageText", ALICE)).toEqual(["1000", "2020"]);
    expect(tg.message(ALICE, progress.messageId)?.text).toBe("Done · 3 steps");
    // The headroom is paid back: the next ordinary write keeps one write per second overall.
    const later = box.send(ALICE, html("An ordinary note."));
    await driveUntilDone(box, clock);
    await later;
    expect(timeline("sendMessage", ALICE)).toEqual(["0", "1100", "4000"]);
  });

  it("keeps all chats together under the global cap", async () => {
    const box = outbox({ globalPerSecond: 25 });
    const chats = Array.from({ length: 30 }, (_, i) => 5000 + i);
    for (const id of chats) tg.addUser({ id });
    const sends = chats.map((id) => box.send(id, html(`hi ${id}`)));
    await driveUntilDone(box, clock);
    await Promise.all(sends);
    const times = timeline("sendMessage");
    expect(times.filter((t) => t === "0")).toHaveLength(25);
    expect(times.filter((t) => t === "1000")).toHaveLength(5);
  });
});

describe("coalescing and order", () => {
  it("sends only the latest of many pending edits, and answers every caller", async () => {
    const box = outbox();
    const first = await box.send(ALICE, {
      html: "<b>Starting…</b>",
      keyboard: new InlineKeyboard().text("Cancel", "v1.x.c"),
    });
    if (!first.ok) throw new Error("send failed");
    const edits = Array.from({ length: 10 }, (_, i) =>
      box.edit(ALICE, first.messageId, { html: `<b>Working</b> · step ${i + 1}` }),
    );
    await driveUntilDone(box, clock);
    expect((await Promise.all(edits)).every((d) => d.ok && d.messageId === first.messageId)).toBe(true);
    expect(tg.calls("editMessageText")).toHaveLength(1);
    const message = tg.message(ALICE, first.messageId)!;
    expect(message.revisions.map((r) => r.text)).toEqual(["Starting…", "Working · step 10"]);
    expect(message.keyboard).toBeUndefined();
    expect(box.stats().coalesced).toBe(9);
  });

  it("sends a new message before pending edits, and merges a button change into a pending edit", async () => {
    const box = outbox();
    const progress = await box.send(ALICE, { html: "step 1", keyboard: new InlineKeyboard().text("Cancel", "v1.x.c") });
    if (!progress.ok) throw new Error("send failed");
    const edit = box.edit(ALICE, progress.messageId, {
      html: "step 2",
      keyboard: new InlineKeyboard().text("Cancel", "v1.x.c"),
    });
    const buttons = box.editKeyboard(ALICE, progress.messageId, undefined);
    const approval = box.send(ALICE, html("Allow <code>rm -rf build</code>?"), {
      replyTo: progress.messageId,
      mustDeliver: true,
    });
    await driveUntilDone(box, clock);
    await Promise.all([edit, buttons, approval]);
    expect(tg.writeCalls(ALICE).map((c) => `${c.method}@${c.atMs - T0}`)).toEqual([
      "sendMessage@0",
      "sendMessage@1000",
      "editMessageText@2000",
    ]);
    expect(tg.message(ALICE, progress.messageId)).toMatchObject({ text: "step 2", keyboard: undefined });
    expect(tg.lastBotMessage(ALICE)?.replyToMessageId).toBe(progress.messageId);
  });

  it("shows typing only when nothing else waits", async () => {
    const box = outbox();
    box.typing(ALICE);
    void box.send(ALICE, html("answer"));
    box.typing(ALICE);
    await driveUntilDone(box, clock);
    expect(tg.writeCalls(ALICE).map((c) => c.method)).toEqual(["sendChatAction", "sendMessage"]);
  });
});

describe("Telegram's errors and faults", () => {
  it("delays the final answer by retry_after on a 429, pausing that chat only, and still delivers it", async () => {
    const box = outbox();
    tg.injectFault("sendMessage", { kind: "retry_after", seconds: 5 }, { chatId: ALICE });
    const answer = box.send(ALICE, html("<b>Final answer</b>"), { mustDeliver: true });
    const other = box.send(BOB, html("meanwhile"));
    await driveUntilDone(box, clock);
    expect(await answer).toMatchObject({ ok: true });
    expect(await other).toMatchObject({ ok: true });
    expect(timeline("sendMessage", ALICE)).toEqual(["0:429", "5000"]);
    expect(timeline("sendMessage", BOB)).toEqual(["0"]);
    expect(logged.find((l) => l.name === "outbox.rate_limited")?.fields).toMatchObject({ chatId: ALICE, waitMs: 5000 });
  });

  it("a 429 on a tap's toast holds back later toasts only: chats and other calls go on", async () => {
    const box = outbox();
    const prompt = await box.send(ALICE, { html: "Allow?", keyboard: new InlineKeyboard().text("Allow", "v1.a.a") });
    if (!prompt.ok) throw new Error("send failed");
    const first = tg.tapButton(ALICE, prompt.messageId, "Allow");
    const second = tg.tapButton(ALICE, prompt.messageId, "Allow");
    tg.injectFault("answerCallbackQuery", { kind: "retry_after", seconds: 3 });
    const toast = box.answerCallback(first, { text: "Approved" });
    await box.idle();
    const later = box.send(BOB, html("not held back"));
    const commands = box.setCommands([{ command: "new", description: "Start a fresh session" }]);
    const secondToast = box.answerCallback(second, { text: "Already answered" });
    await driveUntilDone(box, clock);
    expect(await toast).toBe(true);
    expect(await secondToast).toBe(true);
    expect(await later).toMatchObject({ ok: true });
    expect(await commands).toMatchObject({ ok: true });
    expect(tg.callbackAnswer(first)?.text).toBe("Approved");
    expect(timeline("sendMessage", BOB)).toEqual(["0"]);
    expect(timeline("setMyCommands")).toEqual(["0"]);
    expect(timeline("answerCallbackQuery")).toEqual(["0:429", "3000", "3000"]);
  });

  it("retries 5xx and dropped connections with backoff; an ordinary item gives up, a must-deliver one does not", async () => {
    const box = outbox({ maxAttempts: 4 });
    tg.injectFault(
      "sendMessage",
      { kind: "error", code: 502, description: "Bad Gateway" },
      { chatId: ALICE, times: 2 },
    );
    tg.injectFault("sendMessage", { kind: "network" }, { chatId: ALICE });
    const retried = box.send(ALICE, html("eventually"));
    await driveUntilDone(box, clock);
    expect(await retried).toMatchObject({ ok: true });
    // Backoff 500, 1000, 2000 ms (never sooner than the chat's pacing allows).
    expect(timeline("sendMessage", ALICE)).toEqual(["0:502", "1000:502", "2000:0", "4000"]);

    tg.injectFault(
      "sendMessage",
      { kind: "error", code: 500, description: "Internal Server Error" },
      { chatId: BOB, times: 6 },
    );
    const ordinary = box.send(BOB, html("may be dropped"));
    await driveUntilDone(box, clock);
    expect(await ordinary).toMatchObject({ ok: false, code: "gave_up", errorCode: 500 });
    const must = box.send(BOB, html("must arrive"), { mustDeliver: true });
    await driveUntilDone(box, clock);
    expect(await must).toMatchObject({ ok: true });
    expect(tg.botMessages(BOB).map((m) => m.text)).toEqual(["must arrive"]);
    expect(timeline("sendMessage", BOB).map((t) => t.split(":")[1] ?? "ok")).toEqual([
      "500",
      "500",
      "500",
      "500",
      "500",
      "500",
      "ok",
    ]);
    expect(logged.filter((l) => l.name === "outbox.retry" && l.level === "warn").length).toBe(2);
  });

  it("treats 'message is not modified' as success", async () => {
    const box = outbox();
    const sent = await box.send(ALICE, html("same"));
    if (!sent.ok) throw new Error("send failed");
    const edit = box.edit(ALICE, sent.messageId, html("same"));
    await driveUntilDone(box, clock);
    expect(await edit).toEqual({ ok: true, messageId: sent.messageId });
    expect(timeline("editMessageText")).toEqual(["1000:400"]);
  });

  it("re-sends a progress message the person deleted, as a reply to the same message, and sends later edits to the new one", async () => {
    const box = outbox();
    const asked = tg.sendText(ALICE, "run it");
    const sent = await box.send(ALICE, html("step 1"), { replyTo: asked });
    if (!sent.ok) throw new Error("send failed");
    tg.userDeletesMessage(ALICE, sent.messageId);
    const edit = box.edit(ALICE, sent.messageId, {
      html: "step 2",
      keyboard: new InlineKeyboard().text("Cancel", "v1.x.c"),
    });
    await driveUntilDone(box, clock);
    const result = await edit;
    if (!result.ok) throw new Error("edit failed");
    expect(result.replaced).toBe(true);
    expect(replaced).toEqual([[ALICE, sent.messageId, result.messageId]]);
    expect(tg.message(ALICE, result.messageId)).toMatchObject({
      text: "step 2",
      buttons: [{ text: "Cancel" }],
      replyToMessageId: asked,
    });

    const next = box.edit(ALICE, sent.messageId, html("step 3"));
    await driveUntilDone(box, clock);
    expect(await next).toEqual({ ok: true, messageId: result.messageId });
    expect(tg.botMessages(ALICE).map((m) => m.text)).toEqual(["step 3"]);

    // A message that answered nothing comes back answering nothing.
    const sending = box.send(ALICE, html("status"));
    await driveUntilDone(box, clock);
    const plain = await sending;
    if (!plain.ok) throw new Error("send failed");
    tg.userDeletesMessage(ALICE, plain.messageId);
    const again = box.edit(ALICE, plain.messageId, html("status, later"));
    await driveUntilDone(box, clock);
    const back = await again;
    if (!back.ok) throw new Error("edit failed");
    expect(tg.message(ALICE, back.messageId)?.replyToMessageId).toBeUndefined();
  });

  it("re-sends a deleted message as a reply to the same message after the chat was quiet a while", async () => {
    const box = outbox();
    const asked = tg.sendText(ALICE, "run it");
    const sent = await box.send(ALICE, html("step 1"), { replyTo: asked });
    if (!sent.ok) throw new Error("send failed");
    // A long step: nothing goes to Alice's chat for a minute while another chat is written to.
    clock.advance(60_000);
    const elsewhere = box.send(BOB, html("meanwhile"));
    await driveUntilDone(box, clock);
    expect((await elsewhere).ok).toBe(true);

    tg.userDeletesMessage(ALICE, sent.messageId);
    const edit = box.edit(ALICE, sent.messageId, html("step 2"));
    await driveUntilDone(box, clock);
    const result = await edit;
    if (!result.ok) throw new Error("edit failed");
    expect(result.replaced).toBe(true);
    expect(tg.message(ALICE, result.messageId)).toMatchObject({ text: "step 2", replyToMessageId: asked });
  });

  it("falls back to plain text when Telegram cannot parse the HTML", async () => {
    const box = outbox();
    tg.injectFault("sendMessage", {
      kind: "error",
      code: 400,
      description: 'Bad Request: can\'t parse entities: Unsupported start tag "x" at byte offset 3',
    });
    const sent = box.send(ALICE, html("<b>a &lt; b</b>"), { mustDeliver: true });
    await driveUntilDone(box, clock);
    expect(await sent).toMatchObject({ ok: true });
    expect(tg.lastBotMessage(ALICE)).toMatchObject({ text: "a < b", parseMode: undefined });
    expect(logged.some((l) => l.name === "outbox.parse_error" && l.level === "error")).toBe(true);
  });

  it("sends a message whose link Telegram refuses without that link's button, keeping the rest", async () => {
    const box = outbox();
    const keyboard = (url: string) => ({
      inline_keyboard: [[{ text: "🔗 Open the link", url }], [{ text: "Continue", callback_data: "c" }]],
    });
    const sent = box.send(ALICE, {
      html: "Open http://build:8080/login",
      keyboard: keyboard("http://build:8080/login"),
    });
    await driveUntilDone(box, clock);
    const result = await sent;
    if (!result.ok) throw new Error("send failed");
    expect(tg.message(ALICE, result.messageId)?.buttons.map((b) => b.text)).toEqual(["Continue"]);
    expect(timeline("sendMessage")).toEqual(["0:400", "1000"]);
    expect(logged.find((l) => l.name === "outbox.link_refused")?.fields.description).toBe(
      "Bad Request: inline keyboard button URL 'http://build:8080/login' is invalid: Wrong HTTP URL",
    );

    // An edit's new keyboard, and a keyboard alone, go the same way; a link Telegram takes stays.
    const edited = box.edit(ALICE, result.messageId, {
      html: "Open it now",
      keyboard: keyboard("ftp://files.example/x"),
    });
    await driveUntilDone(box, clock);
    expect(await edited).toMatchObject({ ok: true });
    expect(tg.message(ALICE, result.messageId)).toMatchObject({ text: "Open it now", buttons: [{ text: "Continue" }] });
    const taken = box.editKeyboard(ALICE, result.messageId, keyboard("https://auth.example/login"));
    await driveUntilDone(box, clock);
    expect(await taken).toMatchObject({ ok: true });
    expect(tg.message(ALICE, result.messageId)?.buttons).toEqual([
      { text: "🔗 Open the link", data: undefined, url: "https://auth.example/login" },
      { text: "Continue", data: "c", url: undefined },
    ]);
  });

  it("gives up on a message Telegram says has a bad link when it has no link button to drop", async () => {
    const box = outbox();
    tg.injectFault("sendMessage", { kind: "error", code: 400, description: "Bad Request: BUTTON_URL_INVALID" });
    const sent = box.send(ALICE, html("plain words"));
    await driveUntilDone(box, clock);
    expect(await sent).toMatchObject({ ok: false, code: "rejected", description: "Bad Request: BUTTON_URL_INVALID" });
    expect(timeline("sendMessage")).toEqual(["0:400"]);
  });

  it("reports a refusal (the person blocked the bot) without retrying, and logs an undelivered must-deliver item", async () => {
    const closed: [number, string][] = [];
    const box = outbox({ onChatClosed: (chatId, why) => void closed.push([chatId, why]) });
    tg.blockBot(ALICE);
    const sent = box.send(ALICE, html("answer"), { mustDeliver: true });
    await driveUntilDone(box, clock);
    expect(await sent).toEqual({
      ok: false,
      code: "rejected",
      description: "Forbidden: bot was blocked by the user",
      errorCode: 403,
    });
    expect(tg.calls("sendMessage")).toHaveLength(1);
    expect(logged.map((l) => `${l.name}:${l.level}`)).toContain("outbox.undelivered:error");
    // The chat is closed to the bot, which is told so (schedules there are then skipped).
    expect(closed).toEqual([[ALICE, "Forbidden: bot was blocked by the user"]]);
  });

  it("takes a group that took the bot's right to send messages as closed to it, as Telegram's 400 says", async () => {
    const closed: [number, string][] = [];
    const muted: boolean[] = [];
    const box = outbox({
      onChatClosed: (chatId, why, isMuted) => {
        closed.push([chatId, why]);
        muted.push(isMuted);
      },
    });
    tg.restrictBot(GROUP);
    const sent = box.send(GROUP, html("answer"), { mustDeliver: true });
    await driveUntilDone(box, clock);
    expect(await sent).toMatchObject({ ok: false, code: "rejected", errorCode: 400 });
    expect(tg.calls("sendMessage")).toHaveLength(1);
    expect(closed).toEqual([[GROUP, "Bad Request: not enough rights to send text messages to the chat"]]);
    expect(muted).toEqual([true]);
  });

  it("follows a group that became a supergroup: the refused item goes to its new id", async () => {
    tg.addGroup({ id: -77, type: "group", memberIds: [ALICE] });
    const moves: unknown[] = [];
    const box = outbox({ chatMoves: new ChatMoves([], (move) => void moves.push(move)) });
    tg.upgradeGroup(-77, -100_77, { notices: false });
    const sent = box.send(-77, html("answer"), { mustDeliver: true });
    await driveUntilDone(box, clock);
    expect(await sent).toMatchObject({ ok: true });
    expect(moves).toEqual([{ from: -77, to: -100_77 }]);
    expect(tg.lastBotMessage(-100_77)).toMatchObject({ text: "answer" });
  });
});

describe("what never reaches Telegram", () => {
  it("refuses HTML Telegram would refuse, at once", () => {
    const box = outbox();
    expect(() => box.send(ALICE, html("<p>hi</p>"))).toThrow(OutboxError);
    expect(() => box.send(ALICE, html("x".repeat(4097)))).toThrow(/over 4096/);
    expect(() =>
      box.sendDocument(ALICE, { filename: "a.md", data: new Uint8Array(1), captionHtml: "x".repeat(1025) }),
    ).toThrow(/over 1024/);
    expect(tg.calls()).toHaveLength(0);
  });

  it("resolves what is still queued as stopped when it stops", async () => {
    const box = outbox();
    const first = box.send(ALICE, html("one"));
    const second = box.send(ALICE, html("two"), { mustDeliver: true });
    await box.idle();
    box.stop();
    expect(await first).toMatchObject({ ok: true });
    expect(await second).toEqual({ ok: false, code: "stopped", description: "the outbox stopped" } satisfies Delivery);
    expect(await box.send(ALICE, html("three"))).toMatchObject({ ok: false, code: "stopped" });
  });
});

describe("documents, commands, deletes", () => {
  it("sends a long answer as a .md document, sets commands, deletes a message", async () => {
    const box = outbox();
    const doc = box.sendDocument(ALICE, {
      filename: "answer.md",
      data: Buffer.from("# Long answer\n"),
      captionHtml: "<b>Full answer</b>",
    });
    const commands = box.setCommands([{ command: "new", description: "Start a fresh session" }]);
    const sent = box.send(ALICE, html("temporary"));
    await driveUntilDone(box, clock);
    const [d, , s] = await Promise.all([doc, commands, sent]);
    if (!d.ok || !s.ok) throw new Error("send failed");
    expect(tg.message(ALICE, d.messageId)).toMatchObject({ text: "Full answer", document: { fileName: "answer.md" } });
    expect(tg.commands()).toEqual([{ command: "new", description: "Start a fresh session" }]);
    const deleted = box.delete(ALICE, s.messageId);
    const missing = box.delete(ALICE, 999);
    await driveUntilDone(box, clock);
    expect([await deleted, await missing]).toEqual([
      { ok: true, messageId: s.messageId },
      { ok: true, messageId: 999 },
    ]);
    expect(tg.message(ALICE, s.messageId)).toBeUndefined();
  });

  it("lets what comes after a file go while it is still on its way up a slow line; another file waits", async () => {
    const box = outbox();
    const before = box.send(ALICE, html("The build log:"));
    tg.injectFault("sendDocument", { kind: "slow", bytesPerSecond: 64 * 1024 });
    const log = box.sendDocument(ALICE, { filename: "build.log", data: new Uint8Array(256 * 1024) });
    const after = box.send(ALICE, html("Which test should I fix first?"));
    const trace = box.sendDocument(ALICE, { filename: "trace.txt", data: Buffer.from("at main\n") });
    // The slow upload takes four seconds of real time; the chat's pacing, the manual clock's.
    let answered = false;
    void after.then(() => (answered = true));
    for (let step = 0; step < 100 && !answered; step++) {
      clock.advance(1000);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(answered).toBe(true);
    expect(tg.botMessages(ALICE).map((m) => m.text)).toEqual(["The build log:", "Which test should I fix first?"]);
    await driveUntilDone(box, clock);
    const [b, l, a, t] = await Promise.all([before, log, after, trace]);
    if (!b.ok || !l.ok || !a.ok || !t.ok) throw new Error("send failed");
    expect(tg.botMessages(ALICE).map((m) => m.document?.fileName ?? m.text)).toEqual([
      "The build log:",
      "Which test should I fix first?",
      "build.log",
      "trace.txt",
    ]);
  });

  it("sends an image as a photo in the chat, in order with the messages around it", async () => {
    const box = outbox();
    const before = box.send(ALICE, html("Here is the chart:"));
    const photo = box.sendPhoto(ALICE, {
      filename: "chart.png",
      data: makePng(64, 32),
      captionHtml: "<i>chart.png</i>",
    });
    const refused = box.sendPhoto(ALICE, { filename: "notes.txt", data: Buffer.from("not an image") });
    await driveUntilDone(box, clock);
    const [b, p, r] = await Promise.all([before, photo, refused]);
    if (!b.ok || !p.ok) throw new Error("send failed");
    expect(p.messageId).toBeGreaterThan(b.messageId);
    const shown = tg.message(ALICE, p.messageId);
    expect(shown?.text).toBe("chart.png");
    expect(shown?.photo?.at(-1)).toMatchObject({ width: 64, height: 32 });
    expect(r).toMatchObject({ ok: false, code: "rejected" });
  });
});
