// Chat preferences: one row per chat, created on the first change. Reading a chat that
// never changed anything returns the defaults rather than null. Also the groups that became
// supergroups, with the new id each has: everything else stays kept under a chat's first id.
// And the chats inside a Telegram chat, each a chat of its own under an id of Telecode's
// (domain/inner-chat-ids.ts): forum topics, and group members' own conversations
// (telegram.group_sessions), with the conversation each bot message in a group's main view is
// of. An inner chat that never changed anything reads as its group does.
import type { Database } from "better-sqlite3";
import { FIRST_INNER_CHAT_ID, isInnerChatId } from "../domain/index.js";
import { chatRow, readRow, readRows, type ChatPreferences } from "./records.js";

/** A forum topic: Telecode's id for it (`chatId`), and where it is in Telegram. */
export type TopicRecord = { chatId: number; parentChatId: number; threadId: number; name: string | null };

/** A group member's own conversation: Telecode's id for it (`chatId`), the group and the member. */
export type MemberChatRecord = { chatId: number; parentChatId: number; userId: number };

export type ChatPreferencesPatch = Partial<Omit<ChatPreferences, "chatId" | "updatedAt">>;

export type ChatsRepository = {
  /** The chat's preferences, or the defaults (nulls, previews off, questions and loops on) if never set. */
  get(chatId: number): ChatPreferences;
  /** Changes only the fields given; returns the preferences as stored. */
  update(chatId: number, patch: ChatPreferencesPatch): ChatPreferences;
  list(): ChatPreferences[];
  /** Chat `from` (its first id) is now chat `to`; a move already recorded is left as it is. */
  recordMove(from: number, to: number): void;
  /** Every recorded move, oldest first. */
  moves(): { from: number; to: number }[];
  /** Topic `threadId` of chat `parentChatId`, given an id the first time it is seen. */
  topic(parentChatId: number, threadId: number, name: string | null): TopicRecord;
  /** The topic Telecode knows by `chatId`, if any. */
  topicById(chatId: number): TopicRecord | undefined;
  /** The topic's name as Telegram last told it. */
  nameTopic(chatId: number, name: string): void;
  /** Every topic seen. */
  topics(): TopicRecord[];
  /** Member `userId`'s own conversation in group `parentChatId`, given an id the first time. */
  memberChat(parentChatId: number, userId: number): MemberChatRecord;
  /** The member's conversation Telecode knows by `chatId`, if any. */
  memberChatById(chatId: number): MemberChatRecord | undefined;
  /** The bot wrote message `messageId` in group `parentChatId`'s main view for chat `chatId`. */
  recordGroupMessage(parentChatId: number, messageId: number, chatId: number): void;
  /** The chat a bot message in a group's main view was written for, if kept. */
  groupMessageChat(parentChatId: number, messageId: number): number | undefined;
  /** Forgets which chat the group messages written before `beforeMs` were for; returns how many. */
  pruneGroupMessages(beforeMs: number): number;
};

type TopicRow = { chat_id: number; parent_chat_id: number; thread_id: number; name: string | null };

const topicRecord = (row: TopicRow): TopicRecord => ({
  chatId: row.chat_id,
  parentChatId: row.parent_chat_id,
  threadId: row.thread_id,
  name: row.name,
});

type MemberChatRow = { chat_id: number; parent_chat_id: number; user_id: number };

const memberChatRecord = (row: MemberChatRow): MemberChatRecord => ({
  chatId: row.chat_id,
  parentChatId: row.parent_chat_id,
  userId: row.user_id,
});

/** The next inner chat's id: one below the lowest given to a topic or a member's conversation. */
const NEXT_INNER_CHAT_ID = `(SELECT MIN(id) - 1 FROM (
  SELECT MIN(chat_id) AS id FROM topics UNION ALL SELECT MIN(chat_id) FROM member_chats
  UNION ALL SELECT ${FIRST_INNER_CHAT_ID}))`;

const bit = (value: boolean): 0 | 1 => (value ? 1 : 0);

