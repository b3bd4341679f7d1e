// The model buttons /model shows once a session has listed the models Claude Code offers: a
// tap sets the chat's model from the next message ("default" goes back to the CLI's own).
import type { Composer } from "grammy";
import { DEFAULT_MODEL_NAME, offeredModel, type OfferedModel } from "../../../domain/index.js";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { pick, pickKeyboard } from "./pick.js";
import { buttonComposer } from "./tap.js";

const MODEL_TRIGGER = buttonTrigger("o\\d{1,2}");

/** The offered name the chat's model is ("default" when none is set). */
export function currentModelName(models: readonly OfferedModel[], model: string | undefined): string | undefined {
  return model === undefined ? DEFAULT_MODEL_NAME : offeredModel(models, model)?.name;
}

/** One button per offered model, the chat's current one marked. */
export function modelKeyboard(
  callbacks: CallbackRegistry<BridgeAction>,
  chatId: number,
  models: readonly OfferedModel[],
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
      deps.store.chats.update(chatId, { model: value === DEFAULT_MODEL_NAME ? null : value }),
    );
  });
}
