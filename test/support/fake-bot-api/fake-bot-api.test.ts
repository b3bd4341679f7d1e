// The fake Bot API itself, driven by the real grammY client: if it drifts from Telegram's
// behaviour, every Telegram test above it lies.

import { Bot, GrammyError, HttpError, InlineKeyboard, InputFile } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeBotApi, type FakeBotApi } from "./index.js";

const ALICE = 1001;
const BOB = 1002;
const GROUP = -100_500;

let tg: FakeBotApi;
let bot: Bot;
let botErrors: unknown[];

beforeEach(async () => {
  tg = await startFakeBotApi({ maxPollWaitMs: 500 });
  tg.addUser({ id: ALICE, firstName: "Alice" });
  bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  botErrors = [];
  bot.catch((error) => void botErrors.push(error.error));
});

afterEach(async () => {
  if (bot.isRunning()) await bot.stop();
  await tg.close();
  expect(botErrors).toEqual([]);
});

async function apiError(promise: Promise<unknown>): Promise<GrammyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(GrammyError);
  return error as GrammyError;
}

describe("long polling with a grammY bot", () => {
  it("delivers a person's message and the command entity, and shows the bot's reply", async () => {
    const seen: string[] = [];
    bot.command("new", async (ctx) => {
      seen.push(`command:${ctx.match}`);
      await ctx.reply("fresh session");
    });
    bot.on("message:text", async (ctx) => {
      seen.push(`text:${ctx.message.text}`);
      await ctx.reply(`<b>echo</b> ${ctx.message.text}`, {
        parse_mode: "HTML",
        reply_parameters: { message_id: ctx.message.message_id },
      });
    });
    void bot.start();

    const asked = tg.sendText(ALICE, "hello");
    const echo = await tg.waitForBotMessage(ALICE, "echo hello");
    expect(echo.entities).toEqual([{ type: "bold", offset: 0, length: 4 }]);
    expect(echo.replyToMessageId).toBe(asked);

    tg.sendCommand(ALICE, "new", "quick one");
    await tg.waitForBotMessage(ALICE, "fresh session");
    expect(seen).toEqual(["text:hello", "command:quick one"]);
    expect(tg.calls("getMe")).toHaveLength(1);
  });

  it("holds getUpdates open until an update arrives, and forgets confirmed updates", async () => {
    const pending = bot.api.getUpdates({ timeout: 30 });
    await tg.waitFor(() => tg.calls("getUpdates").length === 0 && tg.pollsWaiting() === 1, { what: "a waiting poll" });
    tg.sendText(ALICE, "wake up");
    const updates = await pending;
    expect(updates.map((u) => u.message?.text)).toEqual(["wake up"]);

    // Unconfirmed: served again. Confirmed by a higher offset: gone.
    expect(await bot.api.getUpdates({ timeout: 0 })).toHaveLength(1);
    expect(await bot.api.getUpdates({ offset: updates[0]!.update_id + 1, timeout: 0 })).toEqual([]);
    expect(tg.pendingUpdates()).toBe(0);
  });

  it("answers an empty poll when its capped wait ends", async () => {
    expect(await bot.api.getUpdates({ timeout: 30 })).toEqual([]);
  });
});

