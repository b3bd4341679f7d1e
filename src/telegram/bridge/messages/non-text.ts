// A message the bot cannot read (a sticker, a location, a poll…): in a private chat the
// person is told which kind it cannot read and what it does read; elsewhere it is left alone,
// as are Telegram's own notices (a topic created or closed, a message pinned, a checklist's
// task ticked).
import { Composer } from "grammy";
import type { Message } from "grammy/types";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";

/** The kinds of message a person may send that carry no task, as the reply names them. */
const UNREADABLE: readonly (readonly [keyof Message, string])[] = [
  ["sticker", "stickers"],
  ["location", "locations"],
  ["venue", "places"],
  ["contact", "contacts"],
  ["poll", "polls"],
  ["dice", "dice"],
  ["game", "games"],
  ["story", "stories"],
];

/** Telegram's notices in a private chat with a bot: nobody sent them as a task. */
const NOTICES: readonly (keyof Message)[] = [
  "forum_topic_created",
  "forum_topic_edited",
  "forum_topic_closed",
  "forum_topic_reopened",
  "general_forum_topic_hidden",
  "general_forum_topic_unhidden",
  "pinned_message",
  "message_auto_delete_timer_changed",
  "write_access_allowed",
  "chat_background_set",
  "users_shared",
  "chat_shared",
  "successful_payment",
  "refunded_payment",
  "checklist_tasks_done",
  "checklist_tasks_added",
];

/** What the bot says to a message it cannot read: which kind, and what it reads instead. */
export function unreadableText(message: Message): string {
  const kind = UNREADABLE.find(([field]) => message[field] !== undefined)?.[1] ?? "this kind of message";
  return `I can't read ${kind}. Send the task as text, a photo, a video, a file or a voice note.`;
}

export function nonTextMessages(deps: Pick<BridgeServices, "outbox">): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  messages.on("message", (ctx) => {
    if (ctx.message.text !== undefined || ctx.chat.type !== "private") return;
    if (NOTICES.some((notice) => ctx.message[notice] !== undefined)) return;
    void deps.outbox.send(ctx.chat.id, { html: unreadableText(ctx.message) }, { replyTo: ctx.message.message_id });
  });
  return messages;
}
