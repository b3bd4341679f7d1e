// /model [NAME|default]: the chat's model from the next message. Without a name, the models the
// CLI offers (its initialize reply lists them, with what each costs) as buttons. A name the CLI
// does not offer is refused with the names it does; before any session has started, the name is
// kept and Claude Code checks it at the next message.
import { offeredModel, type OfferedModel } from "../../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { modelKeyboard } from "../buttons/model.js";
import type { Command } from "./command.js";

/** "opus (claude-opus-5-5), sonnet (claude-sonnet-5-5)". */
function listHtml(models: readonly OfferedModel[]): string {
  return models
    .map((m) => `<code>${esc(m.name)}</code>${m.resolvesTo === undefined ? "" : ` (${esc(m.resolvesTo)})`}`)
    .join(", ");
}

/** "• <b>opus</b> — Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok". */
function offerHtml(m: OfferedModel): string {
  const about = m.description ?? m.resolvesTo;
  return `• <b>${esc(m.name)}</b>${about === undefined ? "" : ` — ${esc(about)}`}`;
}

/** What to set for `word`: an offered name as offered, a full model id as that model's. */
function findModel(models: readonly OfferedModel[], word: string): string | undefined {
  const offered = offeredModel(models, word);
  return offered?.name.toLowerCase() === word.toLowerCase() ? offered.name : offered?.resolvesTo;
}

export const modelCommand: Command = {
  command: "model",
  description: "Choose the model (each with what it costs)",
  run(call, { store, models, outbox, callbacks }) {
    const { word, settings } = call;
    const offered = models();
    if (word === "") {
      const now = `Model: <b>${esc(settings.model ?? "the CLI's default")}</b>.`;
      if (offered === undefined || offered.length === 0)
        return call.say(
          `${now} The models Claude Code offers are listed once a session has started. Use /model NAME, or /model default.`,
        );
      const keyboard = modelKeyboard(callbacks, call.message.chatId, offered, settings.model);
      void outbox.send(
        call.message.chatId,
        {
          html: `${now} Claude Code offers:\n${offered.map(offerHtml).join("\n")}\nChoose one (it applies from the next message):`,
          keyboard,
        },
        { replyTo: call.message.messageId },
      );
      return;
    }
    if (word === "default") {
      store.chats.update(call.message.chatId, { model: null });
      return call.say("Model is now <b>the CLI's default</b> from the next message.");
    }
    const asked = call.args.trim().split(/\s+/)[0] ?? word;
    if (offered === undefined) {
      store.chats.update(call.message.chatId, { model: asked });
      return call.say(
        `Model is now <b>${esc(asked)}</b> from the next message. Claude Code checks the name then: no session has started yet to list the models it offers.`,
      );
    }
    const model = findModel(offered, asked);
    if (model === undefined)
      return call.say(
        `Claude Code does not offer “${esc(asked)}”, so the model stays ${esc(settings.model ?? "the CLI's default")}. Choose one of ${listHtml(offered)}.`,
      );
    store.chats.update(call.message.chatId, { model });
    call.say(`Model is now <b>${esc(model)}</b> from the next message.`);
  },
};
