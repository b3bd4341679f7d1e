// A person's text message that names no command: a directive line → a run with those
// settings; an unknown or dotted command → a hint; a reply to a side answer (/btw) → a follow-up
// beside the task; a reply to a prompt, or text while one is open → the answer; a reply to an
// answer → that session continues; anything else → a run
// (after the message it replies to, when that is not the bot's, with its photo or file).
// Telegram's apps send a text over 4,096 characters (a pasted log) as several messages, one
// right after another: those are joined again and read as the one message they were. Messages
// forwarded together (a few lines of a chat, an alert and its details) are one task too.
import { Composer } from "grammy";
import { escapeTelegramHtml } from "../../../render/index.js";
import { chatSettings } from "../chat-settings.js";
import { dotCommandOf, nearestCommand, readDirectives } from "../command-text.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import type { EventName } from "../../../ports/index.js";
import { logFailure, type BridgeServices } from "../services.js";
import { AlbumCollector, type Album } from "./album.js";
import { repliedContent } from "./attachments.js";
import { routeMessage, wordsContent } from "./route.js";
import { SPLIT_TEXT_CHARS } from "./split-text.js";

export type TextDeps = Pick<
  BridgeServices,
  | "config"
  | "store"
  | "outbox"
  | "runs"
  | "prompts"
  | "answers"
  | "starter"
  | "control"
  | "claudeCommands"
  | "clock"
  | "logger"
  | "media"
  | "sessions"
  | "signIns"
  | "sideAnswers"
> & { commandNames: readonly string[] };

export function textMessages(deps: TextDeps): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  const joined = (separator: string, failed: EventName) =>
    new AlbumCollector<IncomingText>(deps.clock, (parts) => {
      handleText(deps, joinTexts(parts, separator))?.catch(logFailure(deps.logger, failed));
    });
  const parts = joined("\n", "telegram.split_text_failed");
  const forwards = joined("\n\n", "telegram.forwards_failed");
  messages.on("message:text", (ctx) => {
    const message = ctx.incoming;
    if (message === undefined) return;
    const key = `${message.chatId}:${message.from.id}`;
    const part = { messageId: message.messageId, caption: message.body, item: message };
    if (ctx.message.forward_origin !== undefined && !parts.has(key)) return forwards.add(key, part);
    if (!parts.has(key) && message.text.length < SPLIT_TEXT_CHARS) return handleText(deps, message);
    parts.add(key, part);
    return undefined;
  });
  return messages;
}

/** Texts read as one message: the first's place, every part's words. */
function joinTexts({ items }: Album<IncomingText>, separator: string): IncomingText {
  const join = (pick: (part: IncomingText) => string): string => items.map(pick).join(separator);
  return {
    ...items[0]!,
    text: join((part) => part.text),
    body: join((part) => part.body),
    prompt: join((part) => part.prompt),
  };
}

function handleText(deps: TextDeps, message: IncomingText): Promise<void> | undefined {
  const config = deps.config();
  const slash = message.slash;
  if (slash !== undefined) {
    const directives = readDirectives(
      message.prompt,
      config.projects.map((p) => p.name),
      deps.control.botUsername(),
    );
    if (directives !== undefined) {
      if (directives.prompt === "") {
        reply(deps, message, "Put the task after the directives, e.g. <code>/app /plan fix the login bug</code>.");
        return;
      }
      return routeMessage(deps, message, repliedContent(deps, message, directives.prompt), directives);
    }
    // Claude Code's own commands ("/compact", "/loop 5m …", the project's) go to the session as they are.
    const project = chatSettings(config, deps.store, message.chatId).project;
    if (project !== undefined && deps.claudeCommands.has(project.name, slash.name))
      return routeMessage(deps, message, wordsContent(message.prompt));
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
  // The address a sign-in page sent the browser to, from a phone: for the Claude Code that waits for it.
  const signIn = deps.signIns.take(deps.sessions, message);
  if (signIn !== undefined) return signIn;
  const dot = dotCommandOf(message.body, deps.commandNames);
  if (dot !== undefined) {
    reply(deps, message, `Commands start with a slash: did you mean /${dot}? Nothing was run.`);
    return;
  }
  const route = (): Promise<void> | undefined =>
    routeMessage(deps, message, repliedContent(deps, message, message.prompt));
  // A reply to a side answer (/btw) follows it up beside the task, while Claude Code runs.
  return deps.sideAnswers.take(message, route) ?? route();
}

function reply(deps: Pick<TextDeps, "outbox">, message: IncomingText, html: string): void {
  void deps.outbox.send(message.chatId, { html }, { replyTo: message.messageId });
}
