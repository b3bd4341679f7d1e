// /loops (also /schedules): the chat's loops and schedules with their buttons; /loops on|off
// says whether Claude may schedule work in this chat.
import { scheduleListMessage } from "../schedule-cards.js";
import { listHeader } from "../buttons/schedule.js";
import type { Command } from "./command.js";

export const loopsCommand: Command = {
  command: "loops",
  aliases: ["schedules"],
  description: "Loops and schedules: list, pause, stop; /loops on|off",
  run(call, services) {
    const { store, outbox, callbacks, schedules } = services;
    const chatId = call.message.chatId;
    if (call.word === "on" || call.word === "off") {
      store.chats.update(chatId, { loops: call.word === "on" });
      const everywhere = schedules.loopsEnabled()
        ? ""
        : " They stay off everywhere while [loops] enabled = false in the config.";
      return call.say(
        call.word === "on"
          ? `🔁 Claude may schedule work in this chat again (loops and wake-ups).${everywhere}`
          : "⏸ Claude may no longer schedule work in this chat: it is told so when it tries. Loops already made keep running; stop them with /loops.",
      );
    }
    if (call.word !== "")
      return call.say("Use /loops to list loops and schedules, /loops on or /loops off to let Claude schedule here.");
    const list = scheduleListMessage(callbacks, chatId, schedules.list(chatId), listHeader(services, chatId));
    void outbox.send(chatId, list, { replyTo: call.message.messageId });
  },
};
