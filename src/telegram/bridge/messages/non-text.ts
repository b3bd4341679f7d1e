// A message the bot cannot read (a sticker, a video, a location…): in a private chat the
// person is told what it does read; elsewhere it is left alone.
import { Composer } from "grammy";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";

export function nonTextMessages(deps: Pick<BridgeServices, "outbox">): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  messages.on("message", (ctx) => {
    if (ctx.message.text !== undefined || ctx.chat.type !== "private") return;
    void deps.outbox.send(
      ctx.chat.id,
      {
        html: "I can read text, photos, files and voice notes, but not this kind of message; send the task as one of those.",
      },
      { replyTo: ctx.message.message_id },
    );
  });
  return messages;
}
