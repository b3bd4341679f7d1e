// /planmode on|auto|off|show: plan, plan-auto or default mode from the next message.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { unknownWordHtml, type Command } from "./command.js";

const USAGE = "/planmode on, auto, off or show";

export const planModeCommand: Command = {
  command: "planmode",
  description: "Plan mode: on, auto, off or show",
  run(call, { store }) {
    const { word, settings } = call;
    const mode = word === "on" ? "plan" : word === "auto" ? "plan-auto" : word === "off" ? "default" : undefined;
    if (mode === undefined) {
      if (word !== "" && word !== "show") return call.say(unknownWordHtml("planmode", word, USAGE));
      const on = settings.mode === "plan" ? "on" : settings.mode === "plan-auto" ? "auto" : "off";
      return call.say(`Plan mode is <b>${on}</b> (mode ${esc(settings.mode)}). Use ${USAGE}.`);
    }
    store.chats.update(call.message.chatId, { mode });
    call.say(`Plan mode <b>${word}</b>: mode is now ${esc(mode)} from the next message.`);
  },
};
