// Issue 16, nothing lost in a crash, with real processes killed by SIGKILL: queued messages run
// in order after the restart (their Cancel still works) or, when too old, get Retry; Continue
// sends the request itself when the CLI never had it (or was stopped before writing it down),
// and resumes the right session when it did; a finished run's summary a crash kept from its
// progress message is shown after the restart; an approval whose "Allow" edit was lost shows
// no live buttons; one "back online" note.
import { readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { DATABASE_FILE, openStore, type Store } from "../../src/store/index.js";
import { INTERRUPTED_NOTE, RESUME_PROMPT } from "../../src/telegram/index.js";
import { transcriptHolding } from "../support/claude-workspace.js";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer, withButton } from "../telegram/bridge/rig.js";
import { USER_ID, useWorld, type TelecodeProcess, type World } from "./helpers.js";

const newWorld = useWorld();
const chat = USER_ID;
/** Keeps a run working until the fake API closes. */
const LONG = "[long]";
/** Waits in the queue behind it. */
const QUEUED = "⏳ Queued — will run after the current task.";

/** Polls the data directory a running `telecode` writes (its writes are committed at once). */
async function onDisk<T>(world: World, read: (store: Store) => T | undefined | false): Promise<T> {
  const store = openStore(world.dataDir);
  try {
    return await vi.waitFor(
      () => {
        const value = read(store);
        if (value === undefined || value === false) throw new Error("not on disk yet");
        return value;
      },
      { timeout: 30_000, interval: 10 },
    );
  } finally {
    store.close();
  }
}

/** Starts Telecode again and taps Continue on the interrupted run's message; returns it once `answer` came. */
async function continueAfterRestart(world: World, messageId: number, answer: string): Promise<TelecodeProcess> {
  const again = world.spawnTelecode(["--config", world.configPath]);
  await again.started;
  await world.tg.waitFor(() => world.tg.message(chat, messageId)?.text.includes(INTERRUPTED_NOTE), {
    what: "the progress message saying it was interrupted",
  });
  const query = world.tg.tapButton(chat, messageId, "▶️ Continue");
  expect((await world.tg.waitForCallbackAnswer(query)).text).toBe("Continuing…");
  await world.tg.waitForBotMessage(chat, isAnswer(answer), { timeoutMs: 60_000 });
  return again;
}

async function startedWorld(): Promise<World> {
  const world = await newWorld();
  await world.writeConfig({ extra: ["[limits]", "offline_max_age_minutes = 0", "drain_seconds = 0"] });
  world.tg.addUser({ id: chat });
  world.api.script([reply.hang()], LONG);
  return world;
}

