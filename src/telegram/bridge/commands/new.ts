// /new [PROMPT] (or /clear, as in Claude Code): the lane's next message starts a fresh Claude
// session (the idle one is closed now), or the prompt given starts it at once. Claude's loops of the lane follow the chat into
// the new session, with a button to stop them.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { STOP_ALL_CHOICE } from "../buttons/schedule.js";
import { promptWords } from "../messages/incoming.js";
import { logFailure } from "../services.js";
import { requesterOf } from "../context.js";
import { NO_PROJECT, type Command } from "./command.js";

export const newCommand: Command = {
  command: "new",
  description: "Start a fresh Claude session (/new PROMPT starts it now)",
  // Claude Code's own /clear, passed on, would answer with no text at all.
  aliases: ["clear"],
  run(call, { store, sessions, starter, logger, schedules, callbacks, outbox }) {
    const project = call.settings.project;
    if (project === undefined) return call.say(NO_PROJECT);
    const lane = { chatId: call.message.chatId, project: project.name };
    store.sessions.clearCurrent(lane.chatId, lane.project);
    const words = call.promptArgs.trim();
    if (words !== "") {
      const prompt = promptWords(call.message, words);
      // "/new fix the login bug": the words start the fresh session at once.
      starter.start({
        chatId: lane.chatId,
        project,
        prompt,
        choice: { kind: "new" },
        promptMessageId: call.message.messageId,
        requester: requesterOf(call.message.from),
      });
      return;
    }
    starter.startFreshNext(lane);
    sessions.closeIdle(lane).catch(logFailure(logger, "telegram.close_failed"));
    const busy = sessions.runningRun(lane) !== undefined ? " The task running now finishes in its old session." : "";
    const html = `🆕 Your next message starts a fresh session in <b>${esc(lane.project)}</b>.${busy}`;
    const loops = schedules.followChat(lane);
    if (loops.length === 0) return call.say(html);
    const one = loops.length === 1;
    const names = loops.map((l) => esc(l.name)).join(", ");
    const theLoops = `Claude's ${one ? "loop" : "loops"} here (${names})`;
    const keep = `\n${theLoops} ${one ? "carries" : "carry"} on in the new session. Keep ${one ? "it" : "them"}, or stop ${one ? "it" : "them"} now:`;
    const stoppedHtml = `${html}\n⏹ ${theLoops} ${one ? "is" : "are"} stopped.`;
    const token = callbacks.register(
      { kind: "schedule", scheduleIds: loops.map((l) => l.id), list: false, stoppedHtml },
      lane.chatId,
    );
    const stop = one ? "✖️ Stop the loop" : `✖️ Stop the ${loops.length} loops`;
    const keyboard = { inline_keyboard: [[{ text: stop, callback_data: callbacks.data(token, STOP_ALL_CHOICE) }]] };
    void outbox.send(lane.chatId, { html: html + keep, keyboard }, { replyTo: call.message.messageId });
  },
};
