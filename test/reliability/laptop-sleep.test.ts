// A laptop's lid closed and opened again, with the real app, Claude Code and the fake Bot API.
// The sleep is played by moving the app's wall clock ahead while its own (awake) time goes on,
// which is what Telecode can see of a real one. Deadlines are set far beyond the test's time, so
// only noticing the wake can make the long poll again or run the schedule that came due; a
// Claude Code left waiting for the next message is ended on waking, as its connections to the
// API went with the sleep. A change of network with the lid open (addresses the test sets) is
// taken the same way for connections.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import { eventLog, type EventLog } from "../support/event-log.js";
import { createSleepyClock, type SleepyClock } from "../support/sleepy-clock.js";
import { isAnswer, startRig, TEST_TUNING, type Rig } from "../telegram/bridge/rig.js";

const HOUR = 3_600_000;

let rig: Rig;
let log: EventLog;
let clock: SleepyClock;
let addresses = "192.168.1.20";
beforeAll(async () => {
  log = eventLog();
  clock = createSleepyClock({ keepsProcessAlive: true });
  rig = await startRig({
    logger: log,
    botApiNow: () => clock.now(),
    scheduleClock: clock,
    toml: ["[schedule]", 'timezone = "UTC"'],
    tuning: {
      ...TEST_TUNING,
      clock,
      wakeLookEveryMs: 100,
      networkAddresses: () => addresses,
      botApiDeadlines: { callMs: 10 * 60_000, pollGraceMs: 10 * 60_000 },
    },
  });
});
afterAll(async () => {
  await rig?.dispose();
});

/** Has the fake take the next long poll and never answer it (the connection died without a word). */
async function swallowedPoll(): Promise<void> {
  const swallowed = (): number =>
    rig.tg.calls("getUpdates").filter((c) => c.description === "network fault: no answer").length;
  const before = swallowed();
  rig.tg.injectFault("getUpdates", { kind: "silent" });
  await rig.tg.waitFor(() => swallowed() > before, { what: "a long poll left unanswered" });
}

/** The pid of the Claude Code process started last. */
const lastSpawnedPid = (): number => Number(log.fields("claude.spawned").at(-1)?.["pid"]);

/** Waits until the process `pid` was ended as idle (its end logged with the reason "idle"). */
async function endedIdle(pid: number, what: string): Promise<void> {
  await rig.tg.waitFor(() => log.fields("claude.exited").some((f) => f["pid"] === pid && f["reason"] === "idle"), {
    what,
  });
}

