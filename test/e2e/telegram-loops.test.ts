// Claude's loops end to end (issue 9): the real CLI calls CronCreate, ScheduleWakeup, CronList and
// CronDelete; Telecode's hooks take them over, the scheduler (on a manual clock) fires each
// iteration into the chat as a scheduled run, across a restart, and the person's controls work.
import Database from "better-sqlite3";
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { localDay } from "../../src/domain/index.js";
import type { Schedule } from "../../src/schedule/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { fiveHourHeaders, GATEWAY_TOKEN } from "../support/fake-anthropic/usage-limits.js";
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

const START = Date.parse("2026-06-01T08:00:00Z");

let rig: Rig;
let clock: FakeClock;
beforeAll(async () => {
  clock = createFakeClock(START);
  rig = await startRig({ scheduleClock: clock, toml: ["[schedule]", 'timezone = "UTC"'] });
});
afterAll(async () => {
  await rig?.dispose();
});

/** The loops Telecode keeps for a chat. */
const loopsOf = (chat: number): Schedule[] => rig.app.store.schedules.list({ chatId: chat });

/** The tool result the model read for a tool call, from what the CLI sent the fake API. */
function toolResultText(toolName: string): string[] {
  return rig.api
    .requests()
    .flatMap((r) => r.toolResults)
    .filter((t) => t.text.includes(`PreToolUse:${toolName} hook error`))
    .map((t) => t.text);
}

/**
 * Has the model schedule `prompt` on `cron` with CronCreate in `chat` (the message starts with
 * `tag`), waits for its answer, and returns the loop Telecode keeps for it.
 */
async function makeLoop(
  r: Rig,
  chat: number,
  tag: string,
  cron: string,
  prompt: string,
): Promise<Schedule | undefined> {
  r.script(tag, [
    reply.tool("ToolSearch", { query: "select:CronCreate" }),
    reply.tool("CronCreate", { cron, prompt }),
    reply.text(`${tag}: scheduled.`),
  ]);
  r.tg.sendText(chat, `${tag} schedule a task on ${cron}`);
  await r.botMessage(chat, isAnswer(`${tag}: scheduled.`));
  return r.app.store.schedules.list({ chatId: chat }).find((s) => s.prompt === prompt);
}

/** Moves the scheduler's clock on by `ms` (its timers fire on the way). */
function advance(ms: number): void {
  clock.advance(ms);
}

