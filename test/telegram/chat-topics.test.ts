// Forum topics as Telecode reads them from Telegram's updates, kept in a real store: which
// messages are in a topic, the id each topic gets (the same after a restart), its name, and
// where its messages are written while Telegram refuses them in the topic.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store, type TopicRecord } from "../../src/store/index.js";
import { ChatTopics } from "../../src/telegram/chat-topics.js";
import { FIRST_INNER_CHAT_ID } from "../../src/domain/index.js";
import { useTempDirs } from "../support/temp-dirs.js";

const FORUM = -100_123;
const tempDir = useTempDirs("chat-topics");
let dir: string;
let store: Store;
let setAside: TopicRecord[];

beforeEach(() => {
  dir = tempDir();
  store = openStore(dir);
  setAside = [];
});
afterEach(() => store.close());

function topics(): ChatTopics {
  return new ChatTopics(store.chats.topics(), store.chats, (topic) => void setAside.push(topic));
}

const chat = (id: number) => ({ id, type: "supergroup", title: "Team" });

/** A person's message in topic `thread`, replying (as Telegram has it) to the topic's first message. */
function inTopic(thread: number, messageId: number, extra: Record<string, unknown> = {}) {
  return {
    message_id: messageId,
    chat: chat(FORUM),
    date: 0,
    text: "hello",
    message_thread_id: thread,
    is_topic_message: true,
    reply_to_message: {
      message_id: thread,
      chat: chat(FORUM),
      date: 0,
      message_thread_id: thread,
      is_topic_message: true,
      forum_topic_created: { name: "Build", icon_color: 7322096 },
    },
    ...extra,
  };
}

describe("reading updates", () => {
  it("gives a topic's messages the topic's id, the same one after a restart, and its name", () => {
    const update = { update_id: 1, message: inTopic(40, 41) };
    topics().readUpdate(update);
    const id = update.message.chat.id;
    expect(id).toBeLessThan(FIRST_INNER_CHAT_ID);
    expect(store.chats.topics()).toEqual([{ chatId: id, parentChatId: FORUM, threadId: 40, name: "Build" }]);
    // The topic's first message is no reply.
    expect(update.message).not.toHaveProperty("reply_to_message");

    const later = { update_id: 2, edited_message: inTopic(40, 41) };
    const again = topics();
    again.readUpdate(later);
    expect(later.edited_message.chat.id).toBe(id);
    expect(again.placeOf(id)).toEqual({ chatId: FORUM, threadId: 40 });
    expect(again.parentOf(id)).toBe(FORUM);
  });

  it("keeps a real reply in the topic as one, and reads the message under a tapped button too", () => {
    const read = topics();
    const replied = {
      update_id: 1,
      message: inTopic(40, 43, {
        reply_to_message: {
          message_id: 42,
          chat: chat(FORUM),
          date: 0,
          text: "the bot's answer",
          is_topic_message: true,
        },
      }),
    };
    read.readUpdate(replied);
    const id = replied.message.chat.id;
    expect(replied.message.reply_to_message).toMatchObject({ message_id: 42, chat: { id } });

    const tap = { update_id: 2, callback_query: { id: "q", data: "x", message: inTopic(40, 42) } };
    read.readUpdate(tap);
    expect(tap.callback_query.message.chat.id).toBe(id);
  });

  it("leaves General, a group's reply threads and other chats as they are, and reads an update once", () => {
    const read = topics();
    const general = { update_id: 1, message: { message_id: 5, chat: chat(FORUM), date: 0, text: "hi" } };
    // A reply in a group without topics has a thread id too, but is in no topic.
    const thread = {
      update_id: 2,
      message: { message_id: 6, chat: chat(-100_9), date: 0, text: "hi", message_thread_id: 3 },
    };
    read.readUpdate(general);
    read.readUpdate(thread);
    expect([general.message.chat.id, thread.message.chat.id]).toEqual([FORUM, -100_9]);

    const update = { update_id: 3, message: inTopic(40, 44) };
    read.readUpdate(update);
    const id = update.message.chat.id;
    read.readUpdate(update); // handled again after a restart
    expect(update.message.chat.id).toBe(id);
    expect(store.chats.topics()).toHaveLength(1);
  });

  it("learns a topic's new name", () => {
    const read = topics();
    read.readUpdate({ update_id: 1, message: inTopic(40, 41) });
    read.readUpdate({
      update_id: 2,
      message: inTopic(40, 45, { text: undefined, forum_topic_edited: { name: "Build & release" } }),
    });
    expect(store.chats.topics()[0]?.name).toBe("Build & release");
    expect(topics().topic(store.chats.topics()[0]!.chatId)?.name).toBe("Build & release");
  });
});

describe("a topic Telegram refuses messages in", () => {
  it("is written to in its chat's main view, said once, until Telegram says it was reopened", () => {
    const read = topics();
    const update = { update_id: 1, message: inTopic(40, 41) };
    read.readUpdate(update);
    const id = update.message.chat.id;
    expect(read.refused(id, true)).toBe(true);
    expect(read.refused(id, true)).toBe(false);
    expect(read.placeOf(id)).toEqual({ chatId: FORUM, aside: true });
    expect(setAside.map((t) => t.name)).toEqual(["Build"]);
    // A chat that is no topic has nowhere else to go.
    expect(read.refused(FORUM, true)).toBe(false);

    // What was written in the main view for it, a reply there to that, and a tap on its
    // buttons are read as the topic's; the rest of the main view is not.
    read.wrote(id, 50);
    const general = (messageId: number, extra: Record<string, unknown> = {}) => ({
      message_id: messageId,
      chat: chat(FORUM),
      date: 0,
      text: "go on",
      ...extra,
    });
    const replied = { update_id: 2, message: general(51, { reply_to_message: general(50) }) };
    const tap = { update_id: 3, callback_query: { id: "q", data: "x", message: general(50) } };
    const other = { update_id: 4, message: general(52) };
    for (const update of [replied, tap, other]) read.readUpdate(update);
    expect([replied.message.chat.id, tap.callback_query.message.chat.id, other.message.chat.id]).toEqual([
      id,
      id,
      FORUM,
    ]);
    expect([50, 51, 52].map((m) => read.inMainView(id, m))).toEqual([true, true, false]);

    read.readUpdate({ update_id: 5, message: inTopic(40, 46, { text: undefined, forum_topic_reopened: {} }) });
    expect(read.placeOf(id)).toEqual({ chatId: FORUM, threadId: 40 });
  });
});
