// /continue [PROMPT]: continues the most recent Claude Code session in the project (also one
// started in a terminal).
import { promptWords } from "../messages/incoming.js";
import { requesterOf } from "../context.js";
import { NO_PROJECT, type Command } from "./command.js";

export const continueCommand: Command = {
  command: "continue",
  description: "Continue the latest Claude session in the project",
  run(call, { starter }) {
    const project = call.settings.project;
    if (project === undefined) return call.say(NO_PROJECT);
    const words = call.promptArgs.trim();
    const prompt = words === "" ? "Continue where we left off." : promptWords(call.message, words);
    starter.start({
      chatId: call.message.chatId,
      project,
      prompt,
      choice: { kind: "continue" },
      promptMessageId: call.message.messageId,
      requester: requesterOf(call.message.from),
    });
  },
};