describe("sending and editing as Telegram does", () => {
  it("keeps the current text and keyboard, and an edit without reply_markup removes the keyboard", async () => {
    const sent = await bot.api.sendMessage(ALICE, "<i>starting…</i>", {
      parse_mode: "HTML",
      reply_markup: new InlineKeyboard().text("Cancel", "v1.cancel"),
    });
    expect(tg.message(ALICE, sent.message_id)?.buttons).toEqual([
      { text: "Cancel", data: "v1.cancel", url: undefined },
    ]);

    const edited = await bot.api.editMessageText(ALICE, sent.message_id, "working · step 2", {
      reply_markup: new InlineKeyboard().text("Cancel", "v1.cancel"),
    });
    expect(edited).toMatchObject({ message_id: sent.message_id, text: "working · step 2" });
    expect(tg.message(ALICE, sent.message_id)?.buttons).toHaveLength(1);

    await bot.api.editMessageText(ALICE, sent.message_id, "done");
    const now = tg.message(ALICE, sent.message_id)!;
    expect(now.text).toBe("done");
    expect(now.keyboard).toBeUndefined();
    expect(now.revisions.map((r) => r.text)).toEqual(["starting…", "working · step 2", "done"]);
  });

  it("writes every chat out as a person reads it: whole texts, who sent them, replies, buttons, taps", async () => {
    const asked = tg.sendText(ALICE, "Create the file");
    await bot.api.sendMessage(ALICE, "<b>🔐 Run</b>: touch a.txt\n\nCreate a file", {
      parse_mode: "HTML",
      reply_parameters: { message_id: asked },
      reply_markup: new InlineKeyboard().text("✅ Allow", "v1.a").text("❌ Deny", "v1.d"),
    });
    expect(tg.transcript()).toBe(
      [
        "",
        "chat 1001:",
        "  #1 user 1001:",
        "    Create the file",
        "  #2 bot (reply to #1):",
        "    🔐 Run: touch a.txt",
        "    ",
        "    Create a file",
        "    [✅ Allow] [❌ Deny]",
        "",
      ].join("\n"),
    );

    // With edits: a message's earlier texts, one line each, above what it says now.
    await bot.api.editMessageText(ALICE, 2, "🔐 Run: touch a.txt\n\n✅ Allowed");
    expect(tg.transcript({ edits: true })).toContain(
      [
        "  #2 bot (reply to #1):",
        "    ~ was: 🔐 Run: touch a.txt ⏎  ⏎ Create a file [✅ Allow] [❌ Deny]",
        "    🔐 Run: touch a.txt",
        "    ",
        "    ✅ Allowed",
      ].join("\n"),
    );
    expect(tg.transcript()).not.toContain("~ was:");
    await bot.api.editMessageText(ALICE, 2, "🔐 Run: touch a.txt\n\nCreate a file", {
      reply_markup: new InlineKeyboard().text("✅ Allow", "v1.a").text("❌ Deny", "v1.d"),
    });

    const tap = tg.tapButton(ALICE, 2, "✅ Allow");
    await bot.api.answerCallbackQuery(tap, { text: "Allowed" });
    await bot.api.sendMessage(ALICE, "Done");
    tg.forgeCallback(ALICE, 2, "v1.old");
    expect(tg.transcript()).toContain(
      [
        "    [✅ Allow] [❌ Deny]",
        '  ↳ user 1001 taps [✅ Allow] on #2 → toast "Allowed"',
        "  #3 bot:",
        "    Done",
        '  ↳ user 1001 taps data "v1.old" on #2 (never answered)',
      ].join("\n"),
    );
  });

  it("refuses an edit that changes nothing, an edit of a deleted message, and a deletion of a missing one", async () => {
    const sent = await bot.api.sendMessage(ALICE, "same");
    expect((await apiError(bot.api.editMessageText(ALICE, sent.message_id, "same"))).description).toBe(
      "Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message",
    );
    expect((await apiError(bot.api.editMessageReplyMarkup(ALICE, sent.message_id))).description).toMatch(
      /^Bad Request: message is not modified/,
    );

    tg.userDeletesMessage(ALICE, sent.message_id);
    const gone = await apiError(bot.api.editMessageText(ALICE, sent.message_id, "changed"));
    expect([gone.error_code, gone.description]).toEqual([400, "Bad Request: message to edit not found"]);
    expect((await apiError(bot.api.deleteMessage(ALICE, sent.message_id))).description).toBe(
      "Bad Request: message to delete not found",
    );
  });

  it("refuses texts Telegram refuses: too long, empty, bad HTML, oversized callback data", async () => {
    expect((await apiError(bot.api.sendMessage(ALICE, "x".repeat(4097)))).description).toBe(
      "Bad Request: message is too long",
    );
    await bot.api.sendMessage(ALICE, "x".repeat(4096));
    // Length counts the text after entity parsing, not the HTML.
    await bot.api.sendMessage(ALICE, `<b>${"&lt;".repeat(4096)}</b>`, { parse_mode: "HTML" });
    expect((await apiError(bot.api.sendMessage(ALICE, "   "))).description).toBe("Bad Request: message text is empty");
    expect((await apiError(bot.api.sendMessage(ALICE, "<p>hi</p>", { parse_mode: "HTML" }))).description).toBe(
      'Bad Request: can\'t parse entities: Unsupported start tag "p" at byte offset 0',
    );
    expect((await apiError(bot.api.sendMessage(ALICE, "é <b>open", { parse_mode: "HTML" }))).description).toBe(
      "Bad Request: can't parse entities: Can't find end tag corresponding to start tag \"b\"",
    );
    const data = "x".repeat(65);
    expect(
      (await apiError(bot.api.sendMessage(ALICE, "buttons", { reply_markup: new InlineKeyboard().text("A", data) })))
        .description,
    ).toBe("Bad Request: BUTTON_DATA_INVALID");
    expect((await apiError(bot.api.sendMessage(424242, "nobody"))).description).toBe("Bad Request: chat not found");
  });

  it("stores an uploaded document with its caption", async () => {
    const sent = await bot.api.sendDocument(ALICE, new InputFile(Buffer.from("# answer\n"), "answer.md"), {
      caption: "<b>full answer</b>",
      parse_mode: "HTML",
    });
    expect(sent.document.file_name).toBe("answer.md");
    const stored = tg.message(ALICE, sent.message_id)!;
    expect(stored.document?.content.toString()).toBe("# answer\n");
    expect(stored.text).toBe("full answer");
  });

  it("records chat actions and commands", async () => {
    await bot.api.sendChatAction(ALICE, "typing");
    await bot.api.setMyCommands([{ command: "new", description: "Start a fresh session" }]);
    expect(tg.chatActions(ALICE).map((a) => a.action)).toEqual(["typing"]);
    expect(tg.commands()).toEqual([{ command: "new", description: "Start a fresh session" }]);
    expect((await apiError(bot.api.setMyCommands([{ command: "New!", description: "x" }]))).description).toBe(
      "Bad Request: BOT_COMMAND_INVALID",
    );
  });
});

