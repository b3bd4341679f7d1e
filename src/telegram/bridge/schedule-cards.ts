// Schedules as the chat shows them: the /loops list (each schedule in words, its next run, runs
// and cost) and the Pause / Resume / Stop buttons under a list, a confirmation or a fired run
// (whose buttons follow the schedule while its message is edited).
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { CallbackRegistry } from "../callback-data.js";
import type { BridgeAction } from "./bridge-types.js";
import type { ChatSchedules, ScheduleCard } from "./schedule-port.js";

/** A schedule's first line: its name, then its schedule, next run, runs and cost. */
export function cardHtml(card: ScheduleCard, number?: number): string {
  const mark = card.paused ? "⏸" : "⏰";
  const head = `${mark} ${number === undefined ? "" : `${number}. `}<b>${esc(card.name)}</b> · ${esc(card.summary)}`;
  return `${head}\n<i>${esc(card.prompt)}</i>`;
}

/** The buttons of the `index`-th schedule of a token: Pause or Resume, and Stop when it may be cancelled. */
export function cardButtons(
  callbacks: CallbackRegistry<BridgeAction>,
  token: string,
  card: Pick<ScheduleCard, "paused" | "cancellable">,
  index: number,
  label = "",
): InlineKeyboardButton[] {
  const suffix = label === "" ? "" : ` ${label}`;
  const toggle = card.paused
    ? { text: `▶️ Resume${suffix}`, callback_data: callbacks.data(token, `s-r${index}`) }
    : { text: `⏸ Pause${suffix}`, callback_data: callbacks.data(token, `s-p${index}`) };
  const stop = { text: `✖️ Stop${suffix}`, callback_data: callbacks.data(token, `s-c${index}`) };
  return card.cancellable ? [toggle, stop] : [toggle];
}

/** The buttons of one schedule (a confirmation, a fired run). */
export function singleCardKeyboard(
  callbacks: CallbackRegistry<BridgeAction>,
  chatId: number,
  card: Pick<ScheduleCard, "id" | "paused" | "cancellable">,
): InlineKeyboardButton[][] {
  const token = callbacks.register({ kind: "schedule", scheduleIds: [card.id], list: false }, chatId);
  return [cardButtons(callbacks, token, card, 0)];
}

/**
 * The buttons of one schedule as it is whenever asked (a fired run's, at each edit of its
 * message): Pause or Resume, and Stop; none once it ended. One token serves every edit.
 */
export function liveCardButtons(
  callbacks: CallbackRegistry<BridgeAction>,
  schedules: Pick<ChatSchedules, "card">,
  chatId: number,
  scheduleId: string,
): () => InlineKeyboardButton[][] {
  const token = callbacks.register({ kind: "schedule", scheduleIds: [scheduleId], list: false }, chatId);
  return () => {
    const card = schedules.card(chatId, scheduleId);
    return card === null ? [] : [cardButtons(callbacks, token, card, 0)];
  };
}

/** The /loops list: every live schedule of the chat, numbered, with its buttons. */
export function scheduleListMessage(
  callbacks: CallbackRegistry<BridgeAction>,
  chatId: number,
  cards: readonly ScheduleCard[],
  header: string,
): { html: string; keyboard?: InlineKeyboardMarkup } {
  if (cards.length === 0)
    return {
      html: `${header}\nNo loops or schedules here. Ask Claude for one (“every morning at 9, check the build”), or use /every or /at.`,
    };
  const token = callbacks.register({ kind: "schedule", scheduleIds: cards.map((c) => c.id), list: true }, chatId);
  const html = [header, ...cards.map((card, i) => cardHtml(card, i + 1))].join("\n\n");
  const rows = cards.map((card, i) => cardButtons(callbacks, token, card, i, cards.length > 1 ? `${i + 1}` : ""));
  return { html, keyboard: { inline_keyboard: rows } };
}
