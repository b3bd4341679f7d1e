// /pause and /resume: hold or release every trigger (schedules, loops, webhooks) at once. Nothing
// is lost while held: due slots are handled on /resume like after a restart, deliveries are kept.
// /resume also runs the deliveries of a webhook held until its failure was fixed.
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
    // Said first: what was kept starts as the switch flips, and its messages come after this one.
    // Not paused, a webhook may still have been held until its failure was fixed: its deliveries run now.
    const kept = (why: string): string =>
      held === 0
        ? ""
        : held === 1
          ? ` The webhook delivery kept ${why} runs now.`
          : ` The ${held} webhook deliveries kept ${why} run now, oldest first.`;
    call.say(
      triggers.isPaused()
        ? `▶️ Schedules, loops and webhooks run again. A slot that came due while paused runs once if it is recent.${kept("while paused")}`
        : held === 0
          ? "▶️ Triggers are not paused: schedules, loops and webhooks run as usual."
          : `▶️ Triggers are not paused.${kept("until a failure was fixed")}`,
    );
    triggers.setPaused(false);
  },
};