export function createChatsRepository(db: Database, now: () => number): ChatsRepository {
  const select = db.prepare("SELECT * FROM chats WHERE chat_id = ?");
  const selectAll = db.prepare("SELECT * FROM chats ORDER BY chat_id");
  const insertMove = db.prepare(
    "INSERT INTO chat_moves (from_chat_id, to_chat_id, moved_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
  );
  const selectMoves = db.prepare<[], { from_chat_id: number; to_chat_id: number }>(
    "SELECT from_chat_id, to_chat_id FROM chat_moves ORDER BY moved_at, rowid",
  );
  const selectTopic = db.prepare<[number, number], TopicRow>(
    "SELECT * FROM topics WHERE parent_chat_id = ? AND thread_id = ?",
  );
  const selectTopicById = db.prepare<[number], TopicRow>("SELECT * FROM topics WHERE chat_id = ?");
  const insertTopic = db.prepare(`
    INSERT INTO topics (chat_id, parent_chat_id, thread_id, name, created_at)
    VALUES (${NEXT_INNER_CHAT_ID}, ?, ?, ?, ?)`);
  const selectMember = db.prepare<[number, number], MemberChatRow>(
    "SELECT * FROM member_chats WHERE parent_chat_id = ? AND user_id = ?",
  );
  const selectMemberById = db.prepare<[number], MemberChatRow>("SELECT * FROM member_chats WHERE chat_id = ?");
  const insertMember = db.prepare(`
    INSERT INTO member_chats (chat_id, parent_chat_id, user_id, created_at) VALUES (${NEXT_INNER_CHAT_ID}, ?, ?, ?)`);
  const insertGroupMessage = db.prepare(`
    INSERT INTO group_messages (parent_chat_id, message_id, chat_id, written_at) VALUES (?, ?, ?, ?)
    ON CONFLICT DO UPDATE SET chat_id = excluded.chat_id, written_at = excluded.written_at`);
  const selectGroupMessage = db.prepare<[number, number], { chat_id: number }>(
    "SELECT chat_id FROM group_messages WHERE parent_chat_id = ? AND message_id = ?",
  );
  const pruneGroupMessages = db.prepare("DELETE FROM group_messages WHERE written_at < ?");
  const renameTopic = db.prepare("UPDATE topics SET name = ? WHERE chat_id = ?");
  const selectTopics = db.prepare<[], TopicRow>("SELECT * FROM topics ORDER BY chat_id DESC");
  const upsert = db.prepare(`
    INSERT INTO chats (chat_id, mode, model, effort, project, preview, questions, listen_to_all, loops, updated_at)
    VALUES (@chat_id, @mode, @model, @effort, @project, @preview, @questions, @listen_to_all, @loops, @updated_at)
    ON CONFLICT (chat_id) DO UPDATE SET
      mode = excluded.mode, model = excluded.model, effort = excluded.effort, project = excluded.project,
      preview = excluded.preview, questions = excluded.questions, listen_to_all = excluded.listen_to_all,
      loops = excluded.loops, updated_at = excluded.updated_at`);

  const defaults = (chatId: number): ChatPreferences => ({
    chatId,
    mode: null,
    model: null,
    effort: null,
    project: null,
    preview: false,
    questions: true,
    listenToAll: false,
    loops: true,
    updatedAt: 0,
  });

  const get = (chatId: number): ChatPreferences => {
    const row = select.get(chatId);
    if (row !== undefined) return readRow(chatRow, "chats", row);
    const parent = isInnerChatId(chatId) ? (selectTopicById.get(chatId) ?? selectMemberById.get(chatId)) : undefined;
    return parent === undefined ? defaults(chatId) : { ...get(parent.parent_chat_id), chatId, updatedAt: 0 };
  };

  const topic = db.transaction((parentChatId: number, threadId: number, name: string | null): TopicRecord => {
    const known = selectTopic.get(parentChatId, threadId);
    if (known !== undefined) return topicRecord(known);
    insertTopic.run(parentChatId, threadId, name, now());
    return topicRecord(selectTopic.get(parentChatId, threadId)!);
  });

  const memberChat = db.transaction((parentChatId: number, userId: number): MemberChatRecord => {
    const known = selectMember.get(parentChatId, userId);
    if (known !== undefined) return memberChatRecord(known);
    insertMember.run(parentChatId, userId, now());
    return memberChatRecord(selectMember.get(parentChatId, userId)!);
  });

  const update = db.transaction((chatId: number, patch: ChatPreferencesPatch): ChatPreferences => {
    const next = { ...get(chatId), ...patch };
    upsert.run({
      chat_id: chatId,
      mode: next.mode,
      model: next.model,
      effort: next.effort,
      project: next.project,
      preview: bit(next.preview),
      questions: bit(next.questions),
      listen_to_all: bit(next.listenToAll),
      loops: bit(next.loops),
      updated_at: now(),
    });
    return get(chatId);
  });

  return {
    get,
    update: (chatId, patch) => update(chatId, patch),
    list: () => readRows(chatRow, "chats", selectAll.all()),
    recordMove: (from, to) => void insertMove.run(from, to, now()),
    moves: () => selectMoves.all().map((row) => ({ from: row.from_chat_id, to: row.to_chat_id })),
    topic: (parentChatId, threadId, name) => topic(parentChatId, threadId, name),
    nameTopic: (chatId, name) => void renameTopic.run(name, chatId),
    topics: () => selectTopics.all().map(topicRecord),
    topicById: (chatId) => {
      const row = selectTopicById.get(chatId);
      return row === undefined ? undefined : topicRecord(row);
    },
    memberChat: (parentChatId, userId) => memberChat(parentChatId, userId),
    memberChatById: (chatId) => {
      const row = selectMemberById.get(chatId);
      return row === undefined ? undefined : memberChatRecord(row);
    },
    recordGroupMessage: (parentChatId, messageId, chatId) =>
      void insertGroupMessage.run(parentChatId, messageId, chatId, now()),
    groupMessageChat: (parentChatId, messageId) => selectGroupMessage.get(parentChatId, messageId)?.chat_id,
    pruneGroupMessages: (beforeMs) => pruneGroupMessages.run(beforeMs).changes,
  };
}
