// /btw: a quick question about the work, answered at once beside the task going on (it neither
// waits behind it nor interrupts it) from the conversation so far, and kept out of that
// conversation: Claude Code's side question (its own /btw). It needs the chat's Claude Code
// running; without one there is no work to ask about beside, and the question is a message.
import { escapeTelegramHtml as esc, markdownToTelegramParts } from "../../../render/index.js";
import type { SideAnswer } from "../../../domain/index.js";
import { isNoProcess } from "../../../sessions/index.js";
import type { Command, CommandCall } from "./command.js";
import type { BridgeServices } from "../services.js";

const USAGE =
  "Put the question after the command, e.g. <code>/btw which file are you in?</code> Claude answers it beside the task, which goes on, and the answer stays out of the conversation.";

export const btwCommand: Command = {
  command: "btw",
  description: "A quick question while Claude works, beside the task: /btw which file?",
  run(call, services) {
    const question = call.promptArgs.trim();
    const project = call.settings.project;
    if (question === "") return call.say(USAGE);
    if (project === undefined)
      return call.say("No project is set up. Add a [projects.NAME] table with a path to the config.");
    const chatId = call.message.chatId;
    services.outbox.typing(chatId);
    services.sessions.sideQuestion({ chatId, project: project.name }, question).then(
      (answer) => sendSideAnswer(services, call, answer),
      (error: unknown) => call.say(failureHtml(error)),
    );
  },
};

/** The answer, as a reply to the question; a long one in parts, as a final answer is. */
function sendSideAnswer(services: Pick<BridgeServices, "outbox">, call: CommandCall, answer: SideAnswer): void {
  if (answer.failed) return call.say(`⚠️ Claude could not answer: ${esc(answer.text)}`);
  const { chatId, messageId } = call.message;
  markdownToTelegramParts(answer.text).forEach((html, index) => {
    const first = index === 0;
    const options = first ? { replyTo: messageId, mustDeliver: true } : { silent: true, mustDeliver: true };
    void services.outbox.send(chatId, { html: first ? `💬 ${html}` : html }, options);
  });
}

function failureHtml(error: unknown): string {
  if (isNoProcess(error))
    return "Claude Code is not running in this chat now, so there is no work to ask about beside: send the question as a message.";
  return `Claude could not answer: ${esc(error instanceof Error ? error.message : String(error))}`;
}
