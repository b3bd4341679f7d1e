// A group Telegram turns into a supergroup (someone made it public, turned on topics, let new
// members see its history…) gets a new chat id, and the old id refuses every message from then
// on. Telecode goes on knowing the chat by the id it first had — its sessions, settings,
// schedules and runs are kept under it — and talks to it at the new one: updates from the new
// id are read as from the first, and the outbox writes to the new.
//
// The new chat numbers its messages from 1 again, so a message id alone could name a message
// of either. Ids of the new chat are therefore kept shifted by NEW_CHAT_IDS, everywhere (in
// memory, in the database, across restarts): an unshifted id of a moved chat is a message of
// the old group, which nothing can edit or answer any more.

/** A move as Telegram reports it: the chat's first id, and the id it has now. */
export type ChatMove = { from: number; to: number };

/** Added to the message ids of a moved chat's new id (Telegram's stay far below 2^31). */
export const NEW_CHAT_IDS = 2 ** 40;

export class ChatMoves {
  /** First id → id now. */
  readonly #now = new Map<number, number>();
  /** Id now → first id. */
  readonly #first = new Map<number, number>();
  readonly #onMove: (move: ChatMove) => void;

  /** `known`: the moves recorded before. `onMove`: told of each new one, once. */
  constructor(known: readonly ChatMove[], onMove: (move: ChatMove) => void) {
    for (const move of known) this.#remember(move);
    this.#onMove = onMove;
  }

  /** Telegram says chat `from` is now `to`. Returns whether this is news. */
  record(from: number, to: number): boolean {
    const first = this.firstId(from);
    if (this.#now.get(first) === to || first === to) return false;
    const move = { from: first, to };
    this.#remember(move);
    this.#onMove(move);
    return true;
  }

  /** The id Telecode knows the chat by (its first). */
  firstId(chatId: number): number {
    return this.#first.get(chatId) ?? chatId;
  }

  /** The id to write to. */
  currentId(chatId: number): number {
    return this.#now.get(this.firstId(chatId)) ?? chatId;
  }

  /** Telegram's id of message `messageId` of chat `chatId` (both as Telecode keeps them); undefined for one left in the old group. */
  wireMessageId(chatId: number, messageId: number): number | undefined {
    if (!this.#now.has(this.firstId(chatId))) return messageId;
    return messageId >= NEW_CHAT_IDS ? messageId - NEW_CHAT_IDS : undefined;
  }

  /** How Telecode keeps the id of a message Telegram just gave chat `chatId`. */
  keptMessageId(chatId: number, messageId: number): number {
    return this.#now.has(this.firstId(chatId)) ? messageId + NEW_CHAT_IDS : messageId;
  }

  /**
   * Reads an update as Telecode keeps its chats: wherever it names a moved chat's new id, the
   * chat becomes its first id and the message's id is shifted. Telegram's own notices of a
   * move are recorded first.
   */
  readUpdate(update: object): void {
    this.#learn(update);
    if (this.#first.size > 0) this.#rename(update, 0);
  }

  #learn(update: object): void {
    const message = (update as { message?: { chat?: { id?: unknown } } & Record<string, unknown> }).message;
    const chatId = message?.chat?.id;
    if (typeof chatId !== "number") return;
    const to = message?.["migrate_to_chat_id"];
    const from = message?.["migrate_from_chat_id"];
    if (typeof to === "number") this.record(chatId, to);
    if (typeof from === "number") this.record(from, chatId);
  }

  #rename(value: object, depth: number): void {
    if (depth > 4) return;
    const record = value as Record<string, unknown>;
    if (this.#renameChat(record["chat"]) && typeof record["message_id"] === "number")
      record["message_id"] += NEW_CHAT_IDS;
    // A message an anonymous admin sent is sent as the group: the same chat.
    this.#renameChat(record["sender_chat"]);
    for (const [key, inner] of Object.entries(record))
      if (key !== "chat" && key !== "sender_chat" && typeof inner === "object" && inner !== null)
        this.#rename(inner, depth + 1);
  }

  /** Gives `chat`, if it is a moved chat at its new id, its first id; whether it did. */
  #renameChat(chat: unknown): boolean {
    const id = (chat as { id?: unknown } | undefined)?.id;
    if (typeof id !== "number" || !this.#first.has(id)) return false;
    (chat as { id: number }).id = this.#first.get(id)!;
    return true;
  }

  #remember(move: ChatMove): void {
    this.#now.set(move.from, move.to);
    this.#first.set(move.to, move.from);
  }
}
