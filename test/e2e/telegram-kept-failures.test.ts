// What goes wrong around a kept run, from Telegram: its keeper killed (the run is interrupted
// with Continue, and Continue resumes the conversation), its CLI crashing (the run fails as it
// always did, and "Send it again" sends the request again in its session, or in a new one when
// the CLI was killed before its transcript held the request whole), the keeper's disk failing
// while Telecode is away (the CLI lives on; the lost lines are a warning, and Continue goes on in
// the same process), a keeper left by a Telecode speaking another protocol (left to finish;
// new runs get new keepers), and its CLI killed between runs while a background command ran (the
// resumed session's report of the command is one line, the next message gets its own answer).
import { mkdirSync, readFileSync, renameSync, existsSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { findKeepers, type KeeperRecord } from "../../src/keeper/index.js";
import { identifyProcess, isSameProcessRunning } from "../../src/keeper/process-identity.js";
import { readKeeperState } from "../../src/keeper/keeper-state.js";
import { INTERRUPTED_NOTE, RESUME_PROMPT } from "../../src/telegram/index.js";
import { transcriptHolding } from "../support/claude-workspace.js";
import { reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { expectSentAgain, isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  // Small log segments, so a broken log directory is noticed within a few lines.
  rig = await startRig({ tuning: { keeperLogCapBytes: 16 * 1024 } });
});
afterAll(async () => {
  await rig?.dispose();
});

/** The keeper of the chat's latest run, once it runs. */
async function keeperOf(chatId: number): Promise<KeeperRecord> {
  const keeperId = rig.app.store.runs.recent(chatId, 1)[0]?.keeperId;
  const found = (await findKeepers(join(rig.dataDir, "keepers"))).find(
    (k) => k.kind === "running" && k.record.keeperId === keeperId,
  );
  if (found?.kind !== "running") throw new Error(`no running keeper for chat ${chatId}`);
  return found.record;
}

const working = (command: string) => (m: { text: string }) => m.text.includes("▸") && m.text.includes(command);

/** A command that runs for half a minute (the CLI refuses a bare long sleep), after an approval. */
const LONG = 'node -e "setTimeout(() => {}, 30000)"';

/** Allows the long command and waits until its progress message shows it running. */
async function startLong(chatId: number): Promise<MessageView> {
  const prompt = await rig.botMessage(chatId, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
  rig.tg.tapButton(chatId, prompt.messageId, "✅ Allow");
  return rig.botMessage(chatId, working("setTimeout"));
}

describe("a kept run when things go wrong", () => {
  it("its keeper killed: the run is interrupted with Continue, and Continue resumes the conversation", async () => {
    const chat = rig.user(1001);
    rig.script("[keeper-killed]", [reply.bash(LONG, "Wait long")]);
    rig.tg.sendText(chat, "Sleep long [keeper-killed]");
    const progress = await startLong(chat);
    const record = await keeperOf(chat);
    process.kill(record.keeper.pid, "SIGKILL");

    await rig.tg.waitFor(() => rig.tg.message(chat, progress.messageId)?.text.includes("Tap Continue") === true, {
      what: "the run interrupted with Continue",
    });
    const interrupted = rig.tg.message(chat, progress.messageId)!;
    expect(interrupted.text).toContain("The process keeping Claude Code running ended unexpectedly");
    expect(interrupted.buttons.map((b) => b.text)).toEqual(["▶️ Continue"]);
    expect(await isSameProcessRunning(record.cli)).toBe(false);
    expect(rig.app.store.runs.recent(chat, 1)[0]?.state).toBe("interrupted");

    // Scripted only now: a CLI ended with its keeper may have made one more request on its way out.
    rig.script("[keeper-killed]", [reply.text("Picked up after the keeper died.")]);
    const tap = rig.tg.tapButton(chat, progress.messageId, "▶️ Continue");
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Continuing…");
    await rig.botMessage(chat, isAnswer("Picked up after the keeper died."));
    const resumed = rig.api.requests("[keeper-killed]").at(-1)!;
    expect(resumed.lastPrompt).toBe(RESUME_PROMPT);
    expect(JSON.stringify(resumed.body["messages"])).toContain("Sleep long [keeper-killed]");
  });

  it("its CLI crashing: the run fails with what happened, and a tap sends it again in its session", async () => {
    const chat = rig.user(1002);
    rig.script("[cli-crash]", [reply.bash(LONG, "Wait long"), reply.text("Slept after all.")]);
    rig.tg.sendText(chat, "Sleep long [cli-crash]");
    const progress = await startLong(chat);
    const record = await keeperOf(chat);
    // Claude Code writes its transcript in batches: killed before the first, it has no session to resume.
    await transcriptHolding(rig.ws, "Sleep long [cli-crash]");
    process.kill(record.cli.pid, "SIGKILL");

    const error = await rig.botMessage(chat, /exited unexpectedly \(signal SIGKILL\)/);
    expect(error.text).toMatch(/\(incident [0-9a-f]{6}\)$/);
    await rig.tg.waitFor(() => /Failed/.test(rig.tg.message(chat, progress.messageId)?.text ?? ""), {
      what: "the failed summary",
    });
    // The failure was recorded, so the keeper was told it may go: its files are removed.
    await rig.tg.waitFor(() => !existsSync(record.dir), { what: "the keeper's files removed" });

    // The session is kept: one tap sends the message again into it.
    expect(error.text).toMatch(/\(signal SIGKILL\)\. Tap Send it again to resume the session\. \(incident/);
    await expectSentAgain(rig, chat, error, {
      marker: "[cli-crash]",
      prompt: "Sleep long [cli-crash]",
      answerText: "Slept after all.",
    });
  });

  it("its CLI killed while writing its transcript: Send it again runs the request in a new session", async () => {
    const chat = rig.user(1005);
    rig.script("[torn]", [reply.bash(LONG, "Wait long"), reply.text("Slept in a new session.")]);
    rig.tg.sendText(chat, "Sleep long [torn]");
    await startLong(chat);
    const record = await keeperOf(chat);
    const file = await transcriptHolding(rig.ws, "Sleep long [torn]");
    process.kill(record.cli.pid, "SIGKILL");
    const error = await rig.botMessage(chat, /exited unexpectedly \(signal SIGKILL\)/);
    await rig.tg.waitFor(() => !existsSync(record.dir), { what: "the keeper's files removed" });
    // As if the kill had come while the CLI wrote its first lines: the message's line is cut.
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, text.indexOf("Sleep long [torn]")));

    const tap = rig.tg.tapButton(chat, error.messageId, "🔁 Send it again");
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Sending it again");
    const answer = await rig.botMessage(chat, isAnswer("Slept in a new session."));
    const [again, failed] = rig.app.store.runs.recent(chat, 2);
    expect(again?.sessionId).not.toBe(failed?.sessionId);
    expect(answer.text).toContain(`session ${again!.sessionId!.slice(0, 8)}`);
    const request = rig.api.requests("[torn]").at(-1)!;
    expect(request.lastPrompt).toBe("Sleep long [torn]");
    expect(JSON.stringify(request.body["messages"])).not.toContain("Wait long");
    expect(rig.tg.botMessages(chat).filter((m) => /No conversation found|no longer has session/.test(m.text))).toEqual(
      [],
    );
  });

  it("its CLI killed between runs with a background command running: the next message gets its own answer", async () => {
    const chat = rig.user(1007);
    rig.script("[bg-crash]", [
      reply.tool("Bash", { command: "sleep 8.5", description: "Watch the build", run_in_background: true }),
      reply.text("The watcher is running."),
    ]);
    rig.script("[bg-after]", [reply.text("The watcher is no longer running.")]);
    rig.tg.sendText(chat, "Start the watcher [bg-crash]");
    await rig.botMessage(chat, isAnswer("The watcher is running."));
    const record = await keeperOf(chat);
    await transcriptHolding(rig.ws, "The watcher is running.");
    process.kill(record.cli.pid, "SIGKILL");
    await rig.tg.waitFor(() => !existsSync(record.dir), { what: "the keeper's files removed" });

    // The resumed process reports the command it found unfinished in a turn of its own first:
    // said as stopped, in one line, with no empty answer under it.
    rig.tg.sendText(chat, "Is the watcher still running? [bg-after]");
    await rig.botMessage(chat, isAnswer("The watcher is no longer running."));
    await rig.botMessage(chat, (m) => m.text === "🤖 Background task stopped: Watch the build");
    const texts = rig.tg.botMessages(chat).map((m) => m.text);
    expect(texts.filter((t) => /no text in the answer|Background task finished/.test(t))).toEqual([]);
  });

  it("its keeper's disk failing: the CLI lives, the lines lost are a warning when replayed, the run goes on", async () => {
    const chat = rig.user(1003);
    rig.script("[disk-full]", [
      reply.bash("touch disk-full-outlived.txt", "Create a file"),
      reply.text("Made it though the log was lost."),
    ]);
    rig.tg.sendText(chat, "Create the file [disk-full]");
    const prompt = await rig.botMessage(chat, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    const progress = rig.tg.botMessages(chat)[0]!;
    const record = await keeperOf(chat);
    // The log directory turns into a file: every new log segment fails, as on a full disk.
    renameSync(join(record.dir, "log"), join(record.dir, "log.lost"));
    writeFileSync(join(record.dir, "log"), "");
    // A restart sends initialize again: its long answer needs a new segment, which fails.
    await rig.app.stop();
    await rig.startApp();
    await vi.waitFor(
      () => {
        const state = readKeeperState(join(record.dir, "state.json"));
        expect(state.kind === "current" ? state.state.logDropped : null).not.toBeNull();
      },
      { timeout: 30_000, interval: 50 },
    );

    // The next restart replays the run from its start: what the keeper lost is a warning.
    await rig.app.stop();
    await rig.startApp();
    await rig.tg.waitFor(
      () => rig.tg.message(chat, progress.messageId)?.text.includes("the keeper could not write its log") === true,
      { what: "the warning about the lines lost" },
    );
    expect(await isSameProcessRunning(record.cli)).toBe(true);
    expect(rig.tg.message(chat, prompt.messageId)!.buttons.map((b) => b.text)).toContain("✅ Allow");
    rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    await rig.botMessage(chat, isAnswer("Made it though the log was lost."));
    expect(existsSync(join(rig.ws.cwd, "disk-full-outlived.txt"))).toBe(true);
  });

  it("a keeper of another protocol version is left to finish, its run is interrupted with Continue, and new runs get new keepers", async () => {
    const chat = rig.user(1004);
    await rig.app.stop();
    const old = await startOldKeeper(join(rig.dataDir, "keepers", "from-an-older-telecode"));
    try {
      const runId = "5b1f3c1e-8f0e-4a8e-9d55-0a2b7c3d4e5f";
      const store = (await import("../../src/store/index.js")).openStore(rig.dataDir);
      store.runs.start({ runId, chatId: chat, project: "app" });
      store.runs.setKept(runId, { keeperId: "from-an-older-telecode", startSeq: 0, mode: "default" });
      store.close();

      await rig.startApp();
      const notice = await rig.botMessage(chat, (m) => m.buttons.some((b) => b.text === "▶️ Continue"));
      expect(notice.text).toContain(INTERRUPTED_NOTE);
      expect(rig.app.store.runs.get(runId)?.state).toBe("interrupted");
      // Told that a newer Telecode owns the state now (a keeper then lets its CLI finish), and left alone.
      await vi.waitFor(() => expect(old.hellos).toEqual([expect.objectContaining({ t: "hello", v: 1 })]), {
        timeout: 10_000,
      });
      expect(existsSync(join(old.dir, "state.json"))).toBe(true);

      rig.script("[fresh]", [reply.text("A new keeper answers.")]);
      rig.tg.sendText(chat, "Hello again [fresh]");
      await rig.botMessage(chat, isAnswer("A new keeper answers."));
      const keeperId = rig.app.store.runs.recent(chat, 1)[0]?.keeperId;
      expect(keeperId).not.toBeNull();
      expect(keeperId).not.toBe("from-an-older-telecode");
    } finally {
      await old.close();
    }
  });
});

/** A keeper as an older Telecode left it: a state file of protocol 0 naming a running process, and its socket, which refuses newer clients. */
async function startOldKeeper(dir: string): Promise<{ dir: string; hellos: unknown[]; close(): Promise<void> }> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const socketPath = join(dir, "keeper.sock");
  const hellos: unknown[] = [];
  const server: Server = createServer((socket) => {
    socket.setEncoding("utf8");
    socket.once("data", (text: string) => {
      hellos.push(JSON.parse(text.split("\n")[0] ?? "{}"));
      socket.end(`${JSON.stringify({ t: "refused", code: "protocol_mismatch", reason: "older", v: 0 })}\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  // The running process it names is this test's own: alive for as long as the test runs.
  const keeper = await identifyProcess(process.pid);
  writeFileSync(join(dir, "state.json"), JSON.stringify({ protocol: 0, keeper, socketPath }), { mode: 0o600 });
  return { dir, hellos, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