describe("queued messages and a crash", () => {
  it("run in order after the restart, in their own messages, and a Cancel tapped before the crash still works", async () => {
    const world = await startedWorld();
    world.api.script([reply.hang()], "[q1]");
    world.api.script([reply.text("Second answer.")], "[q2]");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    world.tg.sendText(chat, `Work for a long time ${LONG}`);
    const progress = await world.tg.waitForBotMessage(chat, "Starting…");
    world.tg.sendText(chat, "Then this [q1]");
    world.tg.sendText(chat, "Then that [q2]");
    world.tg.sendText(chat, "And never this [q3]");
    await world.api.waitForRequests(1, LONG);
    // Killed once each queued message's "Queued" notice is on disk with it.
    const queued = await onDisk(world, (store) => {
      const waiting = store.queuedRuns.listWaiting();
      return waiting.length === 3 && waiting.every((r) => r.messageId !== null) && waiting;
    });
    expect(queued.map((r) => r.input.prompt)).toEqual(["Then this [q1]", "Then that [q2]", "And never this [q3]"]);
    const [q1, q2, q3] = queued.map((r) => world.tg.message(chat, r.messageId!)!);
    expect([q1, q2, q3].map((m) => m?.text)).toEqual([QUEUED, QUEUED, QUEUED]);
    await first.crash();

    const second = world.spawnTelecode(["--config", world.configPath]);
    await second.started;
    // The first queued message runs in the message that said it was queued; the others wait.
    await world.api.waitForRequests(1, "[q1]");
    await world.tg.waitFor(() => world.tg.message(chat, q1!.messageId)?.text.startsWith("⚙️ Working"), {
      what: "the first queued message working in its own message",
    });
    const interrupted = world.tg.message(chat, progress.messageId)!;
    expect(interrupted.text).toContain(INTERRUPTED_NOTE);
    const notes = world.tg.botMessages(chat).filter((m) => m.text.startsWith("🟢 Telecode is back online."));
    expect(notes.map((m) => m.text)).toEqual([
      "🟢 Telecode is back online.\nA task was interrupted: tap its Continue to pick up where it stopped.\n3 queued messages run now, in the order you sent them.",
    ]);

    // The Cancel buttons shown before the crash: the waiting one leaves the queue, the running one stops.
    const dequeue = world.tg.tapButton(chat, q3!.messageId, "⏹ Cancel");
    expect((await world.tg.waitForCallbackAnswer(dequeue)).text).toBe("Cancelling…");
    await world.tg.waitFor(() => world.tg.message(chat, q3!.messageId)?.text === "⏹ Cancelled before it started.", {
      what: "the third message cancelled before it started",
    });
    const cancel = world.tg.tapButton(chat, q1!.messageId, "⏹ Cancel");
    expect((await world.tg.waitForCallbackAnswer(cancel)).text).toBe("Cancelling…");
    await world.tg.waitForBotMessage(chat, isAnswer("Second answer."), { timeoutMs: 60_000 });
    await world.tg.waitFor(() => world.tg.message(chat, q2!.messageId)?.text.startsWith("✅ Done"), {
      what: "the second queued message showing its run done",
    });
    expect(world.api.requests("[q3]")).toEqual([]);
    const [one, two, ...more] = [...world.api.requests("[q1]"), ...world.api.requests("[q2]")];
    expect(more).toEqual([]);
    expect(one!.n).toBeLessThan(two!.n);
    second.child.kill("SIGTERM");
    expect((await second.exited).code).toBe(0);
    const store = openStore(world.dataDir);
    expect(store.queuedRuns.listWaiting()).toEqual([]);
    store.close();
  }, 240_000);

  it("a queued message older than limits.offline_max_age_minutes gets Retry instead of running, and Retry runs it", async () => {
    const world = await startedWorld();
    world.api.script([reply.text("Late answer.")], "[late]");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    world.tg.sendText(chat, `Work for a long time ${LONG}`);
    await world.tg.waitForBotMessage(chat, "Starting…");
    world.tg.sendText(chat, "Then this [late]");
    const [kept] = await onDisk(world, (store) => {
      const waiting = store.queuedRuns.listWaiting();
      return waiting[0]?.messageId != null && waiting;
    });
    await first.crash();
    // Telecode comes back two hours later: the request's time moves back as the clock moved on.
    const db = new Database(join(world.dataDir, DATABASE_FILE));
    db.prepare("UPDATE queued_runs SET queued_at = queued_at - 7200000").run();
    db.close();

    const second = world.spawnTelecode(["--config", world.configPath]);
    await second.started;
    const dropped = await world.tg.waitForBotMessage(chat, withButton("🔁 Retry"));
    expect(dropped.messageId).toBe(kept!.messageId);
    expect(dropped.text).toBe(
      "⚠️ Telecode came back 2 h after you sent this, so it did not run (it may no longer be wanted). Tap Retry to run it now.",
    );
    await world.tg.waitForBotMessage(
      chat,
      "A queued message waited too long and did not run: tap its Retry to run it.",
    );
    expect(world.api.requests("[late]")).toEqual([]);

    const retry = world.tg.tapButton(chat, dropped.messageId, "🔁 Retry");
    expect((await world.tg.waitForCallbackAnswer(retry)).text).toBe("Running it now");
    await world.tg.waitForBotMessage(chat, isAnswer("Late answer."), { timeoutMs: 60_000 });
    expect(world.api.requests("[late]").map((r) => r.lastPrompt)).toEqual(["Then this [late]"]);
    await world.tg.waitFor(() => world.tg.message(chat, dropped.messageId)?.text.startsWith("✅ Done"), {
      what: "the retried message showing the run done",
    });
    const again = world.tg.forgeCallback(chat, dropped.messageId, dropped.buttons[0]!.data!);
    expect((await world.tg.waitForCallbackAnswer(again)).text).toBe("No longer pending");
    second.child.kill("SIGTERM");
    await second.exited;
  }, 240_000);
});

