// What every button handler shares: the tap as plain data, its toast (every tap gets one at
// once), taking a message's buttons down, and finding the action behind the tap's token.
import type { Outbox } from "../../outbox.js";
import { decodeCallbackData, type CallbackEntry, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import type { Person, TelecodeContext } from "../context.js";

export type Tap = {
  queryId: string;
  /** Undefined when Telegram no longer has the message (very old). */
  chatId: number | undefined;
  messageId: number | undefined;
  from: Person;
  /** The data as sent (anyone can send any data). */
  data: string | undefined;
  /** The token and choice, when the data is this version's. */
  token: string | undefined;
  choice: string | undefined;
};

export function readTap(ctx: TelecodeContext): Tap | undefined {
  const query = ctx.callbackQuery;
  if (query === undefined || ctx.person === undefined) return undefined;
  const decoded = decodeCallbackData(query.data);
  return {
    queryId: query.id,
    chatId: query.message?.chat.id,
    messageId: query.message?.message_id,
    from: ctx.person,
    data: query.data,
    token: decoded.ok ? decoded.token : undefined,
    choice: decoded.ok ? decoded.choice : undefined,
  };
}

export function toast(outbox: Outbox, tap: Tap, text: string): void {
  void outbox.answerCallback(tap.queryId, { text });
}

/** Removes the buttons of the tapped message. */
export function takeDown(outbox: Outbox, tap: Tap): void {
  if (tap.chatId !== undefined && tap.messageId !== undefined)
    void outbox.editKeyboard(tap.chatId, tap.messageId, undefined);
}

/**
 * The pending action of kind `kind` behind the tap's token in the tapped chat; otherwise the
 * tap is answered here (already answered, already cancelling, no longer pending) and undefined returned.
 */
export function pendingAction<K extends BridgeAction["kind"]>(
  deps: { outbox: Outbox; callbacks: CallbackRegistry<BridgeAction> },
  tap: Tap,
  kind: K,
): CallbackEntry<Extract<BridgeAction, { kind: K }>> | undefined {
  const entry = tap.token === undefined ? undefined : deps.callbacks.pending(tap.token);
  if (entry !== undefined && entry.chatId === tap.chatId && entry.action.kind === kind)
    return entry as CallbackEntry<Extract<BridgeAction, { kind: K }>>;
  const lookup = entry === undefined ? deps.callbacks.claim(tap.data, tap.from.name) : { kind: "stale" as const };
  if (lookup.kind === "already" && lookup.settledBy === "answered") toast(deps.outbox, tap, "Already answered");
  else if (lookup.kind === "already" && lookup.settledBy === "cancel") toast(deps.outbox, tap, "Already cancelling");
  else {
    toast(deps.outbox, tap, "No longer pending");
    takeDown(deps.outbox, tap);
  }
  return undefined;
}
