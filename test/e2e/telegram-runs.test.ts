// Runs through the real bridge, end to end: grammY against the local Bot API fake, the real
// engine and Claude CLI against the fake Messages API. One app per file; one chat per test.
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseTelegramHtml, validateTelegramHtml } from "../../src/render/index.js";
import { gate, reply } from "../support/fake-anthropic/index.js";
import { NOT_MODIFIED, type MessageView } from "../support/fake-bot-api/index.js";
import { expectSentAgain, isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

const progressOf = (chat: number): MessageView | undefined => rig.tg.botMessages(chat)[0];

describe("a message in Telegram", () => {
  it("starts a run: a progress message at once, edited as it works (typing while quiet), then the answer as a new message", async () => {
    const chat = rig.user(1001);
    rig.script("[basic]", [reply.text("Hello from **Claude**.", { delayMs: 1500 })]);
    rig.tg.sendText(chat, "Say hello [basic]");
    const answer = await rig.botMessage(chat, isAnswer("Hello from Claude."));
    const progress = progressOf(chat)!;
    expect(progress.messageId).toBeLessThan(answer.messageId);
    expect(progress.revisions[0]?.text).toMatch(/Starting/);
    expect(progress.revisions.some((r) => /Working/.test(r.text))).toBe(true);
    await rig.tg.waitFor(() => /Done/.test(progressOf(chat)!.text), { what: "the progress summary" });
    expect(progressOf(chat)!.buttons).toEqual([]);
    expect(answer.html).toContain("<b>Claude</b>");
    expect(answer.edited).toBe(false);
    expect(answer.text).toMatch(/session [0-9a-f]{8} — reply to continue/);
    expect(rig.tg.chatActions(chat).map((a) => a.action)).toContain("typing");
  });

  it("a reply to the answer continues that session", async () => {
    const chat = rig.user(1002);
    rig.script("[cont-a]", [reply.text("First answer.")]);
    rig.tg.sendText(chat, "Start [cont-a]");
    const first = await rig.botMessage(chat, isAnswer("First answer."));
    await rig.tg.waitFor(() => rig.tg.botMessages(chat).every((m) => m.buttons.length === 0), {
      what: "the first run settled",
    });
    rig.tg.sendCommand(chat, "new");
    await rig.botMessage(chat, "fresh session");
    rig.script("[cont-b]", [reply.text("Second answer, same session.")]);
    rig.tg.sendText(chat, "More please [cont-b]", { replyTo: first.messageId });
    const second = await rig.botMessage(chat, isAnswer("Second answer"));
    expect(sessionOf(second)).toBe(sessionOf(first));
    const history = JSON.stringify(rig.api.requests("[cont-b]")[0]?.body["messages"]);
    expect(history).toContain("Start [cont-a]");
  });

  it("/clear, as in Claude Code, starts the next message in a fresh session", async () => {
    const chat = rig.user(1017);
    rig.script("[clear-a]", [reply.text("Remembered: blue.")]);
    rig.tg.sendText(chat, "My colour is blue [clear-a]");
    const first = await rig.botMessage(chat, isAnswer("Remembered: blue."));
    expect(await rig.command(chat, "clear")).toBe("🆕 Your next message starts a fresh session in app.");
    rig.script("[clear-b]", [reply.text("I don't know your colour.")]);
    rig.tg.sendText(chat, "What is my colour? [clear-b]");
    const second = await rig.botMessage(chat, isAnswer("I don't know your colour."));
    expect(sessionOf(second)).not.toBe(sessionOf(first));
    expect(JSON.stringify(rig.api.requests("[clear-b]")[0]?.body["messages"])).not.toContain("blue");
  });

  it("a message sent during a run is queued with a Cancel button, then runs", async () => {
    const chat = rig.user(1003);
    // The first run goes on until /status and /usage have looked at it.
    const looked = gate();
    rig.script("[q1]", [reply.text("First done.", { until: looked.until })]);
    rig.script("[q2]", [reply.text("Second done.")]);
    const first = rig.tg.sendText(chat, "First [q1]");
    await rig.botMessage(chat, /Starting|Working/);
    const second = rig.tg.sendText(chat, "Second [q2]");
    const queued = await rig.botMessage(chat, "Queued — will run after the current task");
    expect(queued.buttons.map((b) => b.text)).toEqual(["⏹ Cancel"]);
    // The first message's session is named (or said to be starting), not "none yet".
    const status = await rig.command(chat, "status");
    expect(status).toMatch(/^Session: ([0-9a-f]{8}|starting with the running task)$/m);
    // /usage says the same: a session is on its way, not "none yet".
    const usage = await rig.command(chat, "usage");
    expect(usage).toMatch(/^This session: (\$\d+\.\d+|starting with the running task)$/m);
    // The keeper may or may not have taken the process over by the time /status asks.
    expect(status).toMatch(
      /^• app: working for [\d.]+ m?s, 1 queued( \(pid \d+\)( · goes on if Telecode restarts)?)?$/m,
    );
    looked.open();
    // Each answer quotes what it answers: the first comes below the second's message.
    expect((await rig.botMessage(chat, isAnswer("First done."))).replyToMessageId).toBe(first);
    expect((await rig.botMessage(chat, isAnswer("Second done."))).replyToMessageId).toBe(second);
    await rig.tg.waitFor(() => /Done/.test(rig.tg.message(chat, queued.messageId)!.text), {
      what: "the queued message became the second run's progress",
    });
  });

  it("a long paste the app sent as two messages runs as the one message it was", async () => {
    const chat = rig.user(1012);
    rig.script("[split-paste]", [reply.text("Read all of it.")]);
    const head = ["Why does this fail? [split-paste]", ...Array<string>(260).fill("ERROR at step 1")].join("\n");
    rig.tg.sendText(chat, head);
    rig.tg.sendText(chat, "ERROR at step 2: the last line of the log");
    await rig.botMessage(chat, isAnswer("Read all of it."));
    expect(rig.api.requests("[split-paste]").map((r) => r.lastPrompt)).toEqual([
      `${head}\nERROR at step 2: the last line of the log`,
    ]);
    expect(rig.tg.botMessages(chat).filter((m) => m.text.includes("Queued"))).toEqual([]);
  });

  it("the Cancel buttons: on a queued message it never runs, on a progress message the run stops", async () => {
    const chat = rig.user(1010);
    rig.script("[cb1]", [reply.text("too late", { delayMs: 20_000 })]);
    rig.script("[cb2]", [reply.text("never")]);
    rig.tg.sendText(chat, "Slow one [cb1]");
    const progress = await rig.botMessage(chat, (m) => /Starting|Working/.test(m.text) && m.buttons.length > 0);
    rig.tg.sendText(chat, "Queued one [cb2]");
    const queued = await rig.botMessage(chat, "Queued — will run after the current task");
    const first = rig.tg.tapButton(chat, queued.messageId, "⏹ Cancel");
    expect((await rig.tg.waitForCallbackAnswer(first)).text).toBe("Cancelling…");
    await rig.tg.waitFor(() => rig.tg.message(chat, queued.messageId)?.text === "⏹ Cancelled before it started.", {
      what: "the queued message cancelled",
    });
    await rig.api.waitForRequests(1, "[cb1]");
    const second = rig.tg.tapButton(chat, progress.messageId, "⏹ Cancel");
    expect((await rig.tg.waitForCallbackAnswer(second)).text).toBe("Cancelling…");
    await rig.tg.waitFor(() => /Cancelled/.test(rig.tg.message(chat, progress.messageId)!.text), {
      what: "the run cancelled",
    });
    expect(rig.api.requests("[cb2]")).toEqual([]);
    expect(rig.app.store.runs.recent(chat).map((r) => r.state)).toEqual(["cancelled"]);
  });

  it("/cancel stops a long Bash command", async () => {
    const chat = rig.user(1004);
    rig.script("[cancel]", [
      reply.bash('node -e "setTimeout(() => {}, 30000)" && touch late.txt', "Wait a long time"),
      reply.text("never"),
    ]);
    rig.tg.sendText(chat, "Run the slow thing [cancel]");
    const prompt = await rig.botMessage(chat, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    await rig.botMessage(chat, (m) => m.text.includes("▸") && m.text.includes("Working"));
    rig.tg.sendCommand(chat, "cancel");
    await rig.botMessage(chat, "Cancelling");
    await rig.tg.waitFor(() => /Cancelled/.test(progressOf(chat)!.text), { what: "the cancelled summary" });
    expect(progressOf(chat)!.buttons).toEqual([]);
    expect(rig.app.store.runs.recent(chat)[0]?.state).toBe("cancelled");
    expect(existsSync(join(rig.ws.cwd, "late.txt"))).toBe(false);
    expect(rig.api.requests("[cancel]")).toHaveLength(1);
  });
});

describe("the progress of a later run in the same process", () => {
  it("shows paths relative to the project, though the CLI names its directory only once per process", async () => {
    const chat = rig.user(1011);
    await writeFile(join(rig.ws.cwd, "notes.md"), "remember the milk\n");
    rig.script("[paths-1]", [reply.text("First.")]);
    rig.tg.sendText(chat, "Start [paths-1]");
    const first = await rig.botMessage(chat, isAnswer("First."));
    rig.script("[paths-2]", [
      reply.tool("Read", { file_path: join(rig.ws.cwd, "notes.md") }),
      reply.text("Read it.", { delayMs: 600 }),
    ]);
    rig.tg.sendText(chat, "Read the notes [paths-2]");
    await rig.botMessage(chat, isAnswer("Read it."));
    const progress = rig.tg.botMessages(chat).find((m) => m.messageId > first.messageId)!;
    const texts = progress.revisions.map((r) => r.text);
    expect(texts.some((t) => t.includes("📖 Read notes.md"))).toBe(true);
    expect(texts.filter((t) => t.includes(rig.ws.cwd))).toEqual([]);
  });
});

describe("Telegram's limits and accidents", () => {
  it("an injected 429 on the final message delays it, but it arrives", async () => {
    const chat = rig.user(1005);
    rig.script("[429]", [reply.text("Worth the wait.", { delayMs: 1200 })]);
    rig.tg.sendText(chat, "Go [429]");
    await rig.botMessage(chat, /Starting|Working/);
    rig.tg.injectFault("sendMessage", { kind: "retry_after", seconds: 1 }, { chatId: chat });
    await rig.botMessage(chat, isAnswer("Worth the wait."));
    const refused = rig.tg.calls("sendMessage").filter((c) => c.chatId === chat && c.errorCode === 429);
    expect(refused).toHaveLength(1);
  });

  it("'message is not modified' and a deleted progress message do not break the run", async () => {
    const chat = rig.user(1006);
    rig.script("[deleted]", [
      reply.bash('node -e "setTimeout(() => console.log(1), 1500)"', "Wait"),
      reply.text("Finished anyway."),
    ]);
    const asked = rig.tg.sendText(chat, "Run it [deleted]");
    const prompt = await rig.botMessage(chat, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    // The prompt shows its answer first, so the injected "not modified" lands on a progress edit.
    await rig.botMessage(chat, (m) => m.messageId === prompt.messageId && m.text.includes("✅ Allowed"));
    const progress = await rig.botMessage(chat, (m) => m.text.includes("▸") && m.text.includes("Working"));
    rig.tg.injectFault(
      "editMessageText",
      { kind: "error", code: 400, description: `Bad Request: ${NOT_MODIFIED}` },
      { chatId: chat },
    );
    rig.tg.userDeletesMessage(chat, progress.messageId);
    await rig.botMessage(chat, isAnswer("Finished anyway."));
    const resent = await rig.tg.waitFor(
      () => rig.tg.botMessages(chat).find((m) => /Done/.test(m.text) && m.messageId > progress.messageId),
      { what: "a re-sent progress message" },
    );
    expect(resent.buttons).toEqual([]);
    // It answers the request, as the deleted one did, so the person sees what it belongs to.
    expect(resent.replyToMessageId).toBe(asked);
    expect(
      rig.tg.calls("editMessageText").some((c) => c.chatId === chat && c.description?.includes("not modified")),
    ).toBe(true);
  });

  it("a 6,000-character answer with code blocks arrives split, each part valid HTML", async () => {
    const chat = rig.user(1007);
    const block = (n: number): string =>
      `Step ${n}: run this.\n\n\`\`\`ts\n${Array.from({ length: 12 }, (_, i) => `const value${n}_${i} = compute(${i}) < limit && flag;`).join("\n")}\n\`\`\`\n`;
    const markdown = Array.from({ length: 12 }, (_, i) => block(i)).join("\n");
    expect(markdown.length).toBeGreaterThan(6000);
    rig.script("[long]", [reply.text(markdown)]);
    rig.tg.sendText(chat, "Write a lot [long]");
    const last = await rig.botMessage(chat, isAnswer("Step 11"));
    const parts = rig.tg
      .botMessages(chat)
      .filter((m) => m.messageId > progressOf(chat)!.messageId && m.messageId <= last.messageId);
    expect(parts.length).toBeGreaterThanOrEqual(2);
    for (const part of parts) {
      expect(part.text.length).toBeLessThanOrEqual(4096);
      expect(validateTelegramHtml(part.html ?? "")).toBeUndefined();
      expect(parseTelegramHtml(part.html ?? "").ok).toBe(true);
    }
    const text = parts.map((p) => p.text).join("\n");
    for (let n = 0; n < 12; n++) expect(text).toContain(`const value${n}_11 = compute(11) < limit && flag;`);
  });

  it("an answer over 12,000 characters also arrives as a Markdown document, quoting the request in a group", async () => {
    const person = rig.user(1008);
    const group = -100_208;
    rig.tg.addGroup({ id: group, memberIds: [person] });
    const markdown = Array.from(
      { length: 130 },
      (_, i) => `Paragraph ${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(2)}`,
    ).join("\n\n");
    expect(markdown.length).toBeGreaterThan(12_000);
    rig.script("[doc]", [reply.text(markdown)]);
    const asked = rig.tg.sendText(group, "@telecode_test_bot write a book [doc]", { from: person });
    const document = await rig.tg.waitFor(() => rig.tg.botMessages(group).find((m) => m.document !== undefined), {
      timeoutMs: 30_000,
      what: "the answer as a document",
    });
    expect(document.document?.fileName).toBe("answer.md");
    expect(document.document?.content.toString("utf8")).toBe(markdown);
    // Several people's tasks may answer in a group: the file says whose it is, as the first part does.
    expect(document.replyToMessageId).toBe(asked);
    expect((await rig.botMessage(group, (m) => m.text.startsWith("(1/4)\nParagraph 0:"))).replyToMessageId).toBe(asked);
    await rig.botMessage(group, isAnswer("Paragraph 129"));
  });
});

describe("a run that fails", () => {
  it("says what happened and what to do, with an incident id, and the progress message says Failed", async () => {
    const chat = rig.user(1009);
    rig.script("[fail]", [reply.error(500), reply.error(500), reply.text("Worked the second time.")]);
    rig.tg.sendText(chat, "Break it [fail]");
    const error = await rig.botMessage(chat, /^❌ /);
    expect(error.text).toMatch(/\(incident [0-9a-f]{6}\)$/);
    expect(error.text).not.toMatch(/at .*\.js:\d+/);
    await rig.tg.waitFor(() => /Failed/.test(progressOf(chat)!.text), { what: "the failed summary" });

    // The API failed on its side ("Send the message again in a minute"): one tap sends it again.
    await expectSentAgain(rig, chat, error, {
      marker: "[fail]",
      prompt: "Break it [fail]",
      answerText: "Worked the second time.",
    });
  });

  it("says that the API could not be reached when every try lost the connection, and offers a second try", async () => {
    const chat = rig.user(1016);
    const broken = reply.cut(0, reply.text("Never arrives."));
    rig.script("[offline]", [broken, broken, reply.text("Reached it this time.")]);
    rig.tg.sendText(chat, "Look it up [offline]");
    const error = await rig.botMessage(chat, /^❌ /);
    // Claude Code's own advice follows (it names ANTHROPIC_BASE_URL, as the tests set it).
    expect(error.text).toMatch(
      /^❌ Claude Code could not reach the API: Connection dropped \(ECONNRESET\)\. Claude Code already retried\. Check the gateway set in ANTHROPIC_BASE_URL, then try again\. \(incident [0-9a-f]{6}\)$/,
    );
    await expectSentAgain(rig, chat, error, {
      marker: "[offline]",
      prompt: "Look it up [offline]",
      answerText: "Reached it this time.",
    });
  });

  it("offers no second try when the request itself is refused: it would fail the same way again", async () => {
    const chat = rig.user(1013);
    rig.script("[refused]", [
      reply.error(400, {
        errorType: "invalid_request_error",
        message: "prompt is too long: 1050000 tokens > 1000000 maximum",
      }),
    ]);
    rig.tg.sendText(chat, "Do it [refused]");
    const error = await rig.botMessage(chat, /^❌ /);
    // Claude Code's advice, whole.
    expect(error.text).toMatch(
      /^❌ API error 400: Prompt is too long .* start with less context\.? \(incident [0-9a-f]{6}\)$/s,
    );
    expect(error.buttons).toEqual([]);
    // The one task of a private chat: no quote, as its answer would have none.
    expect(error.replyToMessageId).toBeUndefined();
  });

  it("in a group, quotes the request that failed, as an answer there quotes its request", async () => {
    const person = rig.user(1014);
    const group = -100_214;
    rig.tg.addGroup({ id: group, memberIds: [person] });
    rig.script("[refused-in-group]", [
      reply.error(400, {
        errorType: "invalid_request_error",
        message: "prompt is too long: 1050000 tokens > 1000000 maximum",
      }),
    ]);
    const asked = rig.tg.sendText(group, "@telecode_test_bot do it [refused-in-group]", { from: person });
    const error = await rig.botMessage(group, /^❌ API error 400/);
    expect(error.replyToMessageId).toBe(asked);
  });
});
