// /listen all|mentions: in a group, answer every message from allowed people, or only when addressed.
import { listeningChat } from "../chat-settings.js";
import { unknownWordHtml, type Command } from "./command.js";

export const listenCommand: Command = {
  command: "listen",
  description: "Groups: answer every message, or only when addressed",
  run(call, { store }) {
    const { word, settings } = call;
    if (word !== "" && word !== "all" && word !== "mentions")
      return call.say(unknownWordHtml("listen", word, "/listen all or /listen mentions"));
    if (word === "")
      return call.say(
        `In groups I answer ${settings.listenToAll ? "<b>every message</b>" : "<b>only when addressed</b> (mention, reply or command)"}. Use /listen all or /listen mentions.`,
      );
    // In a member's own conversation (telegram.group_sessions), the group's.
    store.chats.update(listeningChat(store, call.message.chatId), { listenToAll: word === "all" });
    call.say(word === "all" ? "I now answer every message in this chat." : "I now answer only when addressed.");
  },
};
