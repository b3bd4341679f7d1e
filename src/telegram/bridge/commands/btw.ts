// /btw: a quick question about the work, answered at once beside the task going on (it neither
// waits behind it nor interrupts it) from the conversation so far, and kept out of that
// conversation: Claude Code's side question (its own /btw). It needs the chat's Claude Code
// running; without one there is no work to ask about beside, and the question is a message.
// Sent as a reply to a side answer, it follows that one up (side-answers.ts).
import type { Command } from "./command.js";
import { NOT_RUNNING } from "../side-answers.js";

const USAGE =
  "Put the question after the command, e.g. <code>/btw which file are you in?</code> Claude answers it beside the task, which goes on, and the answer stays out of the conversation. Reply to an answer to ask more.";

export const btwCommand: Command = {
  command: "btw",
  description: "A quick question while Claude works, beside the task: /btw which file?",
  run(call, services) {
    const question = call.promptArgs.trim();
    if (question === "") return call.say(USAGE);
    const project = call.settings.project;
    const { chatId, messageId } = call.message;
    const thread = services.sideAnswers.threadAt(chatId, call.message.replyTo?.messageId);
    const lane = thread?.lane ?? (project === undefined ? undefined : { chatId, project: project.name });
    if (lane === undefined)
      return call.say("No project is set up. Add a [projects.NAME] table with a path to the config.");
    const asked = { lane, chatId, question, replyTo: messageId, ...(thread ? { history: thread.exchanges } : {}) };
    void services.sideAnswers.ask(asked).then((took) => {
      if (!took) call.say(NOT_RUNNING);
    });
  },
};
