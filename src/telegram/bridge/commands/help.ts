// /help and /start: what Telecode is, how to use it, and every command.
import { isInnerChatId } from "../../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { BridgeServices } from "../services.js";
import type { Command, CommandCall } from "./command.js";

function help(call: CommandCall, { claudeCommands }: Pick<BridgeServices, "claudeCommands">): void {
  const project = call.settings.project?.name;
  const claudes = project === undefined ? null : claudeCommands.of(project);
  const telecodeNames = new Set(call.commands.flatMap((c) => [c.command, ...(c.aliases ?? [])]));
  // Telecode's own commands win: /model here is Telecode's, never the CLI's (nor /clear, /new's other name).
  const passed = (claudes ?? []).filter((name) => !telecodeNames.has(name.toLowerCase()) && !name.startsWith("_"));
  const list = call.commands
    .filter((c) => c.command !== "start")
    .map((c) => `/${c.command} — ${esc(c.description)}`)
    .join("\n");
  call.say(
    [
      "<b>Telecode</b> runs Claude Code on your computer and shows its work here.",
      `Send a task as a message${project === undefined ? "" : ` (project <b>${esc(project)}</b>)`}: you see its progress, approve what it asks with buttons, and get the answer as a new message.`,
      "Reply to an answer to continue that session; reply to a question or approval to answer it in your own words; reply to anyone else's message (a log, a screenshot, a voice note) and Claude gets it with your words. A first line like <code>/app /plan</code> picks the project and mode for one message.",
      ...(call.config.claude.promptSuggestions
        ? ["A 💬 button under an answer sends Claude Code's guess at your next message."]
        : []),
      ...(call.message.chatKind === "private" && !isInnerChatId(call.message.chatId)
        ? []
        : [
            "With topics on, each topic is a conversation of its own: its own session, runs and schedules, and the chat's settings until you change one in the topic.",
          ]),
      ...(call.message.chatKind !== "private" && call.config.telegram.groupSessions === "per_person"
        ? [
            "In this group's main view each of you has a conversation of your own: your session, runs and schedules, and the group's settings until you change one. A reply to someone's answer continues theirs.",
          ]
        : []),
      "",
      list,
      ...(passed.length === 0
        ? []
        : ["", `Claude Code's commands here: ${passed.map((name) => `/${esc(name)}`).join(" ")}`]),
    ].join("\n"),
  );
}

export const helpCommand: Command = { command: "help", description: "What Telecode is and how to use it", run: help };
export const startCommand: Command = { command: "start", description: "What Telecode is and how to use it", run: help };