describe("loops (real CLI, fake Bot API, manual schedule clock)", () => {
  it("takes a CronCreate over, fires it as a scheduled run, and keeps it across a restart", async () => {
    const chat = rig.user(1001);
    rig.script("SETUP-LOOP", [
      reply.tool("ToolSearch", { query: "select:CronCreate,CronList" }),
      reply.tool("CronCreate", { cron: "* * * * *", prompt: "LOOPTICK check the build", recurring: true }),
      reply.tool("CronList", {}),
      reply.text("Loop set."),
    ]);
    rig.tg.sendText(chat, "SETUP-LOOP every minute, check the build");
    await rig.botMessage(chat, isAnswer("Loop set."));

    const [loop] = loopsOf(chat);
    expect(loop).toMatchObject({ kind: "loop", state: "active", prompt: "LOOPTICK check the build", iterations: 0 });
    const created = toolResultText("CronCreate");
    expect(created[0]).toContain(`Scheduled by Telecode (this is not an error): loop ${loop?.id}`);
    expect(created[0]).toContain(`CronDelete with id "${loop?.id}"`);
    // The CLI holds no job: its own list is never consulted; Telecode's answers CronList.
    expect(toolResultText("CronList")[0]).toContain(`${loop?.id} (loop): every minute`);

    rig.script("LOOPTICK check the build", [
      reply.dynamic(() => {
        const outbox = join(rig.ws.cwd, ".telecode/outbox");
        mkdirSync(outbox, { recursive: true });
        writeFileSync(join(outbox, "build-1.log"), "green\n");
        return reply.text("LOOPTICK-ANSWER 1: the build is green");
      }),
    ]);
    advance(60_000);
    const answer = await rig.botMessage(chat, isAnswer("LOOPTICK-ANSWER 1"));
    // The file it left in the outbox quotes the same message as its answer.
    const log = await rig.botMessage(chat, (m) => m.document?.fileName === "build-1.log");
    expect(log.replyToMessageId).toBe(answer.replyToMessageId);
    // The answer quotes the run's message, which says which loop it is and keeps its buttons.
    const summary = await rig.tg.waitFor(
      () => {
        const m = rig.tg.message(chat, answer.replyToMessageId ?? -1);
        return m?.buttons.every((b) => b.text !== "⏹ Cancel") === true ? m : undefined;
      },
      { what: "the fired run's summary" },
    );
    expect(summary.text).toContain(`⏰ loop ${loop?.id} · run 1 of 50 · every minute (stop it with /loops): LOOPTICK`);
    expect(summary.buttons.map((b) => b.text)).toEqual(["⏸ Pause", "✖️ Stop"]);
    // The model was told which loop and which iteration sent the message.
    const fired = rig.api.requests("LOOPTICK check the build")[0]?.lastPrompt ?? "";
    expect(fired).toContain(`[Telecode loop ${loop?.id}, iteration 1 of at most 50`);

    // Telecode stops; the next slot passes while it is down; it fires once on start, not twice.
    await rig.app.stop();
    advance(60_000);
    rig.script("LOOPTICK check the build", [reply.text("LOOPTICK-ANSWER 2"), reply.text("LOOPTICK-ANSWER 3")]);
    await rig.startApp();
    await rig.botMessage(chat, isAnswer("LOOPTICK-ANSWER 2"));
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.iterations).toBe(2);
    advance(60_000);
    await rig.botMessage(chat, isAnswer("LOOPTICK-ANSWER 3"));
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.iterations).toBe(3);
    expect(rig.tg.botMessages(chat).filter(isAnswer("LOOPTICK-ANSWER"))).toHaveLength(3);

    // Claude cancels it by its id: Claude Code itself answers it has no such job (it holds none of
    // Telecode's), and Telecode, which sees the call, cancels the loop. Nothing fires any more.
    rig.script("STOP-LOOP", [reply.tool("CronDelete", { id: loop?.id ?? "" }), reply.text("Loop stopped.")]);
    rig.tg.sendText(chat, "STOP-LOOP stop checking the build");
    await rig.botMessage(chat, isAnswer("Loop stopped."));
    expect(rig.app.store.schedules.get(loop?.id ?? "")).toMatchObject({ state: "cancelled", stateReason: "claude" });
    await rig.botMessage(chat, `loop ${loop?.id} stopped: Claude cancelled it.`);
    // Its progress message, once the run is over, lists no failed call: Telecode carried it out.
    await vi.waitFor(
      () => {
        const summary = rig.tg.botMessages(chat).find((m) => /^✅ Done · .* · 1 step · /.test(m.text));
        expect(summary?.text.split("\n")).toEqual([expect.stringMatching(/^✅ Done/)]);
      },
      { timeout: 15_000, interval: 25 },
    );
    advance(120_000);
    await rig.app.scheduler.whenIdle();
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.iterations).toBe(3);
  }, 120_000);

  it("fires a ScheduleWakeup as a Telecode loop; its unattended run is refused what would wait for a person", async () => {
    const chat = rig.user(1002);
    rig.script("SETUP-WAKE", [
      reply.tool("ToolSearch", { query: "select:ScheduleWakeup" }),
      reply.tool("ScheduleWakeup", {
        delaySeconds: 120,
        reason: "waiting for the build",
        prompt: "WAKETICK check the build",
      }),
      reply.text("Will check back."),
    ]);
    rig.tg.sendText(chat, "SETUP-WAKE look again in two minutes");
    await rig.botMessage(chat, isAnswer("Will check back."));
    const [wake] = loopsOf(chat);
    expect(wake).toMatchObject({ kind: "wakeup", state: "active", note: "waiting for the build" });
    expect(wake?.nextFireAt).toBe(Math.ceil((clock.now() + 120_000) / 60_000) * 60_000);
    expect(toolResultText("ScheduleWakeup")[0]).toContain("Scheduled by Telecode (this is not an error)");

    // The woken run asks for a command that needs approval: nobody is there, so it is refused at once.
    rig.script("WAKETICK check the build", [
      reply.bash("touch wake-marker"),
      reply.text("WAKE-ANSWER: could not run it"),
    ]);
    advance(120_000);
    await rig.botMessage(chat, isAnswer("WAKE-ANSWER"));
    const bash = rig.api.requests("WAKETICK check the build").flatMap((r) => r.toolResults);
    expect(bash[0]?.text).toContain("Nobody is available to approve this Bash call");
    expect(rig.api.requests("WAKETICK check the build")[0]?.lastPrompt).toContain("Nobody is watching this run");
    expect(rig.app.store.schedules.get(wake?.id ?? "")).toMatchObject({ iterations: 1, state: "done" });
    // A one-shot that ran has nothing left to pause or stop: its run's summary has no buttons.
    const woken = await rig.tg.waitFor(
      () =>
        rig.tg
          .botMessages(chat)
          .find((m) => m.text.startsWith(`⏰ wake-up loop ${wake?.id}`) && m.text.includes("✅ Done")),
      { what: "the wake-up run's summary" },
    );
    expect(woken.buttons).toEqual([]);
  }, 120_000);

  it("a loop paused while its run works shows Resume on that run's summary", async () => {
    const chat = rig.user(1016);
    const loop = await makeLoop(rig, chat, "SETUP-PAUSED", "* * * * *", "PAUSETICK check the build");
    rig.script("PAUSETICK check the build", [reply.hang()]);
    advance(60_000);
    const running = await rig.botMessage(
      chat,
      (m) => m.text.startsWith(`⏰ loop ${loop?.id}`) && m.text.includes("⚙️ Working"),
    );
    expect(running.buttons.map((b) => b.text)).toEqual(["⏹ Cancel", "⏸ Pause", "✖️ Stop"]);
    const pause = rig.tg.tapButton(chat, running.messageId, "⏸ Pause");
    expect((await rig.tg.waitForCallbackAnswer(pause)).text).toBe("Paused");
    // The run goes on, so its message keeps Cancel beside the schedule's Resume.
    const paused = await rig.tg.waitFor(
      () => {
        const m = rig.tg.message(chat, running.messageId);
        return m?.buttons.some((b) => b.text === "▶️ Resume") === true ? m : undefined;
      },
      { what: "the working run's buttons after Pause" },
    );
    expect(paused.buttons.map((b) => b.text)).toEqual(["⏹ Cancel", "▶️ Resume", "✖️ Stop"]);
    const cancel = rig.tg.tapButton(chat, running.messageId, "⏹ Cancel");
    await rig.tg.waitForCallbackAnswer(cancel);
    // The summary's buttons are the schedule's as it is then, not as it was when the run began.
    const summary = await rig.tg.waitFor(
      () => {
        const m = rig.tg.message(chat, running.messageId);
        return m?.text.includes("⏹ Cancelled") === true ? m : undefined;
      },
      { what: "the paused loop's run summary" },
    );
    expect(summary.buttons.map((b) => b.text)).toEqual(["▶️ Resume", "✖️ Stop"]);
    rig.app.scheduler.cancel(loop?.id ?? "", "person");
  }, 120_000);

  it("lists the chat's loops with Pause, Resume and Stop buttons that work", async () => {
    const chat = rig.user(1003);
    const loop = await makeLoop(rig, chat, "SETUP-LIST", "*/5 * * * *", "LISTTICK check the build");
    const id = loop?.id ?? "";

    const ask = rig.tg.sendCommand(chat, "loops");
    const list = await rig.botMessage(chat, (m) => m.replyToMessageId === ask);
    expect(list.text).toContain("Claude may schedule work in this chat");
    expect(list.text).toContain(`⏰ 1. loop ${id} · every 5 minutes · next at`);
    expect(list.text).toContain("0 of 50 runs");
    expect(list.text).toContain("LISTTICK check the build");
    expect(list.buttons.map((b) => b.text)).toEqual(["⏸ Pause", "✖️ Stop"]);

    const pause = rig.tg.tapButton(chat, list.messageId, "⏸ Pause");
    expect((await rig.tg.waitForCallbackAnswer(pause)).text).toBe("Paused");
    await rig.tg.waitFor(() => rig.tg.message(chat, list.messageId)?.text.includes(`⏸ 1. loop ${id}`), {
      what: "the list showing the loop paused",
    });
    advance(10 * 60_000);
    await rig.app.scheduler.whenIdle();
    expect(rig.app.store.schedules.get(id)).toMatchObject({ state: "paused", iterations: 0 });

    const resume = rig.tg.tapButton(chat, list.messageId, "▶️ Resume");
    expect((await rig.tg.waitForCallbackAnswer(resume)).text).toBe("Resumed");
    await rig.tg.waitFor(() => rig.tg.message(chat, list.messageId)?.buttons.some((b) => b.text === "⏸ Pause"), {
      what: "the list showing Pause again",
    });
    const stop = rig.tg.tapButton(chat, list.messageId, "✖️ Stop");
    expect((await rig.tg.waitForCallbackAnswer(stop)).text).toBe("Stopped");
    await rig.tg.waitFor(() => rig.tg.message(chat, list.messageId)?.text.includes("No loops or schedules here"), {
      what: "the emptied list",
    });
    expect(rig.app.store.schedules.get(id)).toMatchObject({ state: "cancelled", stateReason: "person" });
  }, 120_000);

  it("tells the model why nothing was scheduled after /loops off, and schedules again after /loops on", async () => {
    const chat = rig.user(1004);
    const off = rig.tg.sendCommand(chat, "loops", "off");
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === off)).text).toContain(
      "Claude may no longer schedule work in this chat",
    );
    await makeLoop(rig, chat, "SETUP-OFF", "*/5 * * * *", "OFF-TICK");
    const denial =
      rig.api
        .requests("SETUP-OFF")
        .flatMap((r) => r.toolResults)
        .at(-1)?.text ?? "";
    expect(denial).toContain("Scheduling is turned off in this chat");
    expect(denial).toContain("/loops on");
    expect(loopsOf(chat)).toEqual([]);
    // The person reads why in their own terms, not the words written for Claude.
    const summary = await rig.botMessage(chat, (m) => m.text.startsWith("✅ Done") && m.text.includes("CronCreate"));
    expect(summary.text).toContain(
      "✗ ⏰ CronCreate OFF-TICK · */5 * * * * — not scheduled: loops are off in this chat (/loops on allows them)",
    );

    const on = rig.tg.sendCommand(chat, "loops", "on");
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === on)).text).toContain(
      "Claude may schedule work in this chat again",
    );
    expect(rig.app.store.chats.get(chat).loops).toBe(true);
  }, 120_000);

  it("refuses a CronCreate it fails to store, saying why to Claude and to the person", async () => {
    const chat = rig.user(1018);
    // Another connection makes the schedules table refuse new rows, as a failing disk would.
    const other = new Database(rig.app.store.path);
    try {
      other.exec(
        "CREATE TRIGGER refuse_schedules BEFORE INSERT ON schedules BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END",
      );
      await makeLoop(rig, chat, "SETUP-BROKEN", "*/5 * * * *", "BROKEN-TICK");
    } finally {
      other.exec("DROP TRIGGER refuse_schedules");
      other.close();
    }
    const denial =
      rig.api
        .requests("SETUP-BROKEN")
        .flatMap((r) => r.toolResults)
        .at(-1)?.text ?? "";
    expect(denial).toContain(
      "Telecode failed to carry out this scheduling call (CronCreate): disk I/O error. Nothing was scheduled, listed or cancelled.",
    );
    expect(loopsOf(chat)).toEqual([]);
    const summary = await rig.botMessage(chat, (m) => m.text.startsWith("✅ Done") && m.text.includes("CronCreate"));
    expect(summary.text).toContain(
      "✗ ⏰ CronCreate BROKEN-TICK · */5 * * * * — failed: Telecode could not carry it out (`telecode doctor` checks why)",
    );
  }, 120_000);

  it("answers a message written while a fired run works on its own, after it", async () => {
    const chat = rig.user(1005);
    const loop = await makeLoop(rig, chat, "SETUP-RACE", "* * * * *", "RACETICK check the build");
    rig.script("RACETICK check the build", [reply.text("RACETICK-ANSWER", { delayMs: 1500 })]);
    rig.script("RACE-PERSON", [reply.text("RACE-PERSON-ANSWER")]);
    advance(60_000);
    await rig.api.waitForRequests(1, "RACETICK check the build");
    const question = rig.tg.sendText(chat, "RACE-PERSON is it green yet?");
    const mine = await rig.botMessage(chat, isAnswer("RACE-PERSON-ANSWER"));
    const tick = await rig.botMessage(chat, isAnswer("RACETICK-ANSWER"));
    expect(mine.text).not.toContain("RACETICK-ANSWER");
    expect(tick.text).not.toContain("RACE-PERSON-ANSWER");
    // The person's message waited for the fired run, then got its own answer, quoting it.
    expect(mine.replyToMessageId).toBe(question);
    expect(mine.messageId).toBeGreaterThan(tick.messageId);
    rig.app.scheduler.cancel(loop?.id ?? "", "person");
  }, 120_000);

  it("/at and /every make chat schedules: bad times get the usage, a due one runs, Stop on the confirmation works", async () => {
    const chat = rig.user(1006);
    const bad = rig.tg.sendCommand(chat, "at", "soonish check the deploy");
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === bad)).text).toContain(
      '"soonish" is not a time I can read, so nothing was scheduled. Try /at 30m check the deploy',
    );
    const empty = rig.tg.sendCommand(chat, "every", "2h");
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === empty)).text).toContain(
      "There is nothing to run after the time, so nothing was scheduled.",
    );
    expect(loopsOf(chat)).toEqual([]);

    const at = rig.tg.sendCommand(chat, "at", "30m ATTASK check the deploy");
    const confirmation = await rig.botMessage(chat, (m) => m.replyToMessageId === at);
    // A one-shot's card says when it runs once, not again as "next at", and nothing of runs not made yet.
    expect(confirmation.text).toMatch(
      /^✅ Scheduled in app, in this chat's session:\n⏰ schedule \w+ · once at \S+ today\nATTASK check the deploy$/,
    );
    expect(confirmation.buttons.map((b) => b.text)).toEqual(["⏸ Pause", "✖️ Stop"]);
    rig.script("ATTASK", [reply.text("ATTASK-ANSWER: the deploy is fine")]);
    advance(30 * 60_000);
    const answer = await rig.botMessage(chat, isAnswer("ATTASK-ANSWER"));
    // The run is named as the confirmation named it.
    const id = /⏰ schedule (\w+)/.exec(confirmation.text)?.[1];
    expect(rig.tg.message(chat, answer.replyToMessageId ?? 0)?.text).toContain(`⏰ schedule ${id} · once at`);
    expect(rig.api.requests("ATTASK")[0]?.lastPrompt).toContain("set by the person, iteration 1");
    // Buttons left on a schedule that ran its once go when tapped.
    const late = rig.tg.tapButton(chat, confirmation.messageId, "⏸ Pause");
    expect((await rig.tg.waitForCallbackAnswer(late)).text).toBe("It has ended");
    await rig.tg.waitFor(() => rig.tg.message(chat, confirmation.messageId)?.buttons.length === 0 || undefined, {
      what: "the ended schedule's buttons taken down",
    });

    const every = rig.tg.sendCommand(chat, "every", "2h EVERYTASK check the logs");
    const made = await rig.botMessage(chat, (m) => m.replyToMessageId === every);
    expect(made.text).toContain("every 2 hours");
    const pause = rig.tg.tapButton(chat, made.messageId, "⏸ Pause");
    expect((await rig.tg.waitForCallbackAnswer(pause)).text).toBe("Paused");
    const resumable = await rig.tg.waitFor(
      () => {
        const texts = rig.tg.message(chat, made.messageId)?.buttons.map((b) => b.text);
        return texts?.includes("▶️ Resume") === true ? texts : undefined;
      },
      { what: "Resume in place of Pause" },
    );
    expect(resumable).toEqual(["▶️ Resume", "✖️ Stop"]);
    const stop = rig.tg.tapButton(chat, made.messageId, "✖️ Stop");
    expect((await rig.tg.waitForCallbackAnswer(stop)).text).toBe("Stopped");
    await rig.tg.waitFor(() => rig.tg.message(chat, made.messageId)?.buttons.length === 0 || undefined, {
      what: "the stopped schedule's buttons taken down",
    });
    advance(3 * 3_600_000);
    await rig.app.scheduler.whenIdle();
    expect(rig.api.requests("EVERYTASK")).toEqual([]);
    expect(loopsOf(chat).map((s) => [s.kind, s.state])).toEqual([
      ["chat", "done"],
      ["chat", "cancelled"],
    ]);
  }, 120_000);

  it("/new keeps the chat's loops in the new session, with a button that stops them", async () => {
    const chat = rig.user(1007);
    await makeLoop(rig, chat, "SETUP-NEW", "0 * * * *", "NEWTICK hourly check");
    const fresh = rig.tg.sendCommand(chat, "new");
    const answer = await rig.botMessage(chat, (m) => m.replyToMessageId === fresh);
    expect(answer.text).toContain("Your next message starts a fresh session in app.");
    expect(answer.text).toContain("carries on in the new session");
    const [loop] = loopsOf(chat);
    expect(loop?.session).toEqual({ mode: "continue" });
    const tap = rig.tg.tapButton(chat, answer.messageId, "✖️ Stop the loop");
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Stopped");
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.state).toBe("cancelled");
    // The message no longer asks "Keep it, or stop it now:" under no button: it says what the tap did.
    const after = await rig.tg.waitFor(
      () => {
        const m = rig.tg.message(chat, answer.messageId);
        return m?.text.includes("stopped") === true ? m : undefined;
      },
      { what: "the /new answer saying the loop stopped" },
    );
    expect(after.text).toBe(
      `🆕 Your next message starts a fresh session in app.\n⏹ Claude's loop here (loop ${loop?.id}) is stopped.`,
    );
    expect(after.buttons).toEqual([]);
  }, 120_000);

  it("starts a loop whose session cannot be resumed in a fresh session, and says so", async () => {
    const chat = rig.user(1009);
    const loop = await makeLoop(rig, chat, "SETUP-GONE", "* * * * *", "GONETICK check the build");
    const before = loop?.session.mode === "id" ? loop.session.sessionId : "";
    // The session's transcript disappears while Telecode is down (no live process keeps it).
    await rig.app.stop();
    await rm(join(rig.ws.transcripts, `${before}.jsonl`));
    await rig.startApp();
    rig.script("GONETICK", [reply.text("GONETICK-ANSWER: all green")]);
    advance(60_000);
    await rig.botMessage(chat, `loop ${loop?.id}: its session could not be resumed`);
    await rig.botMessage(chat, isAnswer("GONETICK-ANSWER"));
    const moved = rig.app.store.schedules.get(loop?.id ?? "");
    expect(moved?.session.mode).toBe("id");
    expect(moved?.session.mode === "id" ? moved.session.sessionId : before).not.toBe(before);
    expect(rig.tg.botMessages(chat).some((m) => m.text.includes("could not find the session"))).toBe(false);
    rig.app.scheduler.cancel(loop?.id ?? "", "person");
  }, 120_000);

  it("pauses a loop whose run failed as every run would (the project's folder gone), and says so once", async () => {
    const chat = rig.user(1019);
    const loop = await makeLoop(rig, chat, "SETUP-FOLDER", "* * * * *", "FOLDERTICK check the build");
    const id = loop?.id ?? "";
    // The folder goes while Telecode is down (no live process of the session goes on in it).
    await rig.app.stop();
    await rm(rig.ws.cwd, { recursive: true, force: true });
    await rig.startApp();
    try {
      advance(60_000);
      const held = await rig.botMessage(chat, `loop ${id} is paused`);
      expect(held.text).toBe(
        `⏸ loop ${id} is paused: its next runs would fail the same way. Once that is fixed, tap its Resume, or resume it in /loops.`,
      );
      const error = await rig.botMessage(
        chat,
        /^❌ The project's folder .* does not exist, so Claude Code was not started there\./,
      );
      // The run's own message says it never started, not "Failed · 0 ms".
      const run = await rig.botMessage(chat, (m) => m.text.startsWith(`⏰ loop ${id} · run 1`));
      // The error quotes the run it is about, as the loop's answers do.
      expect(error.replyToMessageId).toBe(run.messageId);
      await rig.tg.waitFor(() => rig.tg.message(chat, run.messageId)?.text.split("\n")[1] === "❌ Not started", {
        what: "the loop's run saying it was not started",
      });
      expect(rig.app.store.schedules.get(id)).toMatchObject({ state: "paused", iterations: 1 });
      // Its later slots start nothing, and say nothing more.
      advance(10 * 60_000);
      await rig.app.scheduler.whenIdle();
      expect(rig.app.store.schedules.get(id)?.iterations).toBe(1);
      expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("❌ The project's folder"))).toHaveLength(1);
    } finally {
      await mkdir(rig.ws.cwd, { recursive: true });
      rig.app.scheduler.cancel(id, "person");
    }
  }, 120_000);

  it("skips a loop's run while the chat is busy, says so once, and runs it at its next time", async () => {
    const chat = rig.user(1013);
    const loop = await makeLoop(rig, chat, "SETUP-BUSY", "* * * * *", "BUSYTICK check");
    // A long task of the person's is running when the loop comes due.
    rig.script("LONGTASK", [reply.text("LONGTASK-ANSWER", { delayMs: 1500 })]);
    rig.tg.sendText(chat, "LONGTASK take your time");
    await rig.api.waitForRequests(1, "LONGTASK");
    advance(60_000);
    const skipped = await rig.botMessage(chat, `loop ${loop?.id} skipped its run of`);
    expect(skipped.text).toContain("a task was running in this chat");
    await rig.botMessage(chat, isAnswer("LONGTASK-ANSWER"));
    rig.script("BUSYTICK", [reply.text("BUSYTICK-ANSWER")]);
    advance(60_000);
    await rig.botMessage(chat, isAnswer("BUSYTICK-ANSWER"));
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.iterations).toBe(1);
    expect(rig.tg.botMessages(chat).filter((m) => m.text.includes("skipped its run"))).toHaveLength(1);
    rig.app.scheduler.cancel(loop?.id ?? "", "person");
  }, 120_000);

  it("shows a turn a Monitor starts by itself as a small run of its own, with its answer", async () => {
    const chat = rig.user(1014);
    rig.script("SETUP-MONITOR", [
      reply.tool("ToolSearch", { query: "select:Monitor" }),
      reply.tool("Monitor", {
        description: "watch the fake build",
        timeout_ms: 60_000,
        command: "sleep 1; echo MONEVENT-ONE; sleep 60",
      }),
      reply.text("Watching."),
    ]);
    rig.script("MONEVENT-ONE", [reply.text("MONEVENT-ANSWER: the build printed an event")]);
    rig.tg.sendText(chat, "SETUP-MONITOR watch the build");
    await rig.botMessage(chat, isAnswer("Watching."));
    const answer = await rig.botMessage(chat, isAnswer("MONEVENT-ANSWER"));
    const own = await rig.tg.waitFor(
      () => rig.tg.botMessages(chat).find((m) => m.text.startsWith("👁 Monitor event: watch the fake build")),
      { what: "the Monitor turn's own message" },
    );
    expect(own.buttons.map((b) => b.text)).not.toContain("⏹ Cancel");
    // The answer quotes what started its turn, as a loop's does.
    expect(answer.replyToMessageId).toBe(own.messageId);
    expect(answer.text).not.toContain("Watching.");
    // What the turn cost counts in the chat's day, beside the run's ([budget], /usage).
    const turnUsd = Number(/^\$(\d+\.\d+)/.exec(answer.text.split("\n").at(-1) ?? "")?.[1]);
    const runUsd = rig.app.store.runs.recent(chat).reduce((sum, r) => sum + (r.costUsd ?? 0), 0);
    expect(turnUsd).toBeGreaterThan(0);
    expect(rig.app.store.usage.forChatDay(chat, localDay(new Date()))).toBeCloseTo(runUsd + turnUsd, 4);
    // Ends the watched command with its session, so it starts no turn during the next tests.
    await rig.app.stop();
    await rig.startApp();
  }, 120_000);

  it("ends a Monitor's turn whose Claude Code died before it finished, instead of leaving it working", async () => {
    const chat = rig.user(1015);
    rig.script("SETUP-CUTOFF", [
      reply.tool("ToolSearch", { query: "select:Monitor" }),
      reply.tool("Monitor", {
        description: "watch the flaky build",
        timeout_ms: 60_000,
        command: "sleep 1; echo CUTOFF-EVENT; sleep 60",
      }),
      reply.text("Watching the flaky build."),
    ]);
    rig.script("CUTOFF-EVENT", [reply.hang()]);
    rig.tg.sendText(chat, "SETUP-CUTOFF watch the build");
    await rig.botMessage(chat, isAnswer("Watching the flaky build."));
    const own = await rig.botMessage(chat, (m) => m.text.startsWith("👁 Monitor event: watch the flaky build"));
    await rig.tg.waitFor(() => rig.api.requests("CUTOFF-EVENT").length > 0, { what: "the Monitor turn's request" });
    const pid = rig.app.bridge.sessions.status(chat)[0]?.pid;
    if (pid === undefined) throw new Error("no live Claude Code process");
    process.kill(pid, "SIGKILL");
    const ended = await rig.tg.waitFor(
      () => {
        const m = rig.tg.message(chat, own.messageId);
        return m !== undefined && m.text.includes("Interrupted") ? m : undefined;
      },
      { what: "the Monitor turn's message ended" },
    );
    expect(ended.text).not.toMatch(/Working|Starting/);
    expect(ended.text).toContain("⚠️ Interrupted");
    expect(ended.text).toContain(
      "Claude Code stopped before it finished this turn. Its Monitor ended with it: ask Claude to watch again if you still need it.",
    );
    expect(ended.buttons).toEqual([]);
  }, 120_000);

  it("passes Claude Code's own slash commands to the session and lists them in /help", async () => {
    const chat = rig.user(1008);
    rig.script("HELLO-SLASH", [reply.text("Hello there.")]);
    rig.tg.sendText(chat, "HELLO-SLASH hi");
    await rig.botMessage(chat, isAnswer("Hello there."));

    const help = rig.tg.sendCommand(chat, "help");
    const helpText = (await rig.botMessage(chat, (m) => m.replyToMessageId === help)).text;
    expect(helpText).toContain("Claude Code's commands here:");
    expect(helpText).toMatch(/Claude Code's commands here:.*\/compact/);
    expect(helpText).toMatch(/Claude Code's commands here:.*\/loop/);
    // Telecode's own /model wins: it is not offered as Claude Code's.
    expect(helpText.slice(helpText.indexOf("Claude Code's commands here:"))).not.toContain("/model ");
    // Nor its /clear, which is /new's other name here.
    expect(helpText.slice(helpText.indexOf("Claude Code's commands here:"))).not.toMatch(/\/clear\b/);

    // /context runs inside the CLI (no model call) and its output comes back as the answer.
    rig.tg.sendText(chat, "/context");
    const context = await rig.botMessage(chat, isAnswer("Context Usage"));
    // It cost nothing, and its footer says no cost ("$0.00" would only be noise).
    expect(context.text).toMatch(/\n1 turn · .* · session [0-9a-f]{8} — reply to continue$/);
    expect(context.text).not.toContain("$0.00");
    // /loop is Claude Code's skill: the model reads it and calls CronCreate, which Telecode keeps.
    rig.script("SKILLTICK", [
      reply.tool("ToolSearch", { query: "select:CronCreate" }),
      reply.tool("CronCreate", { cron: "*/5 * * * *", prompt: "SKILLTICK check the build" }),
      reply.text("Looping every five minutes."),
    ]);
    rig.tg.sendText(chat, "/loop 5m SKILLTICK check the build");
    await rig.botMessage(chat, isAnswer("Looping every five minutes."));
    expect(rig.api.requests("SKILLTICK")[0]?.lastPrompt).toContain("/loop");
    expect(loopsOf(chat).map((s) => s.prompt)).toEqual(["SKILLTICK check the build"]);
    // An unknown word still gets a hint, and runs nothing.
    const unknown = rig.tg.sendCommand(chat, "compcat");
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === unknown)).text).toContain(
      "I don't know the command /compcat. Did you mean /compact?",
    );
    rig.app.scheduler.cancel(loopsOf(chat)[0]?.id ?? "", "person");
  }, 120_000);
});

