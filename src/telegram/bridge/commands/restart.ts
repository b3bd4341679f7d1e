// /restart: a graceful stop and start in place. Runs in kept processes go on across it; the
// others get limits.drain_seconds to finish, then are interrupted (with Continue).
import type { SessionStatus } from "../../../sessions/index.js";
import type { Command } from "./command.js";

export const restartCommand: Command = {
  command: "restart",
  description: "Restart Telecode (running tasks may finish first)",
  run(call, { control, logger, sessions }) {
    if (control.isStopping()) return call.say("Telecode is already restarting.");
    logger.event("telegram.restart_requested", { chatId: call.message.chatId, userId: call.message.from.id });
    call.say(`🔄 Restarting. ${whatHappensToRuns(sessions.status(), call.config.limits.drainSeconds)}`);
    control.requestRestart();
  },
};

/** What the restart does to the runs working now, in every chat. */
export function whatHappensToRuns(lanes: readonly SessionStatus[], drainSeconds: number): string {
  const running = lanes.filter((lane) => lane.runningRunId !== undefined);
  const kept = running.filter((lane) => lane.kept).length;
  const drained = running.length - kept;
  if (running.length === 0) return "Nothing is running; back in a moment.";
  const keptWords =
    drained === 0
      ? `The running ${kept === 1 ? "task goes" : "tasks go"} on meanwhile and ${kept === 1 ? "shows" : "show"} here again afterwards.`
      : `${kept === 1 ? "A kept task goes" : "Kept tasks go"} on meanwhile (see /status) and ${kept === 1 ? "shows" : "show"} here again afterwards.`;
  if (drained === 0) return keptWords;
  const one = drained === 1;
  const them = `${kept === 0 ? "The" : "The other"} running ${one ? "task" : "tasks"}`;
  const drainWords =
    drainSeconds === 0
      ? `${them} ${one ? "is" : "are"} interrupted now; ${one ? "it" : "each"} can be continued afterwards.`
      : `${them} ${one ? "gets" : "get"} ${drainSeconds} s to finish; what still runs then is interrupted and can be continued afterwards.`;
  return kept === 0 ? drainWords : `${keptWords} ${drainWords}`;
}
