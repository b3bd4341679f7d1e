// /usage: the cost of the chat's current session (the CLI's running total, turns outside
// Telecode included) and of today's runs over all chats; with a subscription login, where its
// usage limits stand and what the amounts mean there.
import { formatUsd, localDay, type ClockFormatter, type UsageLimitReported } from "../../../domain/index.js";
import type { Command } from "./command.js";

export const usageCommand: Command = {
  command: "usage",
  description: "Cost of this session and today, and your usage limits",
  run(call, { store, clock, usageLimits, clockFormatter }) {
    const chatId = call.message.chatId;
    const project = call.settings.project?.name;
    const nowMs = clock.now();
    const today = store.usage.forDay(localDay(new Date(nowMs)));
    const current = project === undefined ? null : store.sessions.current(chatId, project);
    const sessionCost = current === null ? 0 : (store.sessionCosts.lastTotalUsd(current.sessionId) ?? 0);
    const { provider, useApiBilling } = call.config.claude;
    call.say(
      [
        `<b>Usage</b>`,
        `This session: ${current === null ? "none yet (the next message starts one)" : formatUsd(sessionCost)}`,
        `Today (all chats): ${today.runs === 0 ? "no runs yet" : `${formatUsd(today.costUsd)} over ${today.runs} ${today.runs === 1 ? "run" : "runs"}`}`,
        ...usageLimits.current(nowMs).map((limit) => limitLine(limit, clockFormatter, nowMs)),
        ...(provider === "anthropic" && !useApiBilling
          ? [
              "The amounts are what the same tokens would cost on the API; your Claude subscription covers them, up to its usage limits.",
            ]
          : []),
      ].join("\n"),
    );
  },
};

/** "5h limit: 91% used, resets 17:46". */
function limitLine(limit: UsageLimitReported, clock: ClockFormatter, nowMs: number): string {
  const resets = limit.resetsAtMs === undefined ? "" : `, resets ${clock.moment(limit.resetsAtMs, nowMs)}`;
  return `${limit.limit} limit: ${whereItStands(limit)}${resets}`;
}

function whereItStands(limit: UsageLimitReported): string {
  switch (limit.state) {
    case "ok":
      return "below its warning level";
    case "warning":
      return limit.usedPercent === undefined ? "almost used up" : `${limit.usedPercent}% used`;
    case "reached":
      return limit.extraUsage ? "reached, extra usage carries on" : "reached";
  }
}
