// The Pause, Resume and Stop buttons of schedules (under the /loops list, a confirmation of /at
// or /every, a fired run): a tap acts on the schedule through the scheduler and says what it
// did; under the list, the list is shown again as it is now; elsewhere the buttons follow the
// schedule (Resume once paused, none once it ended).
import type { Composer } from "grammy";
import { buttonTrigger } from "../../callback-data.js";
import type { TelecodeContext } from "../context.js";
import { scheduleListMessage, singleCardKeyboard } from "../schedule-cards.js";
import type { ScheduleAction } from "../schedule-port.js";
import type { BridgeServices } from "../services.js";
import { buttonComposer, toast } from "./tap.js";

const SCHEDULE_TRIGGER = buttonTrigger("s-(?:[prc]\\d{1,2}|x)");

/** The choice of a button that stops every schedule of its token (/new's "Stop these loops"). */
export const STOP_ALL_CHOICE = "s-x";

const ACTIONS: Readonly<Record<string, ScheduleAction>> = { p: "pause", r: "resume", c: "cancel" };

/** The header of the /loops list, saying whether Claude may schedule here. */
export function listHeader(deps: Pick<BridgeServices, "schedules" | "store">, chatId: number): string {
  if (!deps.schedules.loopsEnabled())
    return "<b>Loops and schedules</b>\nClaude's loops are off everywhere ([loops] enabled = false in the config).";
  const on = deps.store.chats.get(chatId).loops;
  return on
    ? "<b>Loops and schedules</b>\nClaude may schedule work in this chat (/loops off stops that)."
    : "<b>Loops and schedules</b>\nClaude may not schedule work in this chat (/loops on allows it).";
}

export function scheduleButtons(
  deps: Pick<
    BridgeServices,
    "outbox" | "callbacks" | "prompts" | "answers" | "schedules" | "store" | "logger" | "runs"
  >,
): Composer<TelecodeContext> {
  return buttonComposer(deps, SCHEDULE_TRIGGER, "schedule", (tap, action) => {
    const choice = tap.choice ?? "";
    if (choice === STOP_ALL_CHOICE && tap.chatId !== undefined) {
      const chatId = tap.chatId;
      const stopped = action.scheduleIds.filter((id) => deps.schedules.act(chatId, id, "cancel").ok);
      deps.logger.event("telegram.schedules_stopped", { chatId, scheduleIds: stopped });
      toast(deps.outbox, tap, stoppedToast(stopped.length));
      if (tap.messageId === undefined) return;
      // The message no longer asks: it says what the tap did (editing the text takes the button down too).
      if (action.stoppedHtml === undefined) void deps.outbox.editKeyboard(chatId, tap.messageId, undefined);
      else void deps.outbox.edit(chatId, tap.messageId, { html: action.stoppedHtml });
      return;
    }
    const op = ACTIONS[choice.charAt(2)];
    const id = action.scheduleIds[Number(choice.slice(3))];
    const chatId = tap.chatId;
    if (op === undefined || id === undefined || chatId === undefined)
      return toast(deps.outbox, tap, "This button does nothing");
    const result = deps.schedules.act(chatId, id, op);
    deps.logger.event("telegram.schedule_tapped", { chatId, scheduleId: id, action: op, ok: result.ok });
    toast(deps.outbox, tap, result.toast);
    if (tap.messageId === undefined) return;
    if (action.list) {
      const list = scheduleListMessage(deps.callbacks, chatId, deps.schedules.list(chatId), listHeader(deps, chatId));
      void deps.outbox.edit(chatId, tap.messageId, list);
      return;
    }
    // A run still working shows its own buttons (Cancel, then the schedule's as it is now).
    const run = deps.runs.byMessage(chatId, tap.messageId);
    if (run !== undefined) {
      run.buttonsChanged();
      return;
    }
    // One schedule's buttons (a confirmation, a fired run's summary) follow it: Resume once paused, none once it ended.
    const keyboard =
      result.card === null ? undefined : { inline_keyboard: singleCardKeyboard(deps.callbacks, chatId, result.card) };
    void deps.outbox.editKeyboard(chatId, tap.messageId, keyboard);
  });
}

/** The toast for a Stop-them-all tap: how many it stopped, in words. */
function stoppedToast(count: number): string {
  if (count === 0) return "Nothing left to stop";
  return count === 1 ? "Stopped" : `Stopped all ${count}`;
}
