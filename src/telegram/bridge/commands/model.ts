// /model [NAME|default]: the chat's model from the next message. A name the CLI does not offer
// (its initialize reply lists them) is refused with the names it does; before any session has
// started, the name is kept and Claude Code checks it at the next message.
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { ModelChoice } from "../services.js";
import type { Command } from "./command.js";

/** "opus (claude-opus-5-5), sonnet (claude-sonnet-5-5)". */
function listHtml(models: readonly ModelChoice[]): string {
  return models
    .map((m) => `<code>${esc(m.name)}</code>${m.resolvesTo === undefined ? "" : ` (${esc(m.resolvesTo)})`}`)
    .join(", ");
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
  description: "Show or set the model",
  run(call, { store, models }) {
    const { word, settings } = call;
    const offered = models();
    if (word === "") {
      const choices = offered === undefined ? "" : ` Claude Code offers ${listHtml(offered)}.`;
      return call.say(
        `Model: <b>${esc(settings.model ?? "the CLI's default")}</b>.${choices} Use /model NAME, or /model default.`,
      );
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
