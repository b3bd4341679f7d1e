// A bot command: its name and menu line, and what it does with a message. Commands answer in
// one short message; settings changes take effect with the next run. The composer runs the
// command a text message names (after access control and the incoming-text checks).
import { Composer } from "grammy";
import type { Config } from "../../../config/index.js";
import { escapeTelegramHtml } from "../../../render/index.js";
import { chatSettings, type ChatSettings } from "../chat-settings.js";
import { readSlashWord } from "../command-text.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";

/** One use of a command. */
export type CommandCall = {
  message: IncomingText;
  /** The text after the command (other lines too). */
  args: string;
  /** The args with their links, code and quotes as Markdown: what a prompt takes from them. */
  promptArgs: string;
  /** The first argument, lower case ("" when none). */
  word: string;
  settings: ChatSettings;
  config: Config;
  /** Answers as a reply to the command. */
  say(html: string): void;
  /** Every command, in menu order (for /help). */
  commands: readonly Command[];
};

export type Command = {
  /** Without the slash: "new". */
  readonly command: string;
  /** The menu line (setMyCommands) and the /help line. */
  readonly description: string;
  /** Other names it answers to (not in the menu). */
  readonly aliases?: readonly string[];
  run(call: CommandCall, services: BridgeServices): void;
};

/** Runs the command a message names; other messages go on to the next handler. */
export function commandComposer(commands: readonly Command[], services: BridgeServices): Composer<TelecodeContext> {
  const composer = new Composer<TelecodeContext>();
  for (const command of commands) {
    const names = [command.command, ...(command.aliases ?? [])];
    composer.filter(
      (ctx) => names.includes(ctx.incoming?.slash?.name ?? "") && ctx.incoming?.slash?.forOtherBot === false,
      (ctx) => {
        const message = ctx.incoming;
        if (message === undefined) return;
        const config = services.config();
        const args = message.slash?.args ?? "";
        command.run(
          {
            message,
            args,
            promptArgs: readSlashWord(message.prompt, services.control.botUsername())?.args ?? args,
            word: args.split(/\s+/)[0]?.toLowerCase() ?? "",
            settings: chatSettings(config, services.store, message.chatId),
            config,
            say: (html) => void services.outbox.send(message.chatId, { html }, { replyTo: message.messageId }),
            commands,
          },
          services,
        );
      },
    );
  }
  return composer;
}

export const NO_PROJECT = "No project is set up. Add a [projects.NAME] table with a path to the config.";

/** The answer to a word a command does not take: nothing changed, and how to use it (`usage` is HTML). */
export function unknownWordHtml(command: string, word: string, usage: string): string {
  return `/${command} does not take “${escapeTelegramHtml(word)}”, so nothing changed. Use ${usage}.`;
}
