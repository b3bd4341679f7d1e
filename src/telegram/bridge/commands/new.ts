// /new [PROMPT]: the lane's next message starts a fresh Claude session (the idle one is closed
// now), or the prompt given starts it at once.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { logFailure } from "../services.js";
import { NO_PROJECT, type Command } from "./command.js";

export const newCommand: Command = {
  command: "new",
  description: "Start a fresh Claude session (/new PROMPT starts it now)",
  run(call, { store, sessions, starter, logger }) {
    const project = call.settings.project;
    if (project === undefined) return call.say(NO_PROJECT);
    const lane = { chatId: call.message.chatId, project: project.name };
    store.sessions.clearCurrent(lane.chatId, lane.project);
    const prompt = call.args.trim();
    if (prompt !== "") {
      // "/new fix the login bug": the words start the fresh session at once.
      starter.start({
        chatId: lane.chatId,
        project,
        prompt,
        choice: { kind: "new" },
        promptMessageId: call.message.messageId,
      });
      return;
    }
    starter.startFreshNext(lane);
    sessions.closeIdle(lane).catch(logFailure(logger, "telegram.close_failed"));
    const busy = sessions.runningRun(lane) !== undefined ? " The task running now finishes in its old session." : "";
    call.say(`🆕 Your next message starts a fresh session in <b>${esc(lane.project)}</b>.${busy}`);
  },
};
