// A person edits a message they sent, through the real bridge, engine and Claude CLI: a queued
// message runs as edited; the edited words of one that already ran are offered as a new request,
// after that run or instead of it; an edited answer or directive is said not to reach Claude; a
// command line that started nothing runs as edited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EDIT_AFTER_ANSWER,
  EDIT_AFTER_RUN,
  EDIT_APPLIED,
  EDIT_NOT_REACHING,
  EDIT_WHILE_RUNNING,
} from "../../src/telegram/bridge/messages/edited.js";
import { COLOR_QUESTION, gate, reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
/** Moves the fake Bot API's clock (the dates it gives messages). */
let botApiShiftMs = 0;
beforeAll(async () => {
  rig = await startRig({ botApiNow: () => Date.now() + botApiShiftMs });
});
afterAll(async () => {
  await rig?.dispose();
});

/** The bot's notice about an edit of message `edited`, newer than message `after`. */
const editNotice = (chat: number, edited: number, after = 0): Promise<MessageView> =>
  rig.botMessage(chat, (m) => m.replyToMessageId === edited && m.messageId > after && m.text.startsWith("✏️"));

async function tap(chat: number, message: MessageView, label: string): Promise<string | undefined> {
  return (await rig.tg.waitForCallbackAnswer(rig.tg.tapButton(chat, message.messageId, label))).text;
}

const buttonsOf = (m: MessageView): string[] => m.buttons.map((b) => b.text);

describe("an edited message", () => {
  it("still queued runs as edited; one already running can run, edited, after it in the same session", async () => {
    const chat = rig.user(1001);
    // The slow run goes on until both edits have been dealt with.
    const dealt = gate();
    rig.script("[edit-slow]", [reply.text("Slow done.", { until: dealt.until }), reply.text("Took all the time.")]);
    rig.script("[edit-q]", [reply.text("Ran the edited one.")]);
    const slow = rig.tg.sendText(chat, "Take your time [edit-slow]");
    await rig.api.waitForRequests(1, "[edit-slow]");
    const queued = rig.tg.sendText(chat, "Fix the tset [edit-q]");
    await rig.botMessage(chat, "Queued — will run after the current task");
    rig.tg.editText(chat, queued, "Fix the test, and the docs [edit-q]");
    expect((await editNotice(chat, queued)).text).toBe(EDIT_APPLIED);

    rig.tg.editText(chat, slow, "Take all the time you need [edit-slow]");
    const notice = await editNotice(chat, slow);
    expect(notice.text).toBe(EDIT_WHILE_RUNNING);
    expect(buttonsOf(notice)).toEqual(["⏹ Stop it and run the edit", "▶ Run the edit after it"]);
    expect(await tap(chat, notice, "▶ Run the edit after it")).toBe("The edit runs next");
    await rig.tg.waitFor(
      () => /runs once the current task ends \(chosen by /.test(rig.tg.message(chat, notice.messageId)!.text),
      {
        what: "the notice saying what was chosen",
      },
    );
    expect(rig.tg.message(chat, notice.messageId)!.buttons).toEqual([]);

    dealt.open();
    const first = await rig.botMessage(chat, isAnswer("Slow done."));
    const edited = await rig.botMessage(chat, isAnswer("Took all the time."));
    expect(sessionOf(edited)).toBe(sessionOf(first));
    expect(rig.api.requests("[edit-slow]").map((r) => r.lastPrompt)).toEqual([
      "Take your time [edit-slow]",
      "Take all the time you need [edit-slow]",
    ]);
    await rig.botMessage(chat, isAnswer("Ran the edited one."));
    expect(rig.api.requests("[edit-q]").map((r) => r.lastPrompt)).toEqual(["Fix the test, and the docs [edit-q]"]);
  });

  it("running can be stopped for the edit, which runs in its place", async () => {
    const chat = rig.user(1002);
    rig.script("[edit-stop]", [reply.text("too late", { delayMs: 20_000 }), reply.text("Ran the fixed one.")]);
    const sent = rig.tg.sendText(chat, "Refactor the paser [edit-stop]");
    await rig.api.waitForRequests(1, "[edit-stop]");
    rig.tg.editText(chat, sent, "Refactor the parser [edit-stop]");
    const notice = await editNotice(chat, sent);
    expect(await tap(chat, notice, "⏹ Stop it and run the edit")).toBe("Stopping it; the edit runs next");
    await rig.botMessage(chat, isAnswer("Ran the fixed one."));
    await rig.tg.waitFor(() => rig.tg.message(chat, notice.messageId)!.text.includes("chosen by"), {
      what: "the offer saying what was chosen",
    });
    expect(rig.tg.message(chat, notice.messageId)!.text).toBe(
      "✏️ Stopped the run of the message as first sent; the edited message runs next (chosen by Ann1002).",
    );
    expect(rig.app.store.runs.recent(chat).map((r) => r.state)).toEqual(["completed", "cancelled"]);
    expect(rig.api.requests("[edit-stop]").at(-1)?.lastPrompt).toBe("Refactor the parser [edit-stop]");
    expect(rig.tg.botMessages(chat).filter(isAnswer("too late"))).toEqual([]);
  });

  it("that ran already can run as edited; a later edit's offer takes the earlier one's place", async () => {
    const chat = rig.user(1003);
    rig.script("[edit-done]", [reply.text("Done once."), reply.text("Done as edited.")]);
    const sent = rig.tg.sendText(chat, "Count the files [edit-done]");
    await rig.botMessage(chat, isAnswer("Done once."));
    rig.tg.editText(chat, sent, "Count the fils [edit-done]");
    const earlier = await editNotice(chat, sent);
    expect(earlier.text).toBe(EDIT_AFTER_RUN);
    expect(buttonsOf(earlier)).toEqual(["▶ Run the edited message"]);
    rig.tg.editText(chat, sent, "Count the files and folders [edit-done]");
    const later = await editNotice(chat, sent, earlier.messageId);
    await rig.tg.waitFor(() => rig.tg.message(chat, earlier.messageId)!.buttons.length === 0, {
      what: "the earlier offer's button taken down",
    });
    // A tap that was on its way when the button came down runs nothing.
    const stale = rig.tg.forgeCallback(chat, earlier.messageId, earlier.buttons[0]!.data!);
    expect((await rig.tg.waitForCallbackAnswer(stale)).text).toBe("A later edit replaced this one");
    expect(await tap(chat, later, "▶ Run the edited message")).toBe("Running the edit");
    await rig.botMessage(chat, isAnswer("Done as edited."));
    expect(rig.api.requests("[edit-done]").map((r) => r.lastPrompt)).toEqual([
      "Count the files [edit-done]",
      "Count the files and folders [edit-done]",
    ]);
    await rig.tg.waitFor(() => rig.tg.message(chat, later.messageId)!.text.includes("chosen by"), {
      what: "the offer saying what was chosen",
    });
    expect(rig.tg.message(chat, later.messageId)).toMatchObject({
      text: "✏️ The edited message runs now (chosen by Ann1003).",
      buttons: [],
    });
  });

  it("that answered a question, or a directive's, does not reach Claude: said so", async () => {
    const chat = rig.user(1004);
    rig.script("[edit-ask]", [
      reply.tool("AskUserQuestion", COLOR_QUESTION),
      reply.text("Teal it is."),
      reply.text("Counted the lines."),
    ]);
    rig.tg.sendText(chat, "Make a button [edit-ask]");
    await rig.botMessage(chat, (m) => m.buttons.some((b) => b.text === "Type an answer"));
    const answer = rig.tg.sendText(chat, "teal");
    await rig.botMessage(chat, isAnswer("Teal it is."));
    rig.tg.editText(chat, answer, "teal, like the logo");
    expect((await editNotice(chat, answer)).text).toBe(EDIT_AFTER_ANSWER);

    const directive = rig.tg.sendText(chat, "/plan count the lines [edit-ask]");
    await rig.botMessage(chat, (m) => m.replyToMessageId === directive);
    rig.tg.editText(chat, directive, "/plan count the words [edit-ask]");
    expect((await editNotice(chat, directive)).text).toBe(EDIT_NOT_REACHING);
    await rig.botMessage(chat, isAnswer("Counted the lines."));
  });

  it("a command line that started nothing runs as edited: a typo fixed, or another command", async () => {
    const chat = rig.user(1006);
    const replies = (to: number): string[] =>
      rig.tg
        .botMessages(chat)
        .filter((m) => m.replyToMessageId === to)
        .map((m) => m.text);
    const typo = rig.tg.sendCommand(chat, "mdoel", "sonnet");
    await rig.botMessage(chat, (m) => m.replyToMessageId === typo);
    rig.tg.editText(chat, typo, "/model sonnet");
    await rig.botMessage(chat, (m) => m.replyToMessageId === typo && m.text.startsWith("Model is now sonnet"));
    expect(replies(typo)[0]).toContain("I don't know the command /mdoel. Did you mean /model?");

    // Sent an hour and a half ago, while Telecode was down (past the hour such a message is run
    // within), and edited now: handled as sent now.
    await rig.app.stop();
    botApiShiftMs = -90 * 60_000;
    const status = rig.tg.sendCommand(chat, "status");
    botApiShiftMs = 0;
    await rig.startApp();
    await rig.botMessage(chat, (m) => m.replyToMessageId === status);
    expect(replies(status)).toEqual([
      "I was offline when you sent this (1 h 30 min ago), so it did not run. Tap Run it now if you still want it.",
    ]);
    rig.tg.editText(chat, status, "/status");
    const shown = await rig.botMessage(
      chat,
      (m) => m.replyToMessageId === status && m.text.startsWith("Telecode status"),
    );
    expect(shown.text).toContain("Model: sonnet");

    rig.tg.editText(chat, status, "/usage");
    await rig.botMessage(chat, (m) => m.replyToMessageId === status && m.text.startsWith("Usage"));
    expect(replies(status)).toHaveLength(3);
  });

  it("offered before a restart, still runs after it; an offer an edit since then replaced says so", async () => {
    const chat = rig.user(1005);
    rig.script("[edit-kept]", [reply.text("Read it once."), reply.text("Read it as edited.")]);
    rig.script("[edit-twice]", [reply.text("Listed once."), reply.text("Listed as edited twice.")]);
    const kept = rig.tg.sendText(chat, "Sumarise the log [edit-kept]");
    await rig.botMessage(chat, isAnswer("Read it once."));
    rig.tg.editText(chat, kept, "Summarise the log [edit-kept]");
    const keptNotice = await editNotice(chat, kept);
    const twice = rig.tg.sendText(chat, "List the fils [edit-twice]");
    await rig.botMessage(chat, isAnswer("Listed once."));
    rig.tg.editText(chat, twice, "List the files [edit-twice]");
    const before = await editNotice(chat, twice);

    await rig.app.stop();
    await rig.startApp();
    rig.tg.editText(chat, twice, "List the files and folders [edit-twice]");
    const since = await editNotice(chat, twice, before.messageId);
    expect(await tap(chat, before, "▶ Run the edited message")).toBe("A later edit replaced this one");
    await rig.tg.waitFor(() => rig.tg.message(chat, before.messageId)!.buttons.length === 0, {
      what: "the replaced offer's button taken down",
    });

    expect(await tap(chat, keptNotice, "▶ Run the edited message")).toBe("Running the edit");
    await rig.botMessage(chat, isAnswer("Read it as edited."));
    expect(await tap(chat, since, "▶ Run the edited message")).toBe("Running the edit");
    await rig.botMessage(chat, isAnswer("Listed as edited twice."));
    expect(rig.api.requests("[edit-kept]").map((r) => r.lastPrompt)).toEqual([
      "Sumarise the log [edit-kept]",
      "Summarise the log [edit-kept]",
    ]);
    expect(rig.api.requests("[edit-twice]").map((r) => r.lastPrompt)).toEqual([
      "List the fils [edit-twice]",
      "List the files and folders [edit-twice]",
    ]);
    // The first tap won: the notice says what was chosen, and a second tap runs nothing.
    await rig.tg.waitFor(() => rig.tg.message(chat, keptNotice.messageId)!.buttons.length === 0, {
      what: "the kept offer's button taken down",
    });
    const again = rig.tg.forgeCallback(chat, keptNotice.messageId, keptNotice.buttons[0]!.data!);
    expect((await rig.tg.waitForCallbackAnswer(again)).text).toBe("Already chosen");
  });
});
