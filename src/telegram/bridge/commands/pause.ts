// /pause and /resume: hold or release every trigger (schedules, loops, webhooks) at once. Nothing
// is lost while held: due slots are handled on /resume like after a restart, deliveries are kept.
import type { Command } from "./command.js";

export const pauseCommand: Command = {
  command: "pause",
  description: "Hold every schedule, loop and webhook until /resume",
  run(call, { triggers }) {
    const changed = triggers.setPaused(true);
    call.say(
      changed
        ? "⏸ Every schedule, loop and webhook is held: nothing starts on its own until /resume. Webhook deliveries are kept and run then; this stays so across restarts."
        : "⏸ Triggers are already paused. Send /resume to let them run.",
    );
  },
};

export const resumeCommand: Command = {
  command: "resume",
  description: "Let schedules, loops and webhooks run again",
  run(call, { triggers }) {
    const held = triggers.heldDeliveries();
    const changed = triggers.setPaused(false);
    if (!changed) return call.say("▶️ Triggers are not paused: schedules, loops and webhooks run as usual.");
    const deliveries =
      held === 0
        ? ""
        : held === 1
          ? " The webhook delivery kept while paused runs now."
          : ` The ${held} webhook deliveries kept while paused run now, oldest first.`;
    call.say(
      `▶️ Schedules, loops and webhooks run again. A slot that came due while paused runs once if it is recent.${deliveries}`,
    );
  },
};