describe("Continue after a crash", () => {
  it("sends the request itself when the CLI never had it, and 'Starting…' does not stay", async () => {
    const world = await startedWorld();
    world.api.script([reply.text("Built it.")], "[orig]");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    world.tg.sendText(chat, "Build the thing [orig]");
    const progress = await world.tg.waitForBotMessage(chat, "Starting…");
    // Killed as soon as the progress message is on disk with the run, before the CLI began its
    // turn (it is spawned with the message, so it may be starting, but it has not taken the prompt).
    const running = await onDisk(world, (store) => {
      const run = store.runs.listRunning()[0];
      return run?.progressMessageId === progress.messageId && run;
    });
    await first.crash();
    const store = openStore(world.dataDir);
    try {
      expect(store.runs.get(running.runId)).toMatchObject({ state: "running", promptTaken: false });
    } finally {
      store.close();
    }

    const second = world.spawnTelecode(["--config", world.configPath]);
    await second.started;
    await world.tg.waitFor(() => world.tg.message(chat, progress.messageId)?.text.includes(INTERRUPTED_NOTE), {
      what: "the Starting… message saying it was interrupted",
    });
    const button = world.tg.message(chat, progress.messageId)!.buttons.find((b) => b.text === "▶️ Continue")!;
    const query = world.tg.tapButton(chat, progress.messageId, "▶️ Continue");
    expect((await world.tg.waitForCallbackAnswer(query)).text).toBe("Continuing…");
    await world.tg.waitForBotMessage(chat, isAnswer("Built it."), { timeoutMs: 60_000 });
    const sent = world.api.requests("[orig]");
    expect(sent.map((r) => r.lastPrompt)).toEqual(["Build the thing [orig]"]);
    expect(JSON.stringify(sent[0]!.body["messages"])).not.toContain(RESUME_PROMPT);
    await world.tg.waitFor(() => !world.tg.botMessages(chat).some((m) => m.text.includes("Starting…")), {
      what: "no message left saying Starting…",
    });
    second.child.kill("SIGTERM");
    await second.exited;

    // A tap that reaches a later Telecode (the edit taking the button down was lost) continues nothing.
    const third = world.spawnTelecode(["--config", world.configPath]);
    await third.started;
    const late = world.tg.forgeCallback(chat, progress.messageId, button.data!);
    expect((await world.tg.waitForCallbackAnswer(late)).text).toBe("Already continued");
    expect(world.api.requests("[orig]")).toHaveLength(1);
    third.child.kill("SIGTERM");
    await third.exited;
  }, 240_000);

  it("resumes the session that had the request when the CLI got it, not the chat's other one", async () => {
    const world = await startedWorld();
    world.api.script([reply.text("First session answer.")], "[one]");
    world.api.script([reply.hang()], "[two]");
    world.api.script([reply.text("Carried on.")], "Telecode was restarted");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    world.tg.sendText(chat, "Start a conversation [one]");
    const answer = await world.tg.waitForBotMessage(chat, isAnswer("First session answer."), { timeoutMs: 60_000 });
    world.tg.sendCommand(chat, "new");
    await world.tg.waitForBotMessage(chat, /fresh|new/i);
    world.tg.sendText(chat, "A second conversation [two]");
    await world.api.waitForRequests(1, "[two]");
    const taken = await onDisk(world, (store) =>
      store.runs.listRunning().find((r) => r.promptTaken && r.progressMessageId !== null),
    );
    const progress = taken.progressMessageId!;
    await transcriptHolding(world.ws, "A second conversation [two]");
    await first.crash();
    // The person answers the first conversation after the crash, so it is the chat's latest.
    const second = world.spawnTelecode(["--config", world.configPath]);
    await second.started;
    world.api.script([reply.text("Back in the first one.")], "[again]");
    world.tg.sendText(chat, "More on the first [again]", { replyTo: answer.messageId });
    await world.tg.waitForBotMessage(chat, isAnswer("Back in the first one."), { timeoutMs: 60_000 });
    await world.tg.waitFor(() => world.tg.message(chat, progress)?.text.includes(INTERRUPTED_NOTE), {
      what: "the progress message saying it was interrupted",
    });

    const query = world.tg.tapButton(chat, progress, "▶️ Continue");
    expect((await world.tg.waitForCallbackAnswer(query)).text).toBe("Continuing…");
    await world.tg.waitForBotMessage(chat, isAnswer("Carried on."), { timeoutMs: 60_000 });
    const resumed = world.api.requests("Telecode was restarted").at(-1)!;
    expect(resumed.lastPrompt).toBe(RESUME_PROMPT);
    const history = JSON.stringify(resumed.body["messages"]);
    expect(history).toContain("A second conversation [two]");
    expect(history).not.toContain("Start a conversation [one]");
    second.child.kill("SIGTERM");
    await second.exited;
  }, 240_000);
  it("sends the request again in a new session when the CLI was stopped before it wrote anything down", async () => {
    const world = await startedWorld();
    world.api.script([reply.hang(), reply.text("Built it after all.")], "[gone]");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    world.tg.sendText(chat, "Build the thing [gone]");
    await world.api.waitForRequests(1, "[gone]");
    const taken = await onDisk(world, (store) =>
      store.runs.listRunning().find((r) => r.promptTaken && r.progressMessageId !== null),
    );
    await first.crash();
    // As if the CLI had been killed before its transcript reached the disk: nothing of the session is there.
    const files = (await readdir(world.ws.transcripts)).filter((f) => f.endsWith(".jsonl"));
    await Promise.all(files.map((f) => rm(join(world.ws.transcripts, f))));

    const second = await continueAfterRestart(world, taken.progressMessageId!, "Built it after all.");
    const again = world.api.requests("[gone]").at(-1)!;
    expect(again.lastPrompt).toBe("Build the thing [gone]");
    expect(JSON.stringify(again.body["messages"])).not.toContain(RESUME_PROMPT);
    expect(
      world.tg
        .botMessages(chat)
        .filter((m) => /No conversation found|no longer has session|no longer be continued/.test(m.text)),
    ).toEqual([]);
    second.child.kill("SIGTERM");
    await second.exited;
  }, 240_000);
  it("sends the request again into its session when the CLI had not written that message down", async () => {
    const world = await startedWorld();
    world.api.script([reply.text("First answer.")], "[first]");
    world.api.script([reply.hang(), reply.text("Second answer, after all.")], "[second]");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    world.tg.sendText(chat, "Start a conversation [first]");
    await world.tg.waitForBotMessage(chat, isAnswer("First answer."), { timeoutMs: 60_000 });
    world.tg.sendText(chat, "Then do this [second]");
    await world.api.waitForRequests(1, "[second]");
    const taken = await onDisk(world, (store) =>
      store.runs.listRunning().find((r) => r.promptTaken && r.promptUuid !== null && r.progressMessageId !== null),
    );
    const file = await transcriptHolding(world.ws, "Then do this [second]");
    await first.crash();
    // As if the CLI had been killed before that message reached its transcript.
    const text = await readFile(file, "utf8");
    expect(text).toContain(taken.promptUuid);
    await writeFile(
      file,
      text
        .split("\n")
        .filter((line) => !line.includes(taken.promptUuid!))
        .join("\n"),
    );

    const second = await continueAfterRestart(world, taken.progressMessageId!, "Second answer, after all.");
    const again = world.api.requests("[second]").at(-1)!;
    expect(again.lastPrompt).toBe("Then do this [second]");
    const history = JSON.stringify(again.body["messages"]);
    expect(history).toContain("Start a conversation [first]");
    expect(history).not.toContain(RESUME_PROMPT);
    second.child.kill("SIGTERM");
    await second.exited;
  }, 240_000);
});

