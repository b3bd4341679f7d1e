// Claude's loops end to end (issue 9): the real CLI calls CronCreate, ScheduleWakeup, CronList and
// CronDelete; Telecode's hooks take them over, the scheduler (on a manual clock) fires each
// iteration into the chat as a scheduled run, across a restart, and the person's controls work.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Schedule } from "../../src/schedule/index.js";
import { reply } from "../support/fake-anthropic/index.js";
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

/** Moves the scheduler's clock on by `ms` (its timers fire on the way). */
function advance(ms: number): void {
  clock.advance(ms);
}

describe("loops (real CLI, fake Bot API, manual schedule clock)", () => {
  it("takes a CronCreate over, fires it as a scheduled run, and keeps it across a restart", async () => {
    const chat = rig.user(1001);
    rig.script("SETUP-LOOP", [
      reply.tool("ToolSearch", { query: "select:CronCreate,CronList" }),
      reply.tool("CronCreate", { cron: "* * * * *", prompt: "TICK check the build", recurring: true }),
      reply.tool("CronList", {}),
      reply.text("Loop set."),
    ]);
    rig.tg.sendText(chat, "SETUP-LOOP every minute, check the build");
    await rig.botMessage(chat, isAnswer("Loop set."));

    const [loop] = loopsOf(chat);
    expect(loop).toMatchObject({ kind: "loop", state: "active", prompt: "TICK check the build", iterations: 0 });
    const created = toolResultText("CronCreate");
    expect(created[0]).toContain(`Scheduled by Telecode (this is not an error): loop ${loop?.id}`);
    expect(created[0]).toContain(`CronDelete with id "${loop?.id}"`);
    // The CLI holds no job: its own list is never consulted; Telecode's answers CronList.
    expect(toolResultText("CronList")[0]).toContain(`${loop?.id} (loop): every minute`);

    rig.script("TICK check the build", [reply.text("TICK-ANSWER 1: the build is green")]);
    advance(60_000);
    const answer = await rig.botMessage(chat, isAnswer("TICK-ANSWER 1"));
    // The answer quotes the run's message, which says which loop it is and keeps its buttons.
    const summary = await rig.tg.waitFor(
      () => {
        const m = rig.tg.message(chat, answer.replyToMessageId ?? -1);
        return m?.buttons.every((b) => b.text !== "⏹ Cancel") === true ? m : undefined;
      },
      { what: "the fired run's summary" },
    );
    expect(summary.text).toContain(`⏰ loop ${loop?.id} · run 1 of 50 · every minute · stop it with /loops`);
    expect(summary.buttons.map((b) => b.text)).toEqual(["⏸ Pause", "✖️ Stop"]);
    // The model was told which loop and which iteration sent the message.
    const fired = rig.api.requests("TICK check the build")[0]?.lastPrompt ?? "";
    expect(fired).toContain(`[Telecode loop ${loop?.id}, iteration 1 of at most 50`);

    // Telecode stops; the next slot passes while it is down; it fires once on start, not twice.
    await rig.app.stop();
    advance(60_000);
    rig.script("TICK check the build", [reply.text("TICK-ANSWER 2"), reply.text("TICK-ANSWER 3")]);
    await rig.startApp();
    await rig.botMessage(chat, isAnswer("TICK-ANSWER 2"));
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.iterations).toBe(2);
    advance(60_000);
    await rig.botMessage(chat, isAnswer("TICK-ANSWER 3"));
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.iterations).toBe(3);
    expect(rig.tg.botMessages(chat).filter(isAnswer("TICK-ANSWER"))).toHaveLength(3);

    // Claude cancels it by its id: Claude Code itself answers it has no such job (it holds none of
    // Telecode's), and Telecode, which sees the call, cancels the loop. Nothing fires any more.
    rig.script("STOP-LOOP", [reply.tool("CronDelete", { id: loop?.id ?? "" }), reply.text("Loop stopped.")]);
    rig.tg.sendText(chat, "STOP-LOOP stop checking the build");
    await rig.botMessage(chat, isAnswer("Loop stopped."));
    expect(rig.app.store.schedules.get(loop?.id ?? "")).toMatchObject({ state: "cancelled", stateReason: "claude" });
    await rig.botMessage(chat, `loop ${loop?.id} stopped: Claude cancelled it.`);
    advance(120_000);
    await rig.app.scheduler.whenIdle();
    expect(rig.app.store.schedules.get(loop?.id ?? "")?.iterations).toBe(3);
  }, 120_000);
});
