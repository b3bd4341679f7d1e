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
    control.requestRestart(call.message.chatId);
  },
};

/**
 * What the restart does to the runs working now, in every chat (so it names no chat): kept ones
 * go on, the others get the drain time.
 */
export function whatHappensToRuns(lanes: readonly SessionStatus[], drainSeconds: number): string {
  const running = lanes.filter((lane) => lane.runningRunId !== undefined);
  if (running.length === 0) return "Nothing is running; back in a moment.";
  const kept = running.filter((lane) => lane.kept).length;
  const drained = running.length - kept;
  const parts: string[] = [];
  if (kept > 0) {
    const which = drained === 0 ? "running" : "kept";
    parts.push(
      kept === 1
        ? `The ${which} task goes on meanwhile; its progress carries on afterwards.`
        : `The ${which} tasks go on meanwhile; their progress carries on afterwards.`,
    );
  }
  if (drained > 0) {
    const one = drained === 1;
    const them = `The ${kept === 0 ? "" : "other "}running ${one ? "task" : "tasks"}`;
    parts.push(
      drainSeconds === 0
        ? `${them} ${one ? "is" : "are"} interrupted now and can be continued afterwards.`
        : `${them} ${one ? "gets" : "get"} ${drainSeconds} s to finish; what still runs then is interrupted and can be continued afterwards.`,
    );
  }
  return parts.join(" ");
}
