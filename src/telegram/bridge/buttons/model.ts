// The model buttons /model shows once a session has listed the models Claude Code offers: a
// tap sets the chat's model from the next message ("default" goes back to the CLI's own).
import type { Composer } from "grammy";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices, ModelChoice } from "../services.js";
import { pick, pickKeyboard } from "./pick.js";
import { buttonComposer } from "./tap.js";

const MODEL_TRIGGER = buttonTrigger("o\\d{1,2}");

/** The name the CLI calls "default" (it resolves to whatever the CLI's default is now). */
const DEFAULT_MODEL = "default";

/** The offered name the chat's model is: by name or by what a name resolves to; "default" when none is set. */
export function currentModelName(models: readonly ModelChoice[], model: string | undefined): string | undefined {
  if (model === undefined) return DEFAULT_MODEL;
  const wanted = model.toLowerCase();
  // A model set by its full name is the offered name for it, not "default" (which may stand for it today).
  return (
    models.find((m) => m.name.toLowerCase() === wanted) ??
    models.find((m) => m.name !== DEFAULT_MODEL && m.resolvesTo?.toLowerCase() === wanted)
  )?.name;
}

/** One button per offered model, the chat's current one marked. */
export function modelKeyboard(
  callbacks: CallbackRegistry<BridgeAction>,
  chatId: number,
  models: readonly ModelChoice[],
  current: string | undefined,
) {
  const names = models.map((m) => m.name);
  const token = callbacks.register({ kind: "model", names }, chatId);
  return pickKeyboard(names, currentModelName(models, current), (i) => callbacks.data(token, `o${i}`));
}

export function modelButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers" | "store">,
): Composer<TelecodeContext> {
  return buttonComposer(deps, MODEL_TRIGGER, "model", (tap, action) => {
    const name = action.names[Number(tap.choice?.slice(1))];
    pick(deps, tap, "Model", name, (chatId, value) =>
      deps.store.chats.update(chatId, { model: value === DEFAULT_MODEL ? null : value }),
    );
  });
}
