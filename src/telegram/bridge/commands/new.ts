// /new: the lane's next message starts a fresh Claude session; the idle one is closed now.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { logFailure } from "../services.js";
import { NO_PROJECT, type Command } from "./command.js";

export const newCommand: Command = {
  command: "new",
  description: "Start a fresh Claude session",
  run(call, { store, sessions, starter, logger }) {
    const project = call.settings.project;
    if (project === undefined) return call.say(NO_PROJECT);
    const lane = { chatId: call.message.chatId, project: project.name };
    starter.startFreshNext(lane);
    store.sessions.clearCurrent(lane.chatId, lane.project);
    sessions.closeIdle(lane).catch(logFailure(logger, "telegram.close_failed"));
    const busy = sessions.runningRun(lane) !== undefined ? " The task running now finishes in its old session." : "";
    call.say(`🆕 Your next message starts a fresh session in <b>${esc(lane.project)}</b>.${busy}`);
  },
};
