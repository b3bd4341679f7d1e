// A [[schedules]] entry and a [[webhooks]] entry aimed at a forum topic (`topic`, its thread
// id), through the real bridge and the real CLI: their runs land in the topic, in the topic's
// own conversation, and the topic's /loops lists the schedule.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";
import { botMessageInTopic, isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

const PERSON = 1001;
const FORUM = -100_6001;
/** The topic's thread id: the id of its first message, the forum's first. */
const CI_TOPIC = 1;

let rig: Rig;
let clock: FakeClock;
beforeAll(async () => {
  clock = createFakeClock(Date.parse("2026-06-01T08:00:00Z"));
  rig = await startRig({
    scheduleClock: clock,
    toml: [
      "[schedule]",
      'timezone = "UTC"',
      "[webhook_server]",
      'listen = "127.0.0.1:0"',
      "[[webhooks]]",
      'id = "ci"',
      'path = "/hooks/ci"',
      'auth = "none"',
      'prompt = "CIRUN look at {{note}}"',
      `chat_id = ${FORUM}`,
      `topic = ${CI_TOPIC}`,
      "[[schedules]]",
      'id = "standup"',
      'cron = "0 9 * * *"',
      'prompt = "STANDUP sum up yesterday"',
      `chat_id = ${FORUM}`,
      `topic = ${CI_TOPIC}`,
    ],
  });
  rig.user(PERSON);
  rig.tg.addGroup({ id: FORUM, memberIds: [PERSON] });
  expect(rig.tg.topics.create(FORUM, "CI")).toBe(CI_TOPIC);
});
afterAll(async () => {
  await rig?.dispose();
});

const inTopic = (thread: number | undefined, match: (m: MessageView) => boolean) =>
  botMessageInTopic(rig, FORUM, thread, match);

describe("config entries aimed at a topic", () => {
  it("run a webhook's delivery and a schedule's fire in the topic, in its conversation", async () => {
    const server = rig.app.webhookServer;
    if (server === null) throw new Error("the webhook server is not running");
    rig.script("CIRUN", [reply.text("Build 42 failed on a flaky test.")]);
    const response = await fetch(`http://127.0.0.1:${server.address.port}/hooks/ci`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ note: "build 42" }),
    });
    expect(response.status).toBe(202);
    await inTopic(CI_TOPIC, isAnswer("Build 42 failed on a flaky test."));

    rig.script("STANDUP", [reply.text("Yesterday: two merges.")]);
    clock.advance(3_600_000);
    await inTopic(CI_TOPIC, isAnswer("Yesterday: two merges."));
    expect(rig.tg.topics.botMessages(FORUM, undefined)).toEqual([]);

    // The topic's own conversation: a message there goes on in the session it has.
    rig.script("[in-ci]", [reply.text("Retried it: green.")]);
    rig.tg.sendText(FORUM, "@telecode_test_bot retry the flaky test [in-ci]", { topic: CI_TOPIC });
    const retried = await inTopic(CI_TOPIC, isAnswer("Retried it: green."));
    expect(sessionOf(retried)).toBeDefined();

    const asked = rig.tg.sendCommand(FORUM, "loops", "", { topic: CI_TOPIC });
    expect((await inTopic(CI_TOPIC, (m) => m.replyToMessageId === asked)).text).toContain("standup");
  });
});
