// /usage: the cost of the chat's current session (the CLI's running total, turns outside
// Telecode included) and of today's runs over all chats.
import { formatUsd, localDay } from "../../../domain/index.js";
import type { Command } from "./command.js";

export const usageCommand: Command = {
  command: "usage",
  description: "Cost of this session and today",
  run(call, { store, clock }) {
    const chatId = call.message.chatId;
    const project = call.settings.project?.name;
    const today = store.usage.forDay(localDay(new Date(clock.now())));
    const current = project === undefined ? null : store.sessions.current(chatId, project);
    const sessionCost = current === null ? 0 : (store.sessionCosts.lastTotalUsd(current.sessionId) ?? 0);
    call.say(
      [
        `<b>Usage</b>`,
        `This session: ${formatUsd(sessionCost)}`,
        `Today (all chats): ${formatUsd(today.costUsd)} over ${today.runs} ${today.runs === 1 ? "run" : "runs"}`,
      ].join("\n"),
    );
  },
};
