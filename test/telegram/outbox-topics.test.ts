// The outbox writing to forum topics, against grammY and the fake Bot API on a fake clock:
// into the topic's thread, paced with its group (Telegram limits the group, not the topic),
// and into the group's main view, without the quote, once Telegram refuses the topic.
import { Bot } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store, type TopicRecord } from "../../src/store/index.js";
import { ChatTopics } from "../../src/telegram/chat-topics.js";
import { Outbox } from "../../src/telegram/index.js";
import { eventLog, type EventLog } from "../support/event-log.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";
import { createFakeClock, driveUntilDone, type FakeClock } from "../support/fake-clock.js";
import { useTempDirs } from "../support/temp-dirs.js";

const T0 = 1_800_000_000_000;
const ALICE = 1001;
const FORUM = -100_777;
const tempDir = useTempDirs("outbox-topics");

let clock: FakeClock;
let tg: FakeBotApi;
let store: Store;
let log: EventLog;
let setAside: TopicRecord[];
/** Whether each topic set aside was closed (else deleted), as Telegram's refusal said. */
let closedAside: boolean[];
let topics: ChatTopics;
let box: Outbox;

beforeEach(async () => {
  clock = createFakeClock(T0);
  tg = await startFakeBotApi({ now: () => clock.now() });
  tg.addUser({ id: ALICE, firstName: "Alice" });
  tg.addGroup({ id: FORUM, memberIds: [ALICE] });
  store = openStore(tempDir());
  log = eventLog();
  setAside = [];
  closedAside = [];
  topics = new ChatTopics([], store.chats, (topic, closed) => {
    setAside.push(topic);
    closedAside.push(closed);
  });
  box = new Outbox({
    api: new Bot(tg.token, { client: { apiRoot: tg.apiRoot } }).api,
    clock,
    logger: log,
    chatTopics: topics,
    random: () => 0.5,
  });
});

afterEach(async () => {
  box.stop();
  store.close();
  await tg.close();
});

/** A topic of the forum as Telecode knows it: its id, and its thread in Telegram. */
function topic(name: string): { id: number; thread: number } {
  const thread = tg.topics.create(FORUM, name);
  const update = { message: { chat: { id: FORUM }, message_thread_id: thread, is_topic_message: true } };
  topics.readUpdate(update);
  return { id: update.message.chat.id, thread };
}

const html = (text: string) => ({ html: text });

describe("a topic", () => {
  it("gets its messages, files and typing in its thread; the group's own go to General", async () => {
    const build = topic("Build");
    box.typing(build.id);
    await driveUntilDone(box, clock);
    const sent = [
      box.send(build.id, html("In Build.")),
      box.sendDocument(build.id, { filename: "log.txt", data: Buffer.from("ok") }),
      box.send(FORUM, html("In General.")),
    ];
    await driveUntilDone(box, clock);
    expect((await Promise.all(sent)).every((d) => d.ok)).toBe(true);
    expect(tg.topics.botMessages(FORUM, build.thread).map((m) => m.text || m.document?.fileName)).toEqual([
      "In Build.",
      "log.txt",
    ]);
    expect(tg.topics.botMessages(FORUM, undefined).map((m) => m.text)).toEqual(["In General."]);
    expect(tg.chatActions(FORUM).map((a) => a.threadId)).toEqual([build.thread]);
  });

  it("shares its group's pace with the other topics and General", async () => {
    const [build, docs] = [topic("Build"), topic("Docs")];
    const sends = [build.id, docs.id, FORUM, build.id].map((id) => box.send(id, html(`to ${id}`)));
    await driveUntilDone(box, clock);
    await Promise.all(sends);
    expect(tg.calls("sendMessage").map((c) => c.atMs - T0)).toEqual([0, 3000, 6000, 9000]);
  });

  for (const [how, refuse] of [
    ["closed", (thread: number) => tg.topics.close(FORUM, thread)],
    ["deleted", (thread: number) => tg.topics.delete(FORUM, thread)],
  ] as const)
    it(`${how}: its messages go to General without their quote, and nothing is lost`, async () => {
      const release = topic("Release");
      const asked = tg.sendText(FORUM, "tag it", { topic: release.thread });
      refuse(release.thread);
      const answer = box.send(release.id, html("Tagged."), { replyTo: asked, mustDeliver: true });
      const next = box.send(release.id, html("And pushed."));
      await driveUntilDone(box, clock);
      expect(await answer).toMatchObject({ ok: true });
      expect(await next).toMatchObject({ ok: true });
      const general = tg.topics.botMessages(FORUM, undefined);
      expect(general.map((m) => [m.text, m.replyToMessageId])).toEqual([
        ["Tagged.", undefined],
        ["And pushed.", undefined],
      ]);
      expect(setAside.map((t) => t.threadId)).toEqual([release.thread]);
      expect(closedAside).toEqual([how === "closed"]);
      expect(log.fields("outbox.topic_refused")).toHaveLength(1);
    });
});
