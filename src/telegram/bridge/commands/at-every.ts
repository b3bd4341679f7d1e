// /at and /every: a schedule for this chat and project, made by the person ("/at 30m check the
// deploy", "/every weekday 9:00 review the PRs"). A time that cannot be read gets the usage,
// never a run; the confirmation carries the schedule's buttons.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { cardHtml, singleCardKeyboard } from "../schedule-cards.js";
import type { BridgeServices } from "../services.js";
import { NO_PROJECT, type Command, type CommandCall } from "./command.js";

function schedule(command: "at" | "every", call: CommandCall, services: BridgeServices): void {
  const project = call.settings.project;
  if (project === undefined) return call.say(NO_PROJECT);
  const chatId = call.message.chatId;
  const made = services.schedules.create({
    chatId,
    project: project.name,
    userId: call.message.from.id,
    command,
    text: call.promptArgs,
  });
  if (!made.ok) return call.say(esc(made.message));
  const keyboard = { inline_keyboard: singleCardKeyboard(services.callbacks, chatId, made.card) };
  void services.outbox.send(
    chatId,
    { html: `${esc(made.confirmation)}\n${cardHtml(made.card)}`, keyboard },
    { replyTo: call.message.messageId },
  );
}

export const atCommand: Command = {
  command: "at",
  description: "Run a task once later: /at 30m check the deploy",
  run: (call, services) => schedule("at", call, services),
};

export const everyCommand: Command = {
  command: "every",
  description: "Run a task on a schedule: /every weekday 9:00 …",
  run: (call, services) => schedule("every", call, services),
};
