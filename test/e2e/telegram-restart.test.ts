// Restart without loss, from Telegram: messages sent while Telecode was down are handled (old
// ones answered "send it again"), a run cut off by a graceful stop (SIGTERM to `telecode`)
// resumes on Continue, and after a crash (SIGKILL) a pending approval is refused cleanly.
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../../src/store/index.js";
import { INTERRUPTED_NOTE, RESUME_PROMPT } from "../../src/telegram/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, spawnServe, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
let botApiShiftMs = 0;
beforeAll(async () => {
  rig = await startRig({ botApiNow: () => Date.now() + botApiShiftMs });
});
afterAll(async () => {
  await rig?.dispose();
});

const withButton =
  (label: string) =>
  (m: MessageView): boolean =>
    m.buttons.some((b) => b.text === label);

/** Ends the CLI processes a killed `telecode` left behind (they are ours: it started them). */
function endLeftovers(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

describe("restart without loss", () => {
  it("handles messages that arrived while it was down, and answers very old ones with 'send it again'", async () => {
    const chat = rig.user(1001);
    await rig.app.stop();
    rig.script("[down]", [reply.text("Handled after the restart.")]);
    botApiShiftMs = -2 * 60 * 60_000;
    rig.tg.sendText(chat, "Sent two hours ago [stale]");
    botApiShiftMs = 0;
    rig.tg.sendText(chat, "Sent while down [down]");
    await rig.startApp();
    await rig.botMessage(chat, isAnswer("Handled after the restart."));
    await rig.botMessage(chat, "I was offline when you sent this; send it again if you still want it.");
    expect(rig.api.requests("[stale]")).toEqual([]);
    expect(rig.app.store.offsets.get()).toBeGreaterThan(0);
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

  it("/restart restarts telecode in place; a run cut off by stopping it (SIGTERM) says so with Continue, and Continue resumes", async () => {
    const chat = rig.user(1002);
    await rig.app.stop();
    const serve = spawnServe(rig);
    await serve.started;
    rig.tg.sendCommand(chat, "restart");
    await rig.botMessage(chat, "Restarting");
    await serve.restarted;
    rig.script("[resume]", [
      reply.bash('node -e "setTimeout(() => {}, 30000)"', "Wait a long time"),
      reply.text("Resumed and finished."),
    ]);
    rig.tg.sendText(chat, "Do the long thing [resume]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    const progress = await rig.botMessage(chat, (m) => m.text.includes("▸") && m.text.includes("Working"));
    serve.child.kill("SIGTERM");
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    const interrupted = rig.tg.message(chat, progress.messageId)!;
    expect(interrupted.text).toContain(INTERRUPTED_NOTE);
    expect(interrupted.text).toMatch(/^⚠️ Interrupted/);
    expect(interrupted.buttons.map((b) => b.text)).toEqual(["▶️ Continue"]);

    await rig.startApp();
    const query = rig.tg.tapButton(chat, progress.messageId, "▶️ Continue");
    expect((await rig.tg.waitForCallbackAnswer(query)).text).toBe("Continuing…");
    await rig.botMessage(chat, isAnswer("Resumed and finished."));
    const resumed = rig.api.requests("[resume]").at(-1)!;
    expect(resumed.lastPrompt).toBe(RESUME_PROMPT);
    expect(JSON.stringify(resumed.body["messages"])).toContain("Do the long thing [resume]");
    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.buttons.length === 0, {
      what: "Continue taken down",
    });
  });

  it("after a crash (SIGKILL) a pending approval loses its buttons, and a late tap is refused cleanly", async () => {
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
    endLeftovers(await serve.claudePids());
    expect(rig.tg.message(chat, prompt.messageId)!.buttons.length).toBeGreaterThan(0);
    // The orphaned CLI may still send a request before it is ended (its stdin closed); none after.
    const requestsBefore = rig.api.requests("[crash]").length;

    await rig.startApp();
    await rig.botMessage(chat, "Telecode restarted, so this request is no longer pending");
    await rig.tg.waitFor(() => rig.tg.message(chat, prompt.messageId)?.buttons.length === 0, {
      what: "the approval's buttons taken down",
    });
    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.text.includes(INTERRUPTED_NOTE), {
      what: "the interrupted note",
    });
    expect(rig.app.store.decisions.listPending()).toEqual([]);
    expect(rig.app.store.runs.listRunning()).toEqual([]);

    const late = rig.tg.forgeCallback(chat, prompt.messageId, allowData);
    expect((await rig.tg.waitForCallbackAnswer(late)).text).toBe("No longer pending");
    expect(rig.api.requests("[crash]")).toHaveLength(requestsBefore);
    expect(existsSync(join(rig.ws.cwd, "crash.txt"))).toBe(false);
  });
});
