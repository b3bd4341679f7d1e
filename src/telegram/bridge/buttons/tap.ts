// What every button handler shares: the tap as plain data, its toast (every tap gets one at
// once), taking a message's buttons down, finding the action behind the tap's token, refusing a
// tap no action takes without taking down buttons that are still live, and a store call whose
// failure the tap's toast can say.
import { Composer } from "grammy";
import type { Outbox } from "../../outbox.js";
import { decodeCallbackData, type CallbackEntry, type CallbackRegistry } from "../../callback-data.js";
import type { EventName, Logger } from "../../../ports/index.js";
import type { DecisionAnswers } from "../../../sessions/decisions/index.js";
import type { BridgeAction } from "../bridge-types.js";
import type { Person, TelecodeContext } from "../context.js";
import { NOTHING, type DecisionMessages } from "../decision-messages.js";

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
 * The action of kind `kind` behind the tap's token, shown in the tapped chat; otherwise the
 * tap is refused (see `refuseTap`) and undefined returned.
 */
function actionOf<K extends BridgeAction["kind"]>(
  deps: RefuseDeps & { callbacks: CallbackRegistry<BridgeAction> },
  tap: Tap,
  kind: K,
): CallbackEntry<Extract<BridgeAction, { kind: K }>> | undefined {
  const entry = tap.token === undefined ? undefined : deps.callbacks.lookup(tap.token);
  if (entry !== undefined && entry.chatId === tap.chatId && entry.action.kind === kind)
    return entry as CallbackEntry<Extract<BridgeAction, { kind: K }>>;
  refuseTap(deps, tap, "No longer pending");
  return undefined;
}

export type RefuseDeps = { outbox: Outbox; prompts: Pick<DecisionMessages, "decisionAt">; answers: DecisionAnswers };

/**
 * A tap no action takes: garbled, another version's, a token nobody issued (or one forgotten,
 * or from another chat). It takes the message's buttons down only when that proves the
 * message's decision is over (the ledger says so); a live decision keeps its buttons.
 */
export function refuseTap(deps: RefuseDeps, tap: Tap, toastText: string): void {
  const decisionId =
    tap.chatId === undefined || tap.messageId === undefined
      ? undefined
      : deps.prompts.decisionAt(tap.chatId, tap.messageId);
  if (decisionId === undefined) return toast(deps.outbox, tap, toastText);
  const verdict = deps.answers.verdictFor(decisionId);
  if (verdict === "accepted" || verdict === "not_a_choice") return toast(deps.outbox, tap, NOTHING);
  toast(deps.outbox, tap, verdict === "already_answered" ? "Already answered" : "No longer pending");
  takeDown(deps.outbox, tap);
}

type Action<K extends BridgeAction["kind"]> = Extract<BridgeAction, { kind: K }>;

/**
 * The composer for one kind of button: a tap whose data matches `trigger` and whose token
 * stands for an action of `kind` shown in the tapped chat reaches `handle`; any other is refused.
 */
export function buttonComposer<K extends BridgeAction["kind"]>(
  deps: RefuseDeps & { callbacks: CallbackRegistry<BridgeAction> },
  trigger: RegExp,
  kind: K,
  handle: (tap: Tap, action: Action<K>) => void,
): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(trigger, (ctx) => {
    const tap = readTap(ctx);
    if (tap === undefined) return;
    const entry = actionOf(deps, tap, kind);
    if (entry !== undefined) handle(tap, entry.action);
  });
  return buttons;
}

/** A store call for a tap; when it throws, the failure is logged as `event` and the tap gets `failed`. */
export function fromStore<T>(deps: { logger: Logger }, event: EventName, runId: string, call: () => T, failed: T): T {
  try {
    return call();
  } catch (error) {
    deps.logger.event(event, { err: error, runId }, "error");
    return failed;
  }
}
