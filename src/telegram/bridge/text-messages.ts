// A person's text message, after access control: too old (sent while Telecode was down for
// long) → "send it again"; a command → its handler; a directive line → a run with those
// settings; a near-miss → a hint; a reply to a prompt or text while one is open → the
// answer; a reply to an answer → that session continues; anything else → a run.
import { escapeTelegramHtml, parseSessionMark } from "../../render/index.js";
import type { SessionChoice } from "../../sessions/index.js";
import { startRun, type BridgeCore } from "./bridge-core.js";
import type { IncomingText } from "./bridge-types.js";
import { chatSettings, findProject } from "./chat-settings.js";
import { dotCommandOf, isCommandName, nearestCommand, readDirectives, readSlashWord } from "./command-text.js";
import { runCommand } from "./commands.js";
import type { AnswerSession } from "./run-book.js";

/** Messages up to this old are never "offline" ones, whatever the config says (clock skew, slow delivery). */
const MIN_OFFLINE_AGE_MS = 60_000;

export function handleText(core: BridgeCore, message: IncomingText): void {
  const config = core.config();
  const settings = chatSettings(config, core.store, message.chatId);
  if (!core.access.isAddressed(message, settings.listenToAll)) return;
  const text = stripMention(message.text, core.botUsername());
  const ageMs = core.clock.now() - message.dateS * 1000;
  if (ageMs > Math.max(MIN_OFFLINE_AGE_MS, config.limits.offlineMaxAgeMinutes * 60_000)) {
    core.logger.event("telegram.offline_message", { chatId: message.chatId, messageId: message.messageId, ageMs });
    reply(core, message, "I was offline when you sent this; send it again if you still want it.");
    return;
  }
  const slash = readSlashWord(text, core.botUsername());
  if (slash !== undefined) {
    if (slash.forOtherBot) return;
    if (isCommandName(slash.name)) {
      runCommand(core, message, slash.name, slash.args);
      return;
    }
    const directives = readDirectives(
      text,
      config.projects.map((p) => p.name),
      core.botUsername(),
    );
    if (directives !== undefined) {
      if (directives.prompt === "") {
        reply(core, message, "Put the task after the directives, e.g. <code>/app /plan fix the login bug</code>.");
        return;
      }
      route(core, message, directives.prompt, directives);
      return;
    }
    const near = nearestCommand(slash.name);
    const hint = near === undefined ? "" : ` Did you mean /${near}?`;
    reply(
      core,
      message,
      `I don't know the command /${escapeTelegramHtml(slash.name)}.${hint} Send /help for the list; nothing was run.`,
    );
    return;
  }
  const dot = dotCommandOf(text);
  if (dot !== undefined) {
    reply(core, message, `Commands start with a slash: did you mean /${dot}? Nothing was run.`);
    return;
  }
  route(core, message, text, {});
}

function route(
  core: BridgeCore,
  message: IncomingText,
  text: string,
  overrides: { project?: string; mode?: IncomingTextMode },
): void {
  const config = core.config();
  const by = message.from.name;
  if (message.replyTo !== undefined) {
    const decisionId = core.people.decisionAt(message.chatId, message.replyTo.messageId);
    if (decisionId !== undefined && core.answers.answer(decisionId, { kind: "text", text, by }) === "accepted") return;
  }
  let project =
    overrides.project === undefined
      ? chatSettings(config, core.store, message.chatId).project
      : findProject(config, overrides.project);
  let choice: SessionChoice | undefined;
  const continued =
    message.replyTo?.fromBot === true ? answerSessionOf(core, message.chatId, message.replyTo) : undefined;
  if (continued !== undefined && overrides.project === undefined) {
    project = findProject(config, continued.project) ?? project;
    choice = { kind: "resume", sessionId: continued.sessionId };
  }
  if (project === undefined) {
    reply(
      core,
      message,
      "No project is set up. Add a [projects.NAME] table with a path to the config, then send this again.",
    );
    return;
  }
  const key = { chatId: message.chatId, project: project.name };
  if (core.answers.answerByText(core.decisionKey(key), text, by) === "accepted") return;
  startRun(core, {
    chatId: message.chatId,
    project,
    prompt: text,
    promptMessageId: message.messageId,
    ...(choice === undefined ? {} : { choice }),
    ...(overrides.mode === undefined ? {} : { mode: overrides.mode }),
  });
}

type IncomingTextMode = NonNullable<ReturnType<typeof readDirectives>>["mode"];

/** The session a final answer belongs to: remembered, else read from its footer ("session 1a2b3c4d"). */
function answerSessionOf(
  core: BridgeCore,
  chatId: number,
  target: NonNullable<IncomingText["replyTo"]>,
): AnswerSession | undefined {
  const known = core.book.answerSession(chatId, target.messageId);
  if (known !== undefined) return known;
  const prefix = parseSessionMark(target.text);
  if (prefix === undefined) return undefined;
  const record = core.store.sessions.list(chatId, { limit: 200 }).find((s) => s.sessionId.startsWith(prefix));
  return record === null || record === undefined ? undefined : { sessionId: record.sessionId, project: record.project };
}

function stripMention(text: string, botUsername: string): string {
  if (botUsername === "") return text;
  return text.replace(new RegExp(`(^|\\s)@${botUsername}\\b`, "gi"), " ").trim();
}

export function reply(core: BridgeCore, message: IncomingText, html: string): void {
  void core.outbox.send(message.chatId, { html }, { replyTo: message.messageId });
}
