// The bridge's side of a group becoming a supergroup (chat-moves.ts): moves are kept in the
// store, so a restart still writes to the new id and reads it as the first; every update is
// read through them before anything else sees it; a group that had used Telecode is told
// once that its sessions, settings and schedules came along, and its open prompts are asked
// again there.
import type { Context, MiddlewareFn } from "grammy";
import type { Logger } from "../../ports/index.js";
import type { Store } from "../../store/index.js";
import { ChatMoves, type ChatMove } from "../chat-moves.js";
import type { Outbox } from "../outbox.js";

export const CHAT_MOVED_TEXT =
  "ℹ️ This group became a supergroup, and Telegram gave it a new id. Telecode carries on here: the group's sessions, settings and schedules came with it.";

export type ChatMovedDeps = {
  store: Pick<Store, "chats" | "runs">;
  logger: Logger;
  /** The outbox, once it exists (it writes through the moves made here). */
  outbox: () => Pick<Outbox, "send">;
  /** Told of each move, after it is recorded (open prompts are asked again in the new chat). */
  onMoved: (move: ChatMove) => void;
};

/** The chat moves known so far, recording and announcing each new one. */
export function chatMovesOf(deps: ChatMovedDeps): ChatMoves {
  return new ChatMoves(deps.store.chats.moves(), (move: ChatMove) => {
    deps.store.chats.recordMove(move.from, move.to);
    deps.logger.event("telegram.chat_moved", { chatId: move.from, toChatId: move.to }, "warn");
    if (deps.store.runs.recent(move.from, 1).length > 0)
      void deps.outbox().send(move.from, { html: CHAT_MOVED_TEXT }, { mustDeliver: true });
    deps.onMoved(move);
  });
}

/** Reads every update through the moves; Telegram's own notice of a move needs nothing more. */
export function readThroughMoves(moves: ChatMoves): MiddlewareFn<Context> {
  return (ctx, next) => {
    moves.readUpdate(ctx.update);
    const message = ctx.update.message;
    if (message?.migrate_to_chat_id !== undefined || message?.migrate_from_chat_id !== undefined) return;
    return next();
  };
}
