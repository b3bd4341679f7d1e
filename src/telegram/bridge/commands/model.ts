// /model [NAME|default]: the chat's model from the next message.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { Command } from "./command.js";

export const modelCommand: Command = {
  command: "model",
  description: "Show or set the model",
  run(call, { store }) {
    const { word, settings } = call;
    if (word === "")
      return call.say(
        `Model: <b>${esc(settings.model ?? "the CLI's default")}</b>. Use /model NAME, or /model default.`,
      );
    const model = word === "default" ? null : (call.args.trim().split(/\s+/)[0] ?? null);
    store.chats.update(call.message.chatId, { model });
    call.say(`Model is now <b>${esc(model ?? "the CLI's default")}</b> from the next message.`);
  },
};
