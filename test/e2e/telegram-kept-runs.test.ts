// Runs survive a crash of Telecode: `telecode` (a real process) is SIGKILLed in the middle of a
// run and started again on the same data; the run's CLI ran on under its keeper and is taken in
// again: an approval keeps its message and buttons (a tap made while Telecode was down counts),
// a long command's result arrives, a run that ended meanwhile is answered once, and the progress
// message is edited, never sent again.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openStore } from "../../src/store/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import {
  isAnswer,
  keeperLogged,
  spawnServe,
  startRig,
  type Rig,
  type ServeProcess,
  withButton,
} from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
  await rig.app.stop();
});
afterAll(async () => {
  await rig?.dispose();
});

/** Waits until the store says what a restart needs: the run's keeper, and (when asked) its open decision's message and token. */
async function recorded(chatId: number, options: { decision: boolean }): Promise<void> {
  const store = openStore(rig.dataDir);
  try {
    await vi.waitFor(
      () => {
        const run = store.runs.recent(chatId, 1)[0];
        expect(run?.keeperId).not.toBeNull();
        if (options.decision)
          expect(store.decisions.listPending(chatId).map((d) => d.callbackToken !== null)).toEqual([true]);
      },
      { timeout: 20_000, interval: 25 },
    );
  } finally {
    store.close();
  }
}

/** Kills `telecode` outright (SIGKILL): no stop, no detach; its keepers run on. */
async function crash(serve: ServeProcess): Promise<void> {
  serve.child.kill("SIGKILL");
  await serve.exited;
}

async function serveAgain(): Promise<ServeProcess> {
  const serve = spawnServe(rig);
  await serve.started;
  return serve;
}

