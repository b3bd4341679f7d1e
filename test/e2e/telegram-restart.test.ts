// Restart without loss, from Telegram: messages sent while Telecode was down are handled (old
// ones said not to have run, with Run it now; a message sent while it listens is acted on
// whatever the clocks say), a kept run goes on across /restart and SIGTERM, and after a
// crash with a reboot (its keeper gone too) the run offers Continue and a late tap is refused.
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../../src/store/index.js";
import { INTERRUPTED_NOTE, SET_ASIDE_TEXT } from "../../src/telegram/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { endKeepers, isAnswer, spawnServe, startRig, type Rig, withButton } from "../telegram/bridge/rig.js";

let rig: Rig;
let botApiShiftMs = 0;
beforeAll(async () => {
  rig = await startRig({ botApiNow: () => Date.now() + botApiShiftMs });
});
afterAll(async () => {
  await rig?.dispose();
});

describe("restart without loss", () => {
  it("handles messages that arrived while it was down; a very old one runs only when Run it now is tapped", async () => {
    const chat = rig.user(1001);
    await rig.app.stop();
    rig.script("[down]", [reply.text("Handled after the restart.")]);
    botApiShiftMs = -2 * 60 * 60_000;
    const stale = rig.tg.sendText(chat, "Sent two hours ago [stale]");
    botApiShiftMs = 0;
    rig.tg.sendText(chat, "Sent while down [down]");
    await rig.startApp();
    await rig.botMessage(chat, isAnswer("Handled after the restart."));
    const notice = await rig.botMessage(chat, (m) => m.replyToMessageId === stale);
    expect(notice.text).toBe(
      "I was offline when you sent this (2 h ago), so it did not run. Tap Run it now if you still want it.",
    );
    expect(notice.buttons.map((b) => b.text)).toEqual(["▶️ Run it now"]);
    expect(rig.api.requests("[stale]")).toEqual([]);
    expect(rig.app.store.offsets.get()).toBeGreaterThan(0);

    rig.script("[stale]", [reply.text("Ran the two-hour-old message.")]);
    const tap = rig.tg.tapButton(chat, notice.messageId, "▶️ Run it now");
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Running it now");
    await rig.botMessage(chat, isAnswer("Ran the two-hour-old message."));
    expect(rig.api.requests("[stale]")[0]?.lastPrompt).toContain("Sent two hours ago [stale]");
    // The run's progress answers the message as if it had just been sent.
    await rig.botMessage(chat, (m) => m.replyToMessageId === stale && m.text.startsWith("✅ Done"));
    expect(rig.tg.message(chat, notice.messageId)).toMatchObject({
      text: "I was offline when you sent this, so it did not run then. ▶️ Running it now.",
      buttons: [],
    });
    // A second tap (another device) runs nothing more.
    const again = rig.tg.forgeCallback(chat, notice.messageId, notice.buttons[0]?.data ?? "");
    expect((await rig.tg.waitForCallbackAnswer(again)).text).toBe("Already started");
    expect(rig.api.requests("[stale]")).toHaveLength(1);
  });

  it("runs a very old message at a tap after a restart too; a forwarded one, or a part of a split text, gets no button", async () => {
    const chat = rig.user(1007);
    await rig.app.stop();
    botApiShiftMs = -3 * 60 * 60_000;
    const stale = rig.tg.sendText(chat, "Three hours old [stale-restart]");
    const forwarded = rig.tg.sendText(chat, "a line of someone's chat", { forwardedFrom: "Bob" });
    // A pasted log the app split in two: neither part alone is the message.
    const head = rig.tg.sendText(chat, `log ${"x".repeat(3900)}`);
    const tail = rig.tg.sendText(chat, "the log's last lines");
    botApiShiftMs = 0;
    await rig.startApp();
    const notice = await rig.botMessage(chat, (m) => m.replyToMessageId === stale);
    const forwardNotice = await rig.botMessage(chat, (m) => m.replyToMessageId === forwarded);
    expect(forwardNotice.text).toBe(
      "I was offline when you sent this (3 h ago), so it did not run. Send it again if you still want it.",
    );
    expect(forwardNotice.buttons).toEqual([]);
    for (const part of [head, tail])
      expect((await rig.botMessage(chat, (m) => m.replyToMessageId === part)).buttons).toEqual([]);
    // The process that gave the notice is gone: the tap finds the message in the notice.
    await rig.app.stop();
    await rig.startApp();
    rig.script("[stale-restart]", [reply.text("Ran it after the restart.")]);
    const tap = rig.tg.tapButton(chat, notice.messageId, "▶️ Run it now");
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Running it now");
    await rig.botMessage(chat, isAnswer("Ran it after the restart."));
    expect(rig.api.requests("[stale-restart]")[0]?.lastPrompt).toContain("Three hours old [stale-restart]");
  });

  it("acts on a message sent while it listens, though this computer's clock runs two hours ahead of Telegram's", async () => {
    const chat = rig.user(1006);
    rig.script("[skewed]", [reply.text("Acted on despite the clock.")]);
    // Telegram's clock two hours behind this one (a VM's or a dual-boot's clock set wrong).
    botApiShiftMs = -2 * 60 * 60_000;
    try {
      // A poll has answered since the shift, and the next one listens.
      const polls = rig.tg.calls("getUpdates").length;
      await rig.tg.waitFor(() => rig.tg.calls("getUpdates").length >= polls + 2, { what: "a poll listening" });
      rig.tg.sendText(chat, "Run this now [skewed]");
      await rig.botMessage(chat, isAnswer("Acted on despite the clock."));
      expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("I was offline"))).toEqual([]);
    } finally {
      botApiShiftMs = 0;
    }
  });

  it("a message that two crashes caught mid-way is set aside with a note, so Telecode can start", async () => {
    const chat = rig.user(1005);
    const sentId = rig.tg.sendText(chat, "/status");
    await rig.botMessage(chat, (m) => m.replyToMessageId === sentId);
    await rig.app.stop();
    // What the store holds after a crash, a restart that tried the message again, and a second crash.
    const store = openStore(rig.dataDir);
    const from = { id: chat, is_bot: false, first_name: `Ann${chat}` };
    const message = {
      message_id: sentId,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chat, type: "private" },
      from,
    };
    store.inbox.keep([{ update_id: 900_000, message: { ...message, text: "Crashes it [poison]" } }]);
    store.inbox.unfinished();
    store.close();
    await rig.startApp();
    const note = await rig.botMessage(chat, SET_ASIDE_TEXT);
    expect(note.replyToMessageId).toBe(sentId);
    expect(rig.api.requests("[poison]")).toEqual([]);
    expect(rig.app.store.inbox.unfinished()).toEqual([]);
  });

  it("a run cut off before its progress message existed gets a notice with Continue, as a reply to its prompt", async () => {
    const chat = rig.user(1004);
    // Any message of the person's serves as the prompt the notice replies to.
    const promptId = rig.tg.sendCommand(chat, "status");
    await rig.botMessage(chat, (m) => m.replyToMessageId === promptId);
    await rig.app.stop();
    const store = openStore(rig.dataDir);
    const runId = randomUUID();
    store.runs.start({ runId, chatId: chat, project: "app", promptMessageId: promptId });
    store.close();
    await rig.startApp();
    const notice = await rig.botMessage(chat, withButton("▶️ Continue"));
    expect(notice.text).toContain(INTERRUPTED_NOTE);
    expect(notice.replyToMessageId).toBe(promptId);
    expect(rig.app.store.runs.get(runId)?.state).toBe("interrupted");
  });

  it("a start forgets the runs that ended over 30 days ago, their decisions with them", async () => {
    const chat = rig.user(1005);
    await rig.app.stop();
    const day = 24 * 60 * 60_000;
    const past = (daysAgo: number) => openStore(rig.dataDir, { now: () => Date.now() - daysAgo * day });
    for (const [runId, daysAgo] of [
      ["month-old", 31],
      ["week-old", 8],
    ] as const) {
      const store = past(daysAgo);
      store.runs.start({ runId, chatId: chat, project: "app" });
      store.decisions.add({ decisionId: `d-${runId}`, chatId: chat, runId, kind: "approval", requestId: "q" });
      store.decisions.resolve(`d-${runId}`, "approved");
      store.runs.finish(runId, { state: "completed" });
      store.close();
    }
    await rig.startApp();
    const { runs, decisions } = rig.app.store;
    expect([runs.get("month-old"), decisions.get("d-month-old")]).toEqual([null, null]);
    expect(runs.get("week-old")?.state).toBe("completed");
    expect(decisions.get("d-week-old")?.state).toBe("approved");
  });

  it("/restart and SIGTERM let go of a kept run instead of interrupting it: it goes on and answers once", async () => {
    const chat = rig.user(1002);
    await rig.app.stop();
    const serve = spawnServe(rig);
    await serve.started;
    rig.script("[across]", [
      reply.bash("sleep 3 && echo across-restarts", "Wait across two restarts"),
      reply.text("Carried on across both restarts."),
    ]);
    rig.tg.sendText(chat, "Do the long thing [across]");
    const progress = await rig.botMessage(chat, (m) => m.text.includes("▸") && m.text.includes("sleep 3"));
    rig.tg.sendCommand(chat, "restart");
    expect((await rig.botMessage(chat, "Restarting")).text).toBe(
      "🔄 Restarting. The running task goes on meanwhile; its progress carries on afterwards.",
    );
    await serve.restarted;
    serve.child.kill("SIGTERM");
    expect((await serve.exited).code).toBe(0);
    expect(rig.tg.message(chat, progress.messageId)!.text).not.toContain(INTERRUPTED_NOTE);
    expect(rig.tg.botMessages(chat).filter(isAnswer("Carried on across both restarts."))).toEqual([]);

    await rig.startApp();
    await rig.botMessage(chat, isAnswer("Carried on across both restarts."));
    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.text.startsWith("✅ Done") === true, {
      what: "the progress message edited to its summary",
    });
    expect(rig.tg.botMessages(chat).filter(isAnswer("Carried on across both restarts."))).toHaveLength(1);
    expect(rig.api.requests("[across]").at(-1)!.toolResults[0]?.text).toContain("across-restarts");
  });

  it("after a crash and a reboot (keepers gone too) a run is interrupted with Continue, its approval loses its buttons, and a late tap is refused cleanly", async () => {
    const chat = rig.user(1003);
    await rig.app.stop();
    const serve = spawnServe(rig);
    await serve.started;
    rig.script("[crash]", [reply.bash("touch crash.txt", "Create a file")]);
    rig.tg.sendText(chat, "Create it [crash]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    const allowData = prompt.buttons.find((b) => b.text === "✅ Allow")!.data!;
    const progress = rig.tg.botMessages(chat)[0]!;
    // Killed once the prompt's message id is on disk (a crash before that leaves buttons a tap still refuses).
    const observer = openStore(rig.dataDir);
    await vi.waitFor(
      () => expect(observer.decisions.listPending(chat).map((d) => d.messageId)).toEqual([prompt.messageId]),
      { timeout: 20_000, interval: 25 },
    );
    observer.close();
    serve.child.kill("SIGKILL");
    await serve.exited;
    // A reboot ends every process: the keepers and their CLIs too.
    await endKeepers(rig.dataDir, { leaveFiles: true });
    expect(rig.tg.message(chat, prompt.messageId)!.buttons.length).toBeGreaterThan(0);
    // The orphaned CLI may still send a request before it is ended (its stdin closed); none after.
    const requestsBefore = rig.api.requests("[crash]").length;

    await rig.startApp();
    await rig.botMessage(
      chat,
      "Telecode restarted, so this request is no longer pending. Tap Continue on the interrupted task to pick up where it left off.",
    );
    await rig.tg.waitFor(() => rig.tg.message(chat, prompt.messageId)?.buttons.length === 0, {
      what: "the approval's buttons taken down",
    });
    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.text.includes(INTERRUPTED_NOTE), {
      what: "the interrupted note",
    });
    expect(rig.app.store.decisions.listPending()).toEqual([]);
    expect(rig.app.store.runs.listRunning()).toEqual([]);
    expect(readdirSync(join(rig.dataDir, "keepers"))).toEqual([]);

    const late = rig.tg.forgeCallback(chat, prompt.messageId, allowData);
    expect((await rig.tg.waitForCallbackAnswer(late)).text).toBe("No longer pending");
    expect(rig.api.requests("[crash]")).toHaveLength(requestsBefore);
    expect(existsSync(join(rig.ws.cwd, "crash.txt"))).toBe(false);
  });
});
