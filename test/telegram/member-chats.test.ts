// Group members' own conversations (telegram.group_sessions) as Telecode reads them from
// Telegram's updates, kept in a real store: whose conversation a message in a group's main view
// is, a reply or a tap going to the conversation of the bot message it is on, and where the
// conversations' messages are written.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isInnerChatId } from "../../src/domain/index.js";
import { silentLogger } from "../../src/ports/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { ChatTopics } from "../../src/telegram/chat-topics.js";
import { MemberChats } from "../../src/telegram/member-chats.js";
import { useTempDirs } from "../support/temp-dirs.js";

const GROUP = -100_77;
const [ANN, BOB, STRANGER] = [1001, 1002, 666];
const tempDir = useTempDirs("member-chats");
let store: Store;
let perPerson: boolean;

beforeEach(() => {
  store = openStore(tempDir());
  perPerson = true;
});
afterEach(() => store.close());

function chats(): ChatTopics {
  const hasOwn = (userId: number) => perPerson && userId !== STRANGER;
  return new ChatTopics([], store.chats, () => undefined, new MemberChats(store.chats, hasOwn, silentLogger));
}

type Json = Record<string, unknown> & { chat: { id: number } };

/** A message in `chatId` from `from` (a person, or the bot), with `extra` fields. */
function message(messageId: number, from: number | "bot", extra: Record<string, unknown> = {}, chatId = GROUP): Json {
  const sender = from === "bot" ? { id: 42, is_bot: true, first_name: "Telecode" } : { id: from, is_bot: false };
  const json = {
    message_id: messageId,
    chat: { id: chatId, type: "supergroup" },
    from: sender,
    date: 0,
    text: "hi",
    ...extra,
  };
  return JSON.parse(JSON.stringify(json)) as Json; // as Telegram sends it: no field without a value
}

/** The chat id Telecode reads `json` (a message) as, after reading it through `read`. */
function readAs(read: ChatTopics, json: Json, kind: "message" | "edited_message" | "tap" = "message"): number {
  const update = kind === "tap" ? { callback_query: { id: "q", data: "x", message: json } } : { [kind]: json };
  read.readUpdate({ update_id: 1, ...update });
  return json.chat.id;
}

describe('with group_sessions = "per_person"', () => {
  it("reads each member's messages as their own conversation's, the same one after a restart", () => {
    const read = chats();
    const ann = readAs(read, message(1, ANN));
    const bob = readAs(read, message(2, BOB));
    expect(isInnerChatId(ann)).toBe(true);
    expect(bob).not.toBe(ann);
    expect(readAs(read, message(3, ANN, { text: undefined, photo: [] }))).toBe(ann);
    expect(readAs(read, message(1, ANN, { text: "hi, edited" }), "edited_message")).toBe(ann);
    expect(readAs(chats(), message(4, ANN))).toBe(ann);
    // Written in the group's main view, as the group's own messages are.
    expect(read.placeOf(ann)).toEqual({ chatId: GROUP });
    expect(read.parentOf(ann)).toBe(GROUP);
    expect(read.parentOf(GROUP)).toBe(GROUP);
  });

  it("leaves Telegram's notices, bots' and strangers' messages, and private chats as they are", () => {
    const read = chats();
    const notices = [
      message(1, ANN, { text: undefined, new_chat_members: [{ id: BOB }] }),
      message(2, ANN, { text: undefined, migrate_to_chat_id: -100_78 }),
      message(3, ANN, { text: undefined, pinned_message: message(1, ANN) }),
    ];
    for (const notice of notices) expect(readAs(read, notice)).toBe(GROUP);
    expect(readAs(read, message(4, "bot"))).toBe(GROUP);
    expect(readAs(read, message(6, STRANGER))).toBe(GROUP);
    expect(readAs(read, message(5, ANN, {}, ANN))).toBe(ANN);
  });

  it("reads a reply to a bot message, and a tap on its buttons, as that message's conversation's, whoever sends it", () => {
    const read = chats();
    const ann = readAs(read, message(1, ANN));
    read.wrote(ann, 2);
    read.wrote(GROUP, 3);
    const reply = message(4, BOB, { reply_to_message: message(2, "bot") });
    expect(readAs(read, reply)).toBe(ann);
    expect((reply.reply_to_message as Json).chat.id).toBe(ann);
    expect(readAs(chats(), message(2, "bot"), "tap")).toBe(ann);
    // The group's own messages (from before, or a notice) stay the group's; so do unknown ones.
    expect(readAs(read, message(5, BOB, { reply_to_message: message(3, "bot") }))).toBe(GROUP);
    expect(readAs(read, message(3, "bot"), "tap")).toBe(GROUP);
    expect(readAs(read, message(9, "bot"), "tap")).toBe(GROUP);
    // A reply to a colleague's own message is the replier's task, with that message to read.
    const bob = readAs(read, message(6, BOB, { reply_to_message: message(1, ANN) }));
    expect(bob).not.toBe(ann);
    expect(readAs(read, message(7, BOB))).toBe(bob);
  });
});

describe("a store that refuses a write", () => {
  it("leaves the message sent: which conversation it is of goes unkept, logged", () => {
    const events: string[] = [];
    const logger = { ...silentLogger, event: (name: string) => void events.push(name) };
    const refusing = {
      ...store.chats,
      recordGroupMessage: () => {
        throw new Error("database or disk is full");
      },
    };
    const members = new MemberChats(refusing, () => true, logger);
    expect(() => members.wrote(GROUP, 5)).not.toThrow();
    expect(events).toEqual(["telegram.group_message_unkept"]);
  });
});

describe('with group_sessions = "shared"', () => {
  it("reads the group's main view as one conversation, where a reply to a member's conversation still goes on in it", () => {
    const read = chats();
    const ann = readAs(read, message(1, ANN));
    read.wrote(ann, 2);
    perPerson = false;
    expect(readAs(read, message(3, ANN))).toBe(GROUP);
    expect(readAs(read, message(4, BOB, { reply_to_message: message(2, "bot") }))).toBe(ann);
    expect(readAs(read, message(2, "bot"), "tap")).toBe(ann);
  });
});