describe("the computer sleeps and wakes", () => {
  it("makes again the long poll it slept through: a message sent after waking is read and answered", async () => {
    const chat = rig.user(1001);
    await swallowedPoll();
    const arrived = rig.tg.arrivals().length;
    const lastOpened = Math.max(...rig.tg.arrivals().map((a) => a.connection));
    clock.sleep(8 * HOUR);
    rig.script("[morning]", [reply.text("Good morning, I read you.")]);
    rig.tg.sendText(chat, "Still there? [morning]");
    await rig.botMessage(chat, isAnswer("Good morning, I read you."));
    // The connections kept for reuse went with the sleep: every request after it opens a new one.
    const after = rig.tg.arrivals().slice(arrived);
    expect(after.map((a) => a.method)).toContain("sendMessage");
    expect(after.filter((a) => a.connection <= lastOpened)).toEqual([]);
    expect(log.fields("app.woke").map((f) => Math.round(Number(f["sleptMs"]) / HOUR))).toEqual([8]);
    const retried = log.fields("telegram.polling_retry").map((f) => String((f["err"] as Error | undefined)?.message));
    expect(retried).toContain(
      "the computer slept 8 h while getUpdates waited for Telegram (its connection is taken for gone)",
    );
  });

  it("runs a schedule that came due while it slept as it wakes", async () => {
    const chat = rig.user(1002);
    const at = rig.tg.sendCommand(chat, "at", "30m NAPTASK check the deploy");
    const confirmation = await rig.botMessage(chat, (m) => m.replyToMessageId === at);
    expect(confirmation.text).toContain("once at");
    rig.script("NAPTASK", [reply.text("NAPTASK-ANSWER: the deploy is fine")]);
    clock.sleep(40 * 60_000);
    await rig.botMessage(chat, isAnswer("NAPTASK-ANSWER"));
    expect(rig.api.requests("NAPTASK")[0]?.lastPrompt).toContain("iteration 1");
  });

  it("ends a Claude Code process left waiting for the next message: the next one resumes the session in a new process", async () => {
    const chat = rig.user(1003);
    rig.script("[before-lid]", [reply.text("Noted before the lid closed.")]);
    rig.tg.sendText(chat, "Remember the word lantern [before-lid]");
    await rig.botMessage(chat, isAnswer("Noted before the lid closed."));
    const pid = lastSpawnedPid();
    clock.sleep(2 * HOUR);
    await endedIdle(pid, "the idle Claude Code ended on waking");
    expect(log.fields("claude.wake_close").map((f) => f["pid"])).toContain(pid);
    rig.script("[after-lid]", [reply.text("The word was lantern.")]);
    rig.tg.sendText(chat, "Which word? [after-lid]");
    await rig.botMessage(chat, isAnswer("The word was lantern."));
    const resumed = log.fields("claude.spawned").at(-1);
    expect(resumed?.["pid"]).not.toBe(pid);
    expect(resumed?.["args"]).toContain("--resume");
    expect(JSON.stringify(rig.api.requests("[after-lid]")[0]?.body["messages"])).toContain("Remember the word lantern");
  });

  it("ends a Claude Code process whose run the computer slept through once the run is over", async () => {
    const chat = rig.user(1004);
    // The run goes on until the wake has been noticed and the process checked.
    const checked = gate();
    rig.script("[lid-mid-run]", [reply.text("Finished after the nap.", { until: checked.until })]);
    rig.tg.sendText(chat, "Take your time [lid-mid-run]");
    await rig.tg.waitFor(() => rig.api.requests("[lid-mid-run]").length > 0, { what: "the run's request" });
    const pid = lastSpawnedPid();
    const wakes = log.fields("app.woke").length;
    clock.sleep(HOUR);
    await rig.tg.waitFor(() => log.fields("app.woke").length > wakes, { what: "the wake noticed" });
    // Still running: the process is not ended under its run.
    expect(log.fields("claude.wake_close").map((f) => f["pid"])).not.toContain(pid);
    checked.open();
    await rig.botMessage(chat, isAnswer("Finished after the nap."));
    await endedIdle(pid, "the process ended once its run was over");
    expect(log.fields("claude.wake_close").find((f) => f["pid"] === pid)?.["sleptMs"]).toBeGreaterThan(HOUR - 1000);
  });

  it("takes a change of network for a loss of connections: the long poll made again, the idle Claude Code ended", async () => {
    const chat = rig.user(1005);
    rig.script("[on-wifi]", [reply.text("Answered on the office Wi-Fi.")]);
    rig.tg.sendText(chat, "Hello [on-wifi]");
    await rig.botMessage(chat, isAnswer("Answered on the office Wi-Fi."));
    const pid = lastSpawnedPid();
    await swallowedPoll();
    // The poll goes out before the watch's next look; then the laptop joins a phone's hotspot.
    await new Promise((resolve) => setTimeout(resolve, 300));
    addresses = "172.20.10.3";
    await endedIdle(pid, "the idle Claude Code ended when the network changed");
    expect(log.fields("claude.wake_close").find((f) => f["pid"] === pid)).toMatchObject({
      sleptMs: 0,
      networkChanged: true,
    });
    rig.script("[on-hotspot]", [reply.text("Answered on the hotspot.")]);
    rig.tg.sendText(chat, "Still with me? [on-hotspot]");
    await rig.botMessage(chat, isAnswer("Answered on the hotspot."));
    const retried = log.fields("telegram.polling_retry").map((f) => String((f["err"] as Error | undefined)?.message));
    expect(retried).toContain(
      "the network changed while getUpdates waited for Telegram (its connection is taken for gone)",
    );
    expect(log.fields("app.network_changed")).toHaveLength(1);
  });
});
