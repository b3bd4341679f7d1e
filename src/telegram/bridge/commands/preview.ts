// /preview on|off: ask before edits and commands with a diff, even in autonomous modes.
import { logFailure } from "../services.js";
import { unknownWordHtml, type Command } from "./command.js";

export const previewCommand: Command = {
  command: "preview",
  description: "Ask before edits with a diff: on or off",
  run(call, { store, sessions, logger }) {
    const { word, settings, message } = call;
    if (word !== "" && word !== "on" && word !== "off")
      return call.say(unknownWordHtml("preview", word, "/preview on or /preview off"));
    if (word === "")
      return call.say(
        `Previews are <b>${settings.preview ? "on" : "off"}</b>: with them on, edits and commands wait for your OK with a diff. Use /preview on or off.`,
      );
    store.chats.update(message.chatId, { preview: word === "on" });
    if (settings.project !== undefined)
      sessions
        .closeIdle({ chatId: message.chatId, project: settings.project.name })
        .catch(logFailure(logger, "telegram.close_failed"));
    call.say(`Previews are now <b>${word}</b> from the next message.`);
  },
};
