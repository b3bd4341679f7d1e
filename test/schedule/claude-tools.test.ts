// Claude's scheduling tools as Telecode answers them at the hook: CronCreate and ScheduleWakeup
// become Telecode loops (or are refused, saying why), CronList lists the chat's, CronDelete of a
// job the CLI holds itself is left to the CLI; and the answer where no scheduler runs.
import { describe, expect, it } from "vitest";
import {
  answerScheduleTool,
  answerWithoutScheduler,
  DEFAULT_LOOP_CAPS,
  type ChatScheduling,
  type ScheduleToolCall,
} from "../../src/schedule/index.js";
import { at, SETTINGS, useSchedulerHarness, type Harness } from "./harness.js";

const harness = useSchedulerHarness();

function chatOf(h: Harness, over: Partial<ChatScheduling> = {}): ChatScheduling {
  return {
    scheduler: h.scheduler,
    chatId: 42,
    project: "app",
    list: () => h.store.schedules.list({ chatId: 42, states: ["active", "paused"] }),
    nowMs: () => h.clock.now(),
    loopsOn: () => true,
    runningChain: () => undefined,
    ...over,
  };
}

const call = (toolName: string, input: Record<string, unknown>, sessionId = "s-1"): ScheduleToolCall => ({
  toolName,
  input,
  toolUseId: "toolu_9",
  sessionId,
});

const reason = (answer: ReturnType<typeof answerScheduleTool>): string =>
  answer.decision === "deny" ? answer.reason : "(asked)";