describe("config schedules and the cost cap (real CLI, manual schedule clock)", () => {
  let rigB: Rig;
  let clockB: FakeClock;
  beforeAll(async () => {
    clockB = createFakeClock(Date.parse("2026-06-01T08:59:00Z"));
    rigB = await startRig({
      scheduleClock: clockB,
      toml: [
        "[loops]",
        "max_cost_usd = 0.0005",
        "[schedule]",
        'timezone = "UTC"',
        "[[schedules]]",
        'id = "morning"',
        'cron = "0 9 * * *"',
        'prompt = "CONFIGTASK review yesterday\'s commits"',
        'project = "app"',
        "chat_id = 1010",
      ],
    });
  });
  afterAll(async () => {
    await rigB?.dispose();
  });

  it("fires a [[schedules]] entry into its chat, unattended, with a Pause button only", async () => {
    const chat = rigB.user(1010);
    rigB.script("CONFIGTASK", [reply.text("CONFIGTASK-ANSWER: two risky commits")]);
    clockB.advance(60_000);
    const answer = await rigB.botMessage(chat, isAnswer("CONFIGTASK-ANSWER"));
    const summary = await rigB.tg.waitFor(
      () => {
        const m = rigB.tg.message(chat, answer.replyToMessageId ?? -1);
        return m?.buttons.every((b) => b.text !== "⏹ Cancel") === true ? m : undefined;
      },
      { what: "the schedule's summary" },
    );
    expect(summary.text).toContain(
      "⏰ schedule morning · run 1 · at 09:00 every day (pause it with /loops): CONFIGTASK",
    );
    expect(summary.buttons.map((b) => b.text)).toEqual(["⏸ Pause"]);
    expect(rigB.api.requests("CONFIGTASK")[0]?.lastPrompt).toContain('Telecode schedule "morning" from the config');
  }, 120_000);

  it("stops a loop whose runs cost more than its limit, and says so", async () => {
    const chat = rigB.user(1011);
    const loop = await makeLoop(rigB, chat, "SETUP-COST", "* * * * *", "COSTTICK check the build");
    rigB.script("COSTTICK", [reply.text("COSTTICK-ANSWER", { inputTokens: 2000, outputTokens: 500 })]);
    clockB.advance(60_000);
    const answer = await rigB.botMessage(chat, isAnswer("COSTTICK-ANSWER"));
    const notice = await rigB.botMessage(chat, `loop ${loop?.id} stopped: its runs cost`);
    expect(notice.text).toContain("past its limit of $0.0005");
    // The run's answer first, then why there will be no more; the stopped loop's run has no buttons.
    expect(answer.messageId).toBeLessThan(notice.messageId);
    await rigB.tg.waitFor(() => rigB.tg.message(chat, answer.replyToMessageId!)?.buttons.length === 0, {
      what: "the stopped loop's Pause and Stop gone",
    });
    expect(rigB.app.store.schedules.get(loop?.id ?? "")).toMatchObject({ state: "capped", stateReason: "cost" });
    clockB.advance(120_000);
    await rigB.app.scheduler.whenIdle();
    expect(rigB.api.requests("COSTTICK")).toHaveLength(1);
  }, 120_000);
});

