import { describe, expect, it } from "vitest";
import { ChatMoves, NEW_CHAT_IDS, type ChatMove } from "../../src/telegram/chat-moves.js";

function moves(known: ChatMove[] = []): { moves: ChatMoves; told: ChatMove[] } {
  const told: ChatMove[] = [];
  return { moves: new ChatMoves(known, (move) => told.push(move)), told };
}

describe("ChatMoves", () => {
  it("learns a move from either of Telegram's notices, and tells of it once", () => {
    const { moves: m, told } = moves();
    m.readUpdate({ update_id: 1, message: { message_id: 9, chat: { id: -5 }, migrate_to_chat_id: -100_5 } });
    m.readUpdate({ update_id: 2, message: { message_id: 1, chat: { id: -100_5 }, migrate_from_chat_id: -5 } });
    expect(told).toEqual([{ from: -5, to: -100_5 }]);
    expect(m.record(-5, -100_5)).toBe(false);
    expect([m.firstId(-100_5), m.currentId(-5), m.currentId(-100_5), m.currentId(7)]).toEqual([-5, -100_5, -100_5, 7]);
  });

  it("reads an update from the new id as from the first, with the new chat's message ids shifted", () => {
    const { moves: m } = moves([{ from: -5, to: -100_5 }]);
    const update = {
      update_id: 3,
      callback_query: {
        id: "q",
        message: {
          message_id: 4,
          chat: { id: -100_5, type: "supergroup" },
          reply_to_message: { message_id: 2, chat: { id: -100_5 } },
        },
      },
    };
    m.readUpdate(update);
    expect(update.callback_query.message).toEqual({
      message_id: 4 + NEW_CHAT_IDS,
      chat: { id: -5, type: "supergroup" },
      reply_to_message: { message_id: 2 + NEW_CHAT_IDS, chat: { id: -5 } },
    });
    // An anonymous admin's message is sent as the group: still the same chat.
    const anonymous = { update_id: 5, message: { message_id: 6, chat: { id: -100_5 }, sender_chat: { id: -100_5 } } };
    m.readUpdate(anonymous);
    expect(anonymous.message).toEqual({ message_id: 6 + NEW_CHAT_IDS, chat: { id: -5 }, sender_chat: { id: -5 } });
    const other = { update_id: 4, message: { message_id: 4, chat: { id: -9 } } };
    m.readUpdate(other);
    expect(other.message).toEqual({ message_id: 4, chat: { id: -9 } });
  });

  it("gives Telegram's id for the new chat's messages and none for the old group's", () => {
    const { moves: m } = moves([{ from: -5, to: -100_5 }]);
    expect(m.keptMessageId(-5, 3)).toBe(3 + NEW_CHAT_IDS);
    expect(m.wireMessageId(-5, 3 + NEW_CHAT_IDS)).toBe(3);
    expect(m.wireMessageId(-5, 3)).toBeUndefined();
    expect([m.keptMessageId(-9, 3), m.wireMessageId(-9, 3)]).toEqual([3, 3]);
  });
});
