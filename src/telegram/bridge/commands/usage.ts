// /usage: the cost of the chat's current session (the CLI's running total, turns outside
// Telecode included) and of today's runs over all chats; where [budget]'s caps stand; with a
// subscription login, where its usage limits stand and what the amounts mean there.
import {
  formatUsd,
  localDay,
  standingsWords,
  type ClockFormatter,
  type UsageLimitReported,
} from "../../../domain/index.js";
import type { Command } from "./command.js";
import { laneSession, sessionWords } from "./lane-session.js";

export const usageCommand: Command = {
  command: "usage",
  description: "Cost of this session and today, and your usage limits",
  run(call, { store, sessions, clock, usageLimits, clockFormatter, budget }) {
    const nowMs = clock.now();
    const today = store.usage.forDay(localDay(new Date(nowMs)));
    const session = laneSession(call.message.chatId, call.settings.project?.name, { store, sessions });
    const { provider, useApiBilling } = call.config.claude;
    const standings = budget.standings(call.message.chatId);
    call.say(
      [
        `<b>Usage</b>`,
        `This session: ${sessionWords(session, (id) => formatUsd(store.sessionCosts.lastTotalUsd(id) ?? 0))}`,
        `Today (all chats): ${today.runs === 0 ? "no runs yet" : `${formatUsd(today.costUsd)} over ${today.runs} ${today.runs === 1 ? "run" : "runs"}`}`,
        ...(standings.length === 0 ? [] : [`Budget: ${standingsWords(standings)}`]),
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

/** "5h limit: 91% used, resets 17:46 today". */
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
