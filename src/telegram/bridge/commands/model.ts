// /model [NAME|default]: the chat's model from the next message. Without a name, the models the
// CLI offers (its initialize reply lists them, with what each costs) as buttons. A name the CLI
// does not offer is refused with the names it does; before any session has started, the name is
// kept and Claude Code checks it at the next message.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { modelKeyboard } from "../buttons/model.js";
import type { ModelChoice } from "../services.js";
import type { Command } from "./command.js";

/** "opus (claude-opus-5-5), sonnet (claude-sonnet-5-5)". */
function listHtml(models: readonly ModelChoice[]): string {
  return models
    .map((m) => `<code>${esc(m.name)}</code>${m.resolvesTo === undefined ? "" : ` (${esc(m.resolvesTo)})`}`)
    .join(", ");
}

/** "• <b>opus</b> — Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok". */
function offerHtml(m: ModelChoice): string {
  const about = m.description ?? m.resolvesTo;
  return `• <b>${esc(m.name)}</b>${about === undefined ? "" : ` — ${esc(about)}`}`;
}

/** The offered name `word` means, by name or by the model it resolves to (any case). */
function findModel(models: readonly ModelChoice[], word: string): string | undefined {
  const wanted = word.toLowerCase();
  for (const m of models) {
    if (m.name.toLowerCase() === wanted) return m.name;
    if (m.resolvesTo?.toLowerCase() === wanted) return m.resolvesTo;
  }
  return undefined;
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
