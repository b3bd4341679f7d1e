// /cancel: the task the command replies to, else every running and queued task of the chat.
import { logFailure } from "../services.js";
import type { Command } from "./command.js";

export const cancelCommand: Command = {
  command: "cancel",
  description: "Cancel the running task (or the one you reply to)",
  run(call, { runs, sessions, logger }) {
    const { chatId, replyTo } = call.message;
    const target = replyTo === undefined ? undefined : runs.byMessage(chatId, replyTo.messageId);
    if (target?.runId !== undefined) {
      sessions
        .cancel(target.runId)
        .then(
          (outcome) => call.say(outcome === "not_found" ? "That task already ended." : "⏹ Cancelling that task."),
          logFailure(logger, "telegram.cancel_failed"),
        );
      return;
    }
    sessions
      .cancelChat(chatId)
      .then(
        (count) =>
          call.say(
            count === 0
              ? "Nothing is running or queued here."
              : `⏹ Cancelling ${count === 1 ? "the task" : `${count} tasks`}.`,
          ),
        logFailure(logger, "telegram.cancel_failed"),
      );
  },
};
