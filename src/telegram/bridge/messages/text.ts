// A person's text message that names no command: a directive line → a run with those
// settings; an unknown or dotted command → a hint; a reply to a prompt, or text while one is
// open → the answer; a reply to an answer → that session continues; anything else → a run.
import { Composer } from "grammy";
import { definedFields, type PermissionMode } from "../../../domain/index.js";
import { escapeTelegramHtml, parseSessionMark } from "../../../render/index.js";
import type { SessionChoice } from "../../../sessions/index.js";
import { chatSettings, findProject } from "../chat-settings.js";
import { dotCommandOf, nearestCommand, readDirectives } from "../command-text.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import type { AnswerSession } from "../run-index.js";
import type { BridgeServices } from "../services.js";

export type TextDeps = Pick<
  BridgeServices,
  "config" | "store" | "outbox" | "runs" | "prompts" | "answers" | "starter" | "control" | "claudeCommands"
> & { commandNames: readonly string[] };

export function textMessages(deps: TextDeps): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  messages.on("message:text", (ctx) => {
    if (ctx.incoming !== undefined) handleText(deps, ctx.incoming);
  });
  return messages;
}

function handleText(deps: TextDeps, message: IncomingText): void {
  const config = deps.config();
  const slash = message.slash;
  if (slash !== undefined) {
    const directives = readDirectives(
      message.body,
      config.projects.map((p) => p.name),
      deps.control.botUsername(),
    );
    if (directives !== undefined) {
      if (directives.prompt === "") {
        reply(deps, message, "Put the task after the directives, e.g. <code>/app /plan fix the login bug</code>.");
        return;
      }
      route(deps, message, directives.prompt, directives);
      return;
    }
    // Claude Code's own commands ("/compact", "/loop 5m …", the project's) go to the session as they are.
    const project = chatSettings(config, deps.store, message.chatId).project;
    if (project !== undefined && deps.claudeCommands.has(project.name, slash.name)) {
      route(deps, message, message.body, {});
      return;
    }
    const claudes = project === undefined ? [] : (deps.claudeCommands.of(project.name) ?? []);
    const near = nearestCommand(slash.name, deps.commandNames) ?? nearestCommand(slash.name, claudes);
    const hint = near === undefined ? "" : ` Did you mean /${near}?`;
    const unknown =
      project !== undefined && deps.claudeCommands.of(project.name) === null
        ? " Claude Code's own commands (such as /compact or /loop) work here once a session has started: send any message first."
        : "";
    reply(
      deps,
      message,
      `I don't know the command /${escapeTelegramHtml(slash.name)}.${hint} Send /help for the list; nothing was run.${unknown}`,
    );
    return;
  }
  const dot = dotCommandOf(message.body, deps.commandNames);
  if (dot !== undefined) {
    reply(deps, message, `Commands start with a slash: did you mean /${dot}? Nothing was run.`);
    return;
  }
  route(deps, message, message.body, {});
}

function route(
  deps: TextDeps,
  message: IncomingText,
  text: string,
  overrides: { project?: string; mode?: PermissionMode },
): void {
  const config = deps.config();
  const by = message.from.name;
  if (message.replyTo !== undefined) {
    const decisionId = deps.prompts.decisionAt(message.chatId, message.replyTo.messageId);
    if (decisionId !== undefined && deps.answers.answer(decisionId, { kind: "text", text, by }) === "accepted") return;
  }
  let project =
    overrides.project === undefined
      ? chatSettings(config, deps.store, message.chatId).project
      : findProject(config, overrides.project);
  let choice: SessionChoice | undefined;
  const continued =
    message.replyTo?.fromBot === true ? answerSessionOf(deps, message.chatId, message.replyTo) : undefined;
  if (continued !== undefined && overrides.project === undefined) {
    project = findProject(config, continued.project) ?? project;
    choice = { kind: "resume", sessionId: continued.sessionId };
  }
  if (project === undefined) {
    reply(
      deps,
      message,
      "No project is set up. Add a [projects.NAME] table with a path to the config, then send this again.",
    );
    return;
  }
  const lane = { chatId: message.chatId, project: project.name };
  if (deps.answers.answerByText(lane, text, by) === "accepted") return;
  deps.starter.start({
    chatId: message.chatId,
    project,
    prompt: text,
    promptMessageId: message.messageId,
    ...definedFields({ choice, mode: overrides.mode }),
  });
}

/** The session a final answer belongs to: remembered, else read from its footer's session mark. */
function answerSessionOf(
  deps: Pick<TextDeps, "runs" | "store">,
  chatId: number,
  target: NonNullable<IncomingText["replyTo"]>,
): AnswerSession | undefined {
  const known = deps.runs.answerSession(chatId, target.messageId);
  if (known !== undefined) return known;
  const prefix = parseSessionMark(target.text);
  if (prefix === undefined) return undefined;
  const record = deps.store.sessions.list(chatId, { limit: 200 }).find((s) => s.sessionId.startsWith(prefix));
  return record === undefined ? undefined : { sessionId: record.sessionId, project: record.project };
}

function reply(deps: Pick<TextDeps, "outbox">, message: IncomingText, html: string): void {
  void deps.outbox.send(message.chatId, { html }, { replyTo: message.messageId });
}
