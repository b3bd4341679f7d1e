// A checklist (Telegram's list of tasks, which Premium users can send): read as Markdown, its
// title and then each task as "- [ ] …" ("- [x] …" once done), and routed like typed text: a
// run, or the answer to an open question. A checklist names no command.
import { Composer } from "grammy";
import type { Checklist } from "grammy/types";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { repliedContent } from "./attachments.js";
import { incomingText, isAdmitted, standingAlone } from "./incoming.js";
import { routeMessage } from "./route.js";

export function checklistMessages(deps: BridgeServices): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  messages.on("message:checklist", (ctx) => {
    if (ctx.person === undefined) return;
    const words = checklistMarkdown(ctx.message.checklist);
    const incoming = { ...incomingText(ctx.message, words, ctx.person, deps.control.botUsername()), slash: undefined };
    if (!isAdmitted(deps, incoming, standingAlone(ctx.message))) return;
    return routeMessage(deps, incoming, repliedContent(deps, incoming, incoming.prompt));
  });
  return messages;
}

/** A checklist as Markdown: its title, then a task list. */
export function checklistMarkdown(checklist: Checklist): string {
  const tasks = checklist.tasks.map((task) => `- [${(task.completion_date ?? 0) > 0 ? "x" : " "}] ${task.text}`);
  return [checklist.title, "", ...tasks].join("\n");
}