describe("decision messages after a crash", () => {
  it("an approval whose 'Allow' edit a crash lost shows as allowed, with no live buttons", async () => {
    const world = await startedWorld();
    world.api.script([reply.bash('node -e "setTimeout(() => {}, 60000)"', "Wait a long time")], "[allow]");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    world.tg.sendText(chat, "Do the long thing [allow]");
    const prompt = await world.tg.waitForBotMessage(chat, withButton("✅ Allow"), { timeoutMs: 60_000 });
    await onDisk(world, (store) => store.decisions.listPending(chat)[0]?.messageId === prompt.messageId);
    // From now on Telegram fails every edit in the chat: the "Allowed" edit never lands.
    world.tg.injectFault(
      "editMessageText",
      { kind: "error", code: 500, description: "Internal Server Error" },
      {
        chatId: chat,
        times: 10_000,
      },
    );
    world.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    await onDisk(world, (store) => store.decisions.listPending(chat).length === 0);
    await world.tg.waitFor(
      () => world.tg.calls("editMessageText").some((c) => !c.ok && c.params["message_id"] === prompt.messageId),
      { what: "the failed Allowed edit" },
    );
    await first.crash();
    expect(world.tg.message(chat, prompt.messageId)!.buttons.length).toBeGreaterThan(0);
    world.tg.clearFaults();

    const second = world.spawnTelecode(["--config", world.configPath]);
    await second.started;
    await world.tg.waitFor(() => world.tg.message(chat, prompt.messageId)?.buttons.length === 0, {
      what: "the approval's buttons gone",
    });
    // As the lost edit would have said it: who allowed it is kept with the decision.
    expect(world.tg.message(chat, prompt.messageId)!.text).toMatch(/✅ Allowed \(User1001\)$/);
    second.child.kill("SIGTERM");
    await second.exited;
  }, 240_000);
});

