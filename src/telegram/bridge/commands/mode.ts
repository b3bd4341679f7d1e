// /mode [MODE]: shows the modes as buttons, or sets one from the next message.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { MODE_CHOICES, modeKeyboard } from "../buttons/mode.js";
import { modeFromWord } from "../command-text.js";
import type { Command } from "./command.js";

export const modeCommand: Command = {
  command: "mode",
  description: "Choose the permission mode",
  run(call, { store, outbox, callbacks }) {
    const { word, settings, message } = call;
    if (word === "") {
      const keyboard = modeKeyboard(callbacks, message.chatId, settings.mode);
      void outbox.send(
        message.chatId,
        { html: `Mode is <b>${esc(settings.mode)}</b>. Choose another:`, keyboard },
        { replyTo: message.messageId },
      );
      return;
    }
    const mode = modeFromWord(word);
    if (mode === undefined) return call.say(`Unknown mode “${esc(word)}”. Modes: ${MODE_CHOICES.join(", ")}.`);
    store.chats.update(message.chatId, { mode });
    call.say(`Mode is now <b>${esc(mode)}</b> from the next message.`);
  },
};
