// A person edits a message they sent: Telegram's apps make it easy (a typo fixed a moment
// later), but Claude Code works from a message as it was sent. An edit of a text still queued
// behind a running task changes what that task runs with; an edit of a message that already
// started a run (or cannot be changed: a command line, an attachment's caption) does not reach
// Claude, and the person is told so instead of believing it did. Other edits are left alone.
import { Composer } from "grammy";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { incomingText } from "./incoming.js";
import { SPLIT_TEXT_CHARS } from "./text.js";

export type EditedDeps = Pick<BridgeServices, "store" | "sessions" | "outbox" | "logger" | "control">;

export const EDIT_APPLIED = "✏️ Changed: the queued message runs as you edited it.";
export const EDIT_NOT_REACHING =
  "✏️ This edit does not reach Claude, which works from the message as first sent. Send the change as a new message.";

export function editedMessages(deps: EditedDeps): Composer<TelecodeContext> {
  const edits = new Composer<TelecodeContext>();
  edits.on("edited_message", (ctx) => {
    const message = ctx.editedMessage;
    if (ctx.person === undefined) return;
    const chatId = message.chat.id;
    const messageId = message.message_id;
    const edited =
      message.text === undefined
        ? undefined
        : incomingText(message, message.text, ctx.person, deps.control.botUsername());
    // Only a plain text's words replace a plain text prompt: a directive or command line is read
    // otherwise, and a long paste the app split was joined from parts, of which this is one.
    const words = edited?.slash === undefined && edited?.body.trim() ? edited.body : undefined;
    const outcome = deps.sessions.amendQueued(chatId, messageId, (prompt) =>
      words !== undefined && typeof prompt === "string" && prompt.length < SPLIT_TEXT_CHARS ? words : undefined,
    );
    const ran = outcome === "not_queued" && deps.store.runs.startedBy(chatId, messageId) !== null;
    deps.logger.event("telegram.message_edited", { chatId, messageId, outcome: ran ? "ran" : outcome });
    if (outcome === "not_queued" && !ran) return;
    const html = outcome === "amended" ? EDIT_APPLIED : EDIT_NOT_REACHING;
    void deps.outbox.send(chatId, { html }, { replyTo: messageId });
  });
  return edits;
}
