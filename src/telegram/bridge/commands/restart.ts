// /restart: a graceful stop and start in place (running tasks get limits.drain_seconds).
import type { Command } from "./command.js";

export const restartCommand: Command = {
  command: "restart",
  description: "Restart Telecode (running tasks may finish first)",
  run(call, { control, logger }) {
    if (control.isStopping()) return call.say("Telecode is already restarting.");
    logger.event("telegram.restart_requested", { chatId: call.message.chatId, userId: call.message.from.id });
    call.say(
      `🔄 Restarting. Running tasks get ${call.config.limits.drainSeconds} s to finish; interrupted ones can be continued afterwards.`,
    );
    control.requestRestart();
  },
};
