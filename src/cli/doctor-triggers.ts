// The trigger lines of `telecode doctor`: every live schedule and webhook with its next fire (in
// the schedule's zone) and its last result, from the database; and a warning while triggers are
// paused (by the config or a chat's /pause), since then nothing starts on its own.
import type { Config } from "../config/index.js";
import type { Store } from "../store/index.js";
import { effectivePaused } from "./compose/trigger-pause.js";
import { triggerLine, triggerStatuses } from "./compose/trigger-status.js";
import { ok, warn, type CheckResult } from "./doctor-result.js";

/** Nothing when there is no schedule or webhook. */
export function checkTriggers(config: Config, store: Store, nowMs: number): CheckResult[] {
  const choice = store.triggers.pausedChoice();
  const paused = effectivePaused(config.schedule.paused, choice);
  const statuses = triggerStatuses({
    config,
    schedules: store.schedules.list({ states: ["active", "paused"] }),
    results: store.triggers.lastResults(),
    allPaused: paused,
    nowMs,
  });
  if (statuses.length === 0) return [];
  const count = statuses.length === 1 ? "1 schedule or webhook" : `${statuses.length} schedules and webhooks`;
  const results = [ok("triggers", [count, ...statuses.map(triggerLine)].join("\n"))];
  if (paused) {
    const held = store.triggers.heldCount();
    const kept = held === 0 ? "" : `; ${held === 1 ? "1 webhook delivery is" : `${held} webhook deliveries are`} kept`;
    const byChat = choice !== null && choice.configPaused === config.schedule.paused;
    results.push(
      warn(
        "triggers paused",
        `every schedule, loop and webhook is held (${byChat ? "by /pause in a chat" : "schedule.paused in the config"})${kept}`,
        byChat
          ? "send /resume in the chat when they should run again"
          : "set schedule.paused = false, or send /resume in the chat",
      ),
    );
  }
  return results;
}
