// A network that drops a connection without a word (a laptop woke on another Wi-Fi, a VPN came
// up) leaves a Bot API call waiting for an answer that never comes. Each call has a deadline
// (api-deadlines.ts; short here): past it, the long poll is made again and a message is read,
// and the answer is sent again and arrives, once. Flood control's wait on polling is kept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { eventLog, type EventLog } from "../support/event-log.js";
import { isAnswer, startRig, TEST_TUNING, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
let log: EventLog;
beforeAll(async () => {
  log = eventLog();
  rig = await startRig({
    logger: log,
    tuning: { ...TEST_TUNING, botApiDeadlines: { callMs: 2000, pollGraceMs: 1500 } },
  });
});
afterAll(async () => {
  await rig?.dispose();
});

/** Waits until the fake has taken a call of `method` it will never answer. */
async function swallowed(method: string): Promise<void> {
  await rig.tg.waitFor(() => rig.tg.calls(method).some((c) => c.description === "network fault: no answer"), {
    what: `a ${method} left unanswered`,
  });
}

describe("calls the network swallows", () => {
  it("a long poll left unanswered is made again: a message sent meanwhile is read and answered", async () => {
    const chat = rig.user(1001);
    rig.tg.injectFault("getUpdates", { kind: "silent" });
    await swallowed("getUpdates");
    rig.script("[after-silence]", [reply.text("Read you after the silence.")]);
    rig.tg.sendText(chat, "Are you there? [after-silence]");
    await rig.botMessage(chat, isAnswer("Read you after the silence."));
    const retried = log.fields("telegram.polling_retry").map((f) => String((f["err"] as Error | undefined)?.message));
    expect(retried).toContain("Telegram did not answer getUpdates within 3 s (the connection may have dropped)");
  });

  it("an answer whose send is left unanswered is sent again, and arrives once", async () => {
    const chat = rig.user(1002);
    rig.script("[answer-swallowed]", [reply.text("The answer that got through.", { delayMs: 1500 })]);
    rig.tg.sendText(chat, "Answer me [answer-swallowed]");
    await rig.botMessage(chat, (m) => /Starting|Working/.test(m.text));
    rig.tg.injectFault("sendMessage", { kind: "silent" }, { chatId: chat });
    await rig.botMessage(chat, isAnswer("The answer that got through."));
    expect(rig.tg.calls("sendMessage").filter((c) => c.chatId === chat && !c.ok)).toHaveLength(1);
    await rig.tg.waitFor(() => /Done/.test(rig.tg.botMessages(chat)[0]?.text ?? ""), { what: "the run's summary" });
    expect(rig.tg.botMessages(chat).filter(isAnswer("The answer that got through."))).toHaveLength(1);
  });
});

describe("Telegram's flood control on polling", () => {
  it("waits as long as a 429 on getUpdates asks before polling again, then reads on", async () => {
    const chat = rig.user(1003);
    rig.tg.injectFault("getUpdates", { kind: "retry_after", seconds: 2 });
    await rig.tg.waitFor(() => rig.tg.calls("getUpdates").some((c) => c.errorCode === 429), {
      what: "a getUpdates refused with 429",
    });
    rig.script("[after-flood]", [reply.text("Polling again.")]);
    rig.tg.sendText(chat, "Still there? [after-flood]");
    await rig.botMessage(chat, isAnswer("Polling again."));
    const polls = rig.tg.calls("getUpdates");
    const refused = polls.findIndex((c) => c.errorCode === 429);
    // The next poll came after the 2 s Telegram asked for, not after the first 0.5 s of backoff.
    expect(polls[refused + 1]!.atMs - polls[refused]!.atMs).toBeGreaterThanOrEqual(1990);
  });
});