describe("the scheduling tools at the hook", () => {
  it("stores a CronCreate as a loop of the calling session and denies it with the loop's id", () => {
    const h = harness("2026-06-05T07:01:00Z");
    const answer = answerScheduleTool(chatOf(h), call("CronCreate", { cron: "*/5 * * * *", prompt: "check" }));
    const [loop] = h.store.schedules.list({ chatId: 42 });
    expect(loop).toMatchObject({
      kind: "loop",
      session: { mode: "id", sessionId: "s-1" },
      recurring: true,
      createdBy: { kind: "claude", turn: "toolu_9" },
    });
    expect(reason(answer)).toContain(`loop ${loop?.id}, every 5 minutes, next at 09:05 today`);
  });

  it("refuses what cannot be scheduled, saying why, and stores nothing", () => {
    const h = harness("2026-06-05T07:01:00Z");
    expect(reason(answerScheduleTool(chatOf(h), call("CronCreate", { cron: "* * * * * *", prompt: "x" })))).toContain(
      'Telecode did not schedule this. "* * * * * *" has 6 fields',
    );
    expect(reason(answerScheduleTool(chatOf(h), call("CronCreate", { cron: "*/5 * * * *", prompt: " " })))).toContain(
      "There is no prompt to run",
    );
    const off = chatOf(h, { loopsOn: () => false });
    expect(reason(answerScheduleTool(off, call("CronCreate", { cron: "*/5 * * * *", prompt: "x" })))).toContain(
      "Scheduling is turned off in this chat",
    );
    expect(
      reason(answerScheduleTool(off, call("ScheduleWakeup", { delaySeconds: 60, prompt: "x", reason: "r" }))),
    ).toContain("/loops on");
    const anonymous = { ...call("CronCreate", { cron: "*/5 * * * *", prompt: "x" }), sessionId: undefined };
    expect(reason(answerScheduleTool(chatOf(h), anonymous))).toContain("could not tell which session asked");
    expect(h.store.schedules.list({ chatId: 42 })).toEqual([]);
  });

  it("refuses Claude's loops everywhere when [loops] enabled is false", async () => {
    const h = harness("2026-06-05T07:01:00Z");
    await h.startUp({ settings: { ...SETTINGS, loopsEnabled: false } });
    expect(reason(answerScheduleTool(chatOf(h), call("CronCreate", { cron: "*/5 * * * *", prompt: "x" })))).toContain(
      "[loops] enabled = false",
    );
  });

  it("lists the chat's loops for CronList, and leaves a CronDelete of a job it does not know to the CLI", () => {
    const h = harness("2026-06-05T07:01:00Z");
    const chat = chatOf(h);
    expect(reason(answerScheduleTool(chat, call("CronList", {})))).toContain("this chat has no loops");
    answerScheduleTool(chat, call("CronCreate", { cron: "0 9 * * 1-5", prompt: "review the PRs" }));
    const [loop] = h.store.schedules.list({ chatId: 42 });
    expect(reason(answerScheduleTool(chat, call("CronList", {})))).toContain(
      `- ${loop?.id} (loop): at 09:00 on weekdays, next at 09:00 on 8 June, 0 of 50 runs`,
    );
    expect(answerScheduleTool(chat, call("CronDelete", { id: "cli-own-1" }))).toEqual({ decision: "ask" });
    expect(reason(answerScheduleTool(chat, call("CronDelete", { id: loop?.id }, "s-other")))).toContain(
      "was not made by this session",
    );
    expect(reason(answerScheduleTool(chat, call("CronDelete", { id: loop?.id })))).toContain("is cancelled");
  });

  it("continues the wake-up chain whose fired run asks again, and ends it on stop", () => {
    const h = harness("2026-06-05T07:01:00Z");
    const first = answerScheduleTool(
      chatOf(h),
      call("ScheduleWakeup", { delaySeconds: 30, prompt: "/loop poll", reason: "build" }),
    );
    const [chain] = h.store.schedules.list({ chatId: 42 });
    expect(reason(first)).toContain("woken at 09:02 today");
    const again = chatOf(h, { runningChain: () => chain?.id });
    answerScheduleTool(again, call("ScheduleWakeup", { delaySeconds: 600, prompt: "/loop poll", reason: "slow" }));
    expect(h.store.schedules.list({ chatId: 42 }).map((s) => [s.id, s.note])).toEqual([[chain?.id, "slow"]]);
    expect(reason(answerScheduleTool(again, call("ScheduleWakeup", { stop: true })))).toContain(
      `Stopped by Telecode (this is not an error): loop ${chain?.id} ended`,
    );
  });

  it("refuses to continue a fired wake-up chain when the chat already has its most live loops", async () => {
    const h = harness("2026-06-05T07:01:00Z", { ...SETTINGS, caps: { ...DEFAULT_LOOP_CAPS, maxPerChat: 2 } });
    h.scheduler.start();
    const chat = chatOf(h);
    answerScheduleTool(chat, call("ScheduleWakeup", { delaySeconds: 60, prompt: "/loop poll", reason: "build" }));
    const [chain] = h.store.schedules.list({ chatId: 42 });
    answerScheduleTool(chat, call("CronCreate", { cron: "0 9 * * *", prompt: "review" }));
    await h.advanceTo(at("2026-06-05T07:03:00Z")); // the wake-up fired: its chain no longer counts
    answerScheduleTool(chat, call("CronCreate", { cron: "0 10 * * *", prompt: "report" }));
    const again = chatOf(h, { runningChain: () => chain?.id });
    const answer = answerScheduleTool(again, call("ScheduleWakeup", { delaySeconds: 60, prompt: "/loop poll" }));
    expect(reason(answer)).toContain("This chat already has 2 loops and schedules, the most allowed");
    expect(h.store.schedules.get(chain!.id)).toMatchObject({ state: "done", stateReason: "fired" });
    expect(h.store.schedules.count({ chatId: 42, states: ["active", "paused"] })).toBe(2);
  });

  it("refuses everything where no scheduler runs (telecode run), except the CLI's own CronDelete", () => {
    expect(answerWithoutScheduler(call("CronCreate", { cron: "* * * * *", prompt: "x" }))).toMatchObject({
      decision: "deny",
      reason: expect.stringContaining("This run cannot schedule work"),
    });
    expect(answerWithoutScheduler(call("ScheduleWakeup", { delaySeconds: 60, prompt: "x" }))).toMatchObject({
      decision: "deny",
    });
    expect(answerWithoutScheduler(call("CronList", {}))).toMatchObject({ reason: expect.stringContaining("no loops") });
    expect(answerWithoutScheduler(call("CronDelete", { id: "x" }))).toEqual({ decision: "ask" });
  });
});
