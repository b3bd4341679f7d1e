// /effort [LEVEL|default]: the chat's reasoning effort from the next message.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { Command } from "./command.js";

const EFFORT_WORDS = ["low", "medium", "high", "xhigh", "max"] as const;

export const effortCommand: Command = {
  command: "effort",
  description: "Show or set the reasoning effort",
  run(call, { store }) {
    const { word, settings } = call;
    if (word === "")
      return call.say(
        `Effort: <b>${esc(settings.effort ?? "the CLI's default")}</b>. Use /effort ${EFFORT_WORDS.join("|")} or default.`,
      );
    const effort = word === "default" ? null : EFFORT_WORDS.find((e) => e === word);
    if (effort === undefined)
      return call.say(`Unknown effort “${esc(word)}”. Choose ${EFFORT_WORDS.join(", ")} or default.`);
    store.chats.update(call.message.chatId, { effort });
    call.say(`Effort is now <b>${esc(effort ?? "the CLI's default")}</b> from the next message.`);
  },
};
