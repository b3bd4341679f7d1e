// Chat preferences: one row per chat, created on the first change. Reading a chat that
// never changed anything returns the defaults rather than null. Also the groups that became
// supergroups, with the new id each has: everything else stays kept under a chat's first id.
import type { Database } from "better-sqlite3";
import { chatRow, readRow, readRows, type ChatPreferences } from "./records.js";

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
};

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
    return row === undefined ? defaults(chatId) : readRow(chatRow, "chats", row);
  };

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
  };
}
