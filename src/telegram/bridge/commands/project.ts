// /project [NAME]: shows the projects as buttons, or switches the chat to one.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { projectKeyboard } from "../buttons/project.js";
import { findProject } from "../chat-settings.js";
import { NO_PROJECT, type Command } from "./command.js";

export const projectCommand: Command = {
  command: "project",
  description: "Show or switch the project",
  run(call, { store, outbox, callbacks }) {
    const { word, settings, config, message } = call;
    if (word === "") {
      if (config.projects.length === 0) return call.say(NO_PROJECT);
      const names = config.projects.map((p) => p.name);
      const keyboard = projectKeyboard(callbacks, message.chatId, names, settings.project?.name);
      void outbox.send(
        message.chatId,
        { html: `Project: <b>${esc(settings.project?.name ?? "none")}</b>. Switch to:`, keyboard },
        { replyTo: message.messageId },
      );
      return;
    }
    const project = findProject(config, word);
    if (project === undefined)
      return call.say(`No project “${esc(word)}”. Projects: ${config.projects.map((p) => esc(p.name)).join(", ")}.`);
    store.chats.update(message.chatId, { project: project.name });
    call.say(`Project is now <b>${esc(project.name)}</b> (<code>${esc(project.path)}</code>).`);
  },
};