describe("buttons", () => {
  it("taps only buttons that are on the message now, and records the answer once", async () => {
    tg.addGroup({ id: GROUP, memberIds: [ALICE, BOB] });
    const sent = await bot.api.sendMessage(GROUP, "Allow Bash?", {
      reply_markup: new InlineKeyboard().text("Allow", "v1.abc.a").text("Deny", "v1.abc.d"),
    });
    const taps: string[] = [];
    bot.on("callback_query:data", async (ctx) => {
      taps.push(`${ctx.from.id}:${ctx.callbackQuery.data}:${ctx.callbackQuery.message?.message_id}`);
      await ctx.answerCallbackQuery({ text: "Approved" });
      if (ctx.callbackQuery.data === "v1.abc.a") await ctx.editMessageText("Allowed by Bob");
    });
    void bot.start();

    const query = tg.tapButton(GROUP, sent.message_id, "Allow", { from: BOB });
    expect(await tg.waitForCallbackAnswer(query)).toMatchObject({ text: "Approved", showAlert: false });
    await tg.waitForBotMessage(GROUP, "Allowed by Bob");
    expect(taps).toEqual([`${BOB}:v1.abc.a:${sent.message_id}`]);
    expect(() => tg.tapButton(GROUP, sent.message_id, "Deny")).toThrow(/has no button "Deny"; it has: no buttons/);

    const forged = tg.forgeCallback(GROUP, sent.message_id, "v1.zzz.a");
    await tg.waitForCallbackAnswer(forged);
    const again = await apiError(bot.api.answerCallbackQuery(forged));
    expect(again.description).toBe("Bad Request: query is too old and response timeout expired or query ID is invalid");
  });
});

describe("faults", () => {
  it("fails the next matching call with 429 retry_after, a 5xx, or a dropped connection", async () => {
    tg.injectFault("sendMessage", { kind: "retry_after", seconds: 7 }, { chatId: ALICE });
    tg.injectFault("editMessageText", { kind: "error", code: 502, description: "Bad Gateway" });
    tg.injectFault("deleteMessage", { kind: "network" });

    const limited = await apiError(bot.api.sendMessage(ALICE, "final answer"));
    expect([limited.error_code, limited.description, limited.parameters.retry_after]).toEqual([
      429,
      "Too Many Requests: retry after 7",
      7,
    ]);
    const sent = await bot.api.sendMessage(ALICE, "final answer");

    expect((await apiError(bot.api.editMessageText(ALICE, sent.message_id, "x"))).error_code).toBe(502);
    await expect(bot.api.deleteMessage(ALICE, sent.message_id)).rejects.toBeInstanceOf(HttpError);
    expect(tg.pendingFaults()).toBe(0);
    expect(tg.calls("sendMessage").map((c) => [c.ok, c.errorCode, c.chatId])).toEqual([
      [false, 429, ALICE],
      [true, undefined, ALICE],
    ]);
  });

  it("answers a wrong token with 401 and an unknown method with 404", async () => {
    const stranger = new Bot("1:wrong", { client: { apiRoot: tg.apiRoot } });
    expect((await apiError(stranger.api.getMe())).error_code).toBe(401);
    expect((await apiError(bot.api.raw.sendGift({ gift_id: "x", user_id: ALICE }))).description).toBe("Not Found");
  });
});
