// /planmode on|auto|off|show: plan, plan-auto or default mode from the next message.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { Command } from "./command.js";

export const planModeCommand: Command = {
  command: "planmode",
  description: "Plan mode: on, auto, off or show",
  run(call, { store }) {
    const { word, settings } = call;
    const mode = word === "on" ? "plan" : word === "auto" ? "plan-auto" : word === "off" ? "default" : undefined;
    if (mode === undefined) {
      const on = settings.mode === "plan" ? "on" : settings.mode === "plan-auto" ? "auto" : "off";
      return call.say(`Plan mode is <b>${on}</b> (mode ${esc(settings.mode)}). Use /planmode on, auto or off.`);
    }
    store.chats.update(call.message.chatId, { mode });
    call.say(`Plan mode <b>${word}</b>: mode is now ${esc(mode)} from the next message.`);
  },
};