describe("[loops] enabled = false (real CLI)", () => {
  let rigC: Rig;
  beforeAll(async () => {
    rigC = await startRig({ toml: ["[loops]", "enabled = false"] });
  });
  afterAll(async () => {
    await rigC?.dispose();
  });

  it("starts the CLI without its cron tools and /loop, and /loops says loops are off everywhere", async () => {
    const chat = rigC.user(1012);
    rigC.script("HELLO-OFF", [reply.text("Hi.")]);
    rigC.tg.sendText(chat, "HELLO-OFF hi");
    await rigC.botMessage(chat, isAnswer("Hi."));
    // CLAUDE_CODE_DISABLE_CRON=1 took /loop (and the cron tools) away; the session lists the rest.
    expect(rigC.app.store.claudeCommands.get("app")).toContain("compact");
    expect(rigC.app.store.claudeCommands.get("app")).not.toContain("loop");
    const ask = rigC.tg.sendCommand(chat, "loops");
    expect((await rigC.botMessage(chat, (m) => m.replyToMessageId === ask)).text).toContain(
      "Claude's loops are off everywhere ([loops] enabled = false in the config).",
    );
  }, 120_000);
});

describe("a usage limit (a subscription-style token, real CLI, manual schedule clock)", () => {
  let rigD: Rig;
  let clockD: FakeClock;
  beforeAll(async () => {
    clockD = createFakeClock(START);
    rigD = await startRig({
      scheduleClock: clockD,
      toml: ["[schedule]", 'timezone = "UTC"'],
      env: { ANTHROPIC_AUTH_TOKEN: GATEWAY_TOKEN },
      unsetEnv: ["ANTHROPIC_API_KEY"],
    });
  });
  afterAll(async () => {
    await rigD?.dispose();
  });

  it("skips a loop's runs until the limit resets, says so once, rather than fail at every slot", async () => {
    const chat = rigD.user(1001);
    const loop = await makeLoop(rigD, chat, "SETUP-LIMIT", "* * * * *", "LIMITTICK check the build");
    const id = loop?.id ?? "";
    const limited = reply.error(429, {
      errorType: "rate_limit_error",
      headers: { ...fiveHourHeaders("rejected", "1.0"), "retry-after": "1" },
    });
    rigD.script("LIMITTICK", [limited, limited]);
    clockD.advance(60_000);
    const waits = await rigD.botMessage(chat, `loop ${id} waits for the usage limit`);
    expect(waits.text).toBe(
      `⏭ loop ${id} waits for the usage limit: its runs until the limit resets are skipped. Its next run is at 17:47 on 17 March 2030.`,
    );
    await rigD.botMessage(chat, /^❌ API error 429: You've hit your 5-hour limit\./);
    expect(rigD.app.store.schedules.get(id)).toMatchObject({
      state: "active",
      iterations: 1,
      nextFireAt: Date.parse("2030-03-17T17:47:00Z"), // the first minute after the reset (17:46:40)
    });
    // The slots before the reset start nothing, and say nothing more.
    clockD.advance(10 * 60_000);
    await rigD.app.scheduler.whenIdle();
    expect(rigD.app.store.schedules.get(id)?.iterations).toBe(1);
    expect(rigD.tg.botMessages(chat).filter((m) => m.text.startsWith("❌"))).toHaveLength(1);
    rigD.app.scheduler.cancel(id, "person");
  }, 120_000);
});