describe("a kept run across a crash of Telecode", () => {
  it("an approval keeps its buttons; Allow runs the tool; the answer arrives once; the progress message is edited, not re-sent", async () => {
    const chat = rig.user(1001);
    const serve = await serveAgain();
    rig.script("[kept-allow]", [
      reply.bash("touch kept-allow.txt", "Create a file"),
      reply.text("Made it after the crash."),
    ]);
    rig.tg.sendText(chat, "Create the file [kept-allow]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    const progress = rig.tg.botMessages(chat)[0]!;
    await recorded(chat, { decision: true });
    await crash(serve);

    await rig.startApp();
    expect(rig.tg.message(chat, prompt.messageId)!.buttons.map((b) => b.text)).toContain("✅ Allow");
    // /status names the run taken in as kept.
    expect(await rig.command(chat, "status")).toMatch(
      /• app: working for [\d.]+ m?s \(pid \d+\) · goes on if Telecode restarts$/m,
    );
    const tap = rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Approved");
    const answer = await rig.botMessage(chat, isAnswer("Made it after the crash."));
    expect(existsSync(join(rig.ws.cwd, "kept-allow.txt"))).toBe(true);
    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.text.startsWith("✅ Done") === true, {
      what: "the progress message edited to its summary",
    });
    // One progress message (edited), one approval, one answer: nothing sent twice (besides /status's reply).
    expect(
      rig.tg
        .botMessages(chat)
        .filter((m) => !m.text.startsWith("Telecode status"))
        .map((m) => m.messageId),
    ).toEqual([progress.messageId, prompt.messageId, answer.messageId]);
    expect(rig.api.requests("[kept-allow]")).toHaveLength(2);
    await rig.app.stop();
  });

  it("a tap made while Telecode was down is applied when it is back", async () => {
    const chat = rig.user(1002);
    const serve = await serveAgain();
    rig.script("[kept-tap-down]", [
      reply.bash("touch tapped-while-down.txt", "Create a file"),
      reply.text("Made it with the early tap."),
    ]);
    rig.tg.sendText(chat, "Create the file [kept-tap-down]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    const progress = rig.tg.botMessages(chat)[0]!;
    await recorded(chat, { decision: true });
    await crash(serve);
    const tap = rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");

    await rig.startApp();
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Approved");
    const answer = await rig.botMessage(chat, isAnswer("Made it with the early tap."));
    expect(existsSync(join(rig.ws.cwd, "tapped-while-down.txt"))).toBe(true);
    expect(rig.tg.botMessages(chat).map((m) => m.messageId)).toEqual([
      progress.messageId,
      prompt.messageId,
      answer.messageId,
    ]);
    await rig.app.stop();
  });

  it("a long command running across the crash finishes and its result is shown", async () => {
    const chat = rig.user(1003);
    const serve = await serveAgain();
    rig.script("[kept-long]", [
      // sleep and echo need no approval: the command starts at once.
      reply.bash("sleep 4 && echo long-command-finished", "Wait, then say so"),
      reply.text("The long command finished."),
    ]);
    rig.tg.sendText(chat, "Run the long command [kept-long]");
    const progress = await rig.botMessage(chat, (m) => m.text.includes("▸") && m.text.includes("sleep 4"));
    await recorded(chat, { decision: false });
    await crash(serve);

    await rig.startApp();
    const answer = await rig.botMessage(chat, isAnswer("The long command finished."));
    const [result] = rig.api.requests("[kept-long]").at(-1)!.toolResults;
    expect(result).toMatchObject({ isError: false, text: expect.stringContaining("long-command-finished") });
    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.text.startsWith("✅ Done") === true, {
      what: "the progress message edited to its summary",
    });
    expect(rig.tg.botMessages(chat).map((m) => m.messageId)).toEqual([progress.messageId, answer.messageId]);
    await rig.app.stop();
  });

  it("/cancel stops a kept run taken in after the crash for good", async () => {
    const chat = rig.user(1005);
    const serve = await serveAgain();
    rig.script("[kept-cancel]", [
      reply.bash('node -e "setTimeout(() => {}, 30000)" && touch kept-late.txt', "Wait a long time"),
      reply.text("never"),
    ]);
    rig.tg.sendText(chat, "Run the slow thing [kept-cancel]");
    const prompt = await rig.botMessage(chat, withButton("✅ Allow"));
    rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    const progress = await rig.botMessage(chat, (m) => m.text.includes("▸") && m.text.includes("setTimeout"));
    await recorded(chat, { decision: false });
    await crash(serve);

    await rig.startApp();
    rig.tg.sendCommand(chat, "cancel");
    await rig.botMessage(chat, "Cancelling");
    await rig.tg.waitFor(() => /Cancelled/.test(rig.tg.message(chat, progress.messageId)?.text ?? ""), {
      what: "the cancelled summary",
    });
    expect(rig.app.store.runs.recent(chat, 1)[0]?.state).toBe("cancelled");
    expect(existsSync(join(rig.ws.cwd, "kept-late.txt"))).toBe(false);
    expect(rig.api.requests("[kept-cancel]")).toHaveLength(1);
    await rig.app.stop();
  });

  it("a run that finished while Telecode was down is answered once when it is back", async () => {
    const chat = rig.user(1004);
    const serve = await serveAgain();
    rig.script("[kept-done-down]", [
      reply.bash("sleep 2 && echo done", "Wait a little"),
      reply.text("Finished while you were away."),
    ]);
    rig.tg.sendText(chat, "Wait a little [kept-done-down]");
    const progress = await rig.botMessage(chat, (m) => m.text.includes("▸") && m.text.includes("sleep 2"));
    await recorded(chat, { decision: false });
    await crash(serve);
    await keeperLogged(rig.dataDir, "Finished while you were away.");
    expect(rig.tg.botMessages(chat).filter(isAnswer("Finished while you were away."))).toEqual([]);

    await rig.startApp();
    const answer = await rig.botMessage(chat, isAnswer("Finished while you were away."));
    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.text.startsWith("✅ Done") === true, {
      what: "the progress message edited to its summary",
    });
    expect(rig.tg.botMessages(chat).map((m) => m.messageId)).toEqual([progress.messageId, answer.messageId]);
    expect(rig.app.store.runs.recent(chat, 1)[0]).toMatchObject({ state: "completed" });
    await rig.app.stop();
  });
});
