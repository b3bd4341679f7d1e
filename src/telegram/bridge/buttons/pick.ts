// What the mode and project buttons share: a list shown one button a row, the first tap
// picks, the choice is stored for the chat and the message says what was chosen and by whom.
import { escapeTelegramHtml } from "../../../render/index.js";
import type { InlineKeyboardMarkup } from "grammy/types";
import { columnKeyboard } from "../prompt-html.js";
import type { BridgeServices } from "../services.js";
import { type Tap, toast } from "./tap.js";

/** One button a row, each with what it means after it when `meaning` says; the current one marked with a dot. */
export function pickKeyboard<T extends string>(
  options: readonly T[],
  current: string | undefined,
  dataFor: (index: number) => string,
  meaning?: (option: T) => string,
): InlineKeyboardMarkup {
  return columnKeyboard(
    options.map((o, i) => {
      const label = meaning === undefined ? o : `${o} · ${meaning(o)}`;
      return { label: o === current ? `• ${label}` : label, data: dataFor(i) };
    }),
  );
}

/**
 * Stores the picked option (via `store`) and edits the message to say it; a tap naming none does
 * nothing. A `store` that throws leaves the buttons as they were and rethrows.
 */
export function pick(
  deps: Pick<BridgeServices, "outbox" | "callbacks">,
  tap: Tap,
  what: string,
  picked: string | undefined,
  store: (chatId: number, value: string) => void,
): void {
  const chatId = tap.chatId;
  if (picked === undefined || chatId === undefined || tap.token === undefined) {
    toast(deps.outbox, tap, "This button does nothing");
    return;
  }
  if (!deps.callbacks.claimOnce(tap.token)) {
    toast(deps.outbox, tap, "Already answered");
    return;
  }
  try {
    store(chatId, picked);
  } catch (error) {
    // Not stored, so not said to be: the error boundary tells the person, who may tap again.
    deps.callbacks.unclaim(tap.token);
    throw error;
  }
  toast(deps.outbox, tap, `${what}: ${picked}`);
  if (tap.messageId !== undefined)
    void deps.outbox.edit(chatId, tap.messageId, {
      html: `${what} is now <b>${escapeTelegramHtml(picked)}</b> (chosen by ${escapeTelegramHtml(tap.from.name)}).`,
    });
}
