// The mode buttons /mode shows: a tap sets the chat's permission mode from the next message.
import { Composer } from "grammy";
import type { PermissionMode } from "../../../domain/index.js";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import type { TelecodeContext } from "../context.js";
import type { BridgeServices } from "../services.js";
import { pick, pickKeyboard } from "./pick.js";
import { actionOf, readTap } from "./tap.js";

export const MODE_CHOICES: readonly PermissionMode[] = [
  "default",
  "acceptEdits",
  "plan",
  "plan-auto",
  "auto",
  "dontAsk",
];

const MODE_TRIGGER = buttonTrigger("m\\d{1,2}");

/** The mode buttons for a chat whose mode is `current`. */
export function modeKeyboard(callbacks: CallbackRegistry<BridgeAction>, chatId: number, current: string) {
  const token = callbacks.register({ kind: "mode", modes: MODE_CHOICES }, chatId);
  return pickKeyboard(MODE_CHOICES, current, (i) => callbacks.data(token, `m${i}`));
}

export function modeButtons(
  deps: Pick<BridgeServices, "outbox" | "callbacks" | "prompts" | "answers" | "store">,
): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(MODE_TRIGGER, (ctx) => {
    const tap = readTap(ctx);
    if (tap === undefined) return;
    const entry = actionOf(deps, tap, "mode");
    if (entry === undefined) return;
    const mode = entry.action.modes[Number(tap.choice?.slice(1))];
    pick(deps, tap, "Mode", mode, (chatId) => deps.store.chats.update(chatId, { mode: mode ?? null }));
  });
  return buttons;
}
