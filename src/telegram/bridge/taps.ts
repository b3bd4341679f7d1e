// Button taps from allowed people: every tap gets its toast at once, then the action runs.
// Decision buttons go to the decision registry (exactly once); Cancel, mode and project
// buttons are first-tap-wins; buttons nobody knows any more (restart, ended) say "no longer
// pending" and take themselves down.
import { escapeTelegramHtml } from "../../render/index.js";
import { decodeCallbackData, type CallbackEntry } from "../callback-data.js";
import { failed, type BridgeCore } from "./bridge-core.js";
import type { BridgeAction } from "./bridge-types.js";
import { resumeTap } from "./recovery.js";
import { RESUME_CHOICE } from "./resume-button.js";

export type IncomingTap = {
  queryId: string;
  /** Undefined when Telegram no longer has the message (very old). */
  chatId: number | undefined;
  messageId: number | undefined;
  from: { id: number; name: string };
  data: string | undefined;
};

export function handleTap(core: BridgeCore, tap: IncomingTap): void {
  const toast = (text: string): void => void core.outbox.answerCallback(tap.queryId, { text });
  const takeDown = (): void => {
    if (tap.chatId !== undefined && tap.messageId !== undefined)
      void core.outbox.editKeyboard(tap.chatId, tap.messageId, undefined);
  };
  core.logger.event("telegram.tap", { chatId: tap.chatId, messageId: tap.messageId, userId: tap.from.id });
  const decoded = decodeCallbackData(tap.data);
  if (!decoded.ok) {
    toast(decoded.reason === "version" ? "No longer pending" : "This button does nothing");
    if (decoded.reason === "version") takeDown();
    return;
  }
  if (decoded.choice === RESUME_CHOICE) {
    resumeTap(core, tap, decoded.token, toast, takeDown);
    return;
  }
  const entry = core.callbacks.pending(decoded.token);
  if (entry === undefined || entry.chatId !== tap.chatId) {
    const lookup = entry === undefined ? core.callbacks.claim(tap.data, tap.from.name) : { kind: "stale" as const };
    if (lookup.kind === "already" && lookup.settledBy === "answered") toast("Already answered");
    else if (lookup.kind === "already" && lookup.settledBy === "cancel") toast("Already cancelling");
    else {
      toast("No longer pending");
      takeDown();
    }
    return;
  }
  act(core, tap, entry, decoded.token, decoded.choice, toast, takeDown);
}

function act(
  core: BridgeCore,
  tap: IncomingTap,
  entry: CallbackEntry<BridgeAction>,
  token: string,
  choice: string,
  toast: (text: string) => void,
  takeDown: () => void,
): void {
  const action = entry.action;
  switch (action.kind) {
    case "decision": {
      const reply = core.people.tap(action, choice, tap.from.name);
      toast(reply.toast);
      if (reply.removeButtons) takeDown();
      return;
    }
    case "cancel": {
      core.callbacks.settle(token, "cancel");
      toast("Cancelling…");
      core
        .sessions()
        .cancel(action.runId)
        .then(
          (outcome) => {
            core.logger.event("telegram.cancel_tapped", { chatId: tap.chatId, runId: action.runId, outcome });
          },
          failed(core, "telegram.cancel_failed"),
        );
      return;
    }
    case "mode":
    case "project": {
      const chatId = tap.chatId;
      const index = Number(choice.slice(1));
      const picked = action.kind === "mode" ? action.modes[index] : action.names[index];
      if (picked === undefined || chatId === undefined) {
        toast("This button does nothing");
        return;
      }
      core.callbacks.settle(token, "answered");
      const what = action.kind === "mode" ? "Mode" : "Project";
      toast(`${what}: ${picked}`);
      if (action.kind === "mode") core.store.chats.update(chatId, { mode: action.modes[index] ?? null });
      else core.store.chats.update(chatId, { project: picked });
      if (tap.messageId !== undefined) {
        void core.outbox.edit(chatId, tap.messageId, {
          html: `${what} is now <b>${escapeTelegramHtml(picked)}</b> (chosen by ${escapeTelegramHtml(tap.from.name)}).`,
        });
      }
      return;
    }
  }
}
