// The mode buttons /mode shows: a tap sets the chat's permission mode from the next message.
import type { Composer } from "grammy";
import { CONFIG_PERMISSION_MODES } from "../../../config/index.js";
import { MODE_SUMMARIES } from "../../../policy/index.js";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { pick, pickKeyboard } from "./pick.js";
import { buttonComposer } from "./tap.js";

/** The modes a chat may pick: those a config may choose. */
export const MODE_CHOICES = CONFIG_PERMISSION_MODES;

const MODE_TRIGGER = buttonTrigger("m\\d{1,2}");

/** The mode buttons for a chat whose mode is `current`, each saying in a few words what the mode does. */
export function modeKeyboard(callbacks: CallbackRegistry<BridgeAction>, chatId: number, current: string) {
  const token = callbacks.register({ kind: "mode", modes: MODE_CHOICES }, chatId);
  return pickKeyboard(
    MODE_CHOICES,
    current,
    (i) => callbacks.data(token, `m${i}`),
    (mode) => MODE_SUMMARIES[mode],
  );
}

export function modeButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers" | "store">,
): Composer<TelecodeContext> {
  return buttonComposer(deps, MODE_TRIGGER, "mode", (tap, action) => {
    const mode = action.modes[Number(tap.choice?.slice(1))];
    pick(deps, tap, "Mode", mode, (chatId) => deps.store.chats.update(chatId, { mode: mode ?? null }));
  });
}