describe("progress messages after a crash", () => {
  it("a run that finished just before the crash shows its summary, not 'Working' with Cancel", async () => {
    const world = await startedWorld();
    world.api.script([reply.text("Quick answer.")], "[quick]");
    const first = world.spawnTelecode(["--config", world.configPath]);
    await first.started;
    // From now on Telegram fails every edit in the chat: the summary edit never lands.
    world.tg.injectFault(
      "editMessageText",
      { kind: "error", code: 500, description: "Internal Server Error" },
      { chatId: chat, times: 10_000 },
    );
    world.tg.sendText(chat, "Answer quickly [quick]");
    await world.tg.waitForBotMessage(chat, isAnswer("Quick answer."), { timeoutMs: 60_000 });
    const run = await onDisk(world, (store) => store.runs.recent(chat, 1).find((r) => r.pendingSummary !== null));
    expect(world.tg.message(chat, run.progressMessageId!)!.buttons.map((b) => b.text)).toEqual(["⏹ Cancel"]);
    await first.crash();
    world.tg.clearFaults();

    const second = world.spawnTelecode(["--config", world.configPath]);
    await second.started;
    await world.tg.waitFor(() => world.tg.message(chat, run.progressMessageId!)?.text.startsWith("✅ Done"), {
      what: "the progress message showing the run done",
    });
    expect(world.tg.message(chat, run.progressMessageId!)!.buttons).toEqual([]);
    await onDisk(world, (store) => store.runs.get(run.runId)?.pendingSummary === null);
    // Nothing was interrupted: no "back online" note about it.
    expect(world.tg.botMessages(chat).filter((m) => m.text.startsWith("🟢"))).toEqual([]);
    second.child.kill("SIGTERM");
    await second.exited;
  }, 240_000);
});
