// A message that is not text (a photo, a voice note…): in a private chat the person is told
// to send the task as text; elsewhere it is left alone.
import { Composer } from "grammy";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";

export function nonTextMessages(deps: Pick<BridgeServices, "outbox">): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  messages.on("message", (ctx) => {
    if (ctx.message.text !== undefined || ctx.chat.type !== "private") return;
    void deps.outbox.send(
      ctx.chat.id,
      { html: "I can only read text messages; send the task as text." },
      { replyTo: ctx.message.message_id },
    );
  });
  return messages;
}
