// A message that waited longer than limits.offline_max_age_minutes (Telecode was down, the
// computer slept) does not run by itself: it may no longer be wanted. The chat is told so under
// it, with a button that runs it as if sent now, when it stands on its own (a text, a photo or
// file, a voice note); one part of several (an album, a forwarded batch, a long text the app
// split) is left to be sent again, as running a part alone would lose the rest. The button finds
// the message in memory, or after a restart in the notice it is under (Telegram sends the
// replied message along with a tap, though without the message that one replied to).
import { Composer } from "grammy";
import type { Message, Update } from "grammy/types";
import { formatDurationMs } from "../../../domain/index.js";
import type { Logger } from "../../../ports/index.js";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { Outbox } from "../../outbox.js";
import type { BridgeAction } from "../bridge-types.js";
import { readTap, takeDown, toast } from "../buttons/tap.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import { markHeardLive } from "../delivery.js";
import { columnKeyboard } from "../prompt-html.js";
import { SPLIT_TEXT_CHARS } from "./split-text.js";

const RUN_NOW_CHOICE = "offline";
const RUN_NOW_TRIGGER = buttonTrigger(RUN_NOW_CHOICE);
const NOTICE_LEAD = "I was offline when you sent this";
/** The parts of a split text are sent within a second or two of each other. */
const SPLIT_PARTS_WITHIN_S = 2;
/** Messages told offline kept whole in memory, for their button (the newest ones). */
const KEPT_MESSAGES = 200;

export type OfflineDeps = {
  outbox: Outbox;
  callbacks: CallbackRegistry<BridgeAction>;
  logger: Logger;
};

export class OfflineMessages {
  readonly #deps: OfflineDeps;
  /** Each chat and person's last long text told offline, by its date: the parts after it are its own. */
  readonly #longTexts = new Map<string, number>();
  /** Messages offered a run, by chat and message id, as they came (with what they reply to). */
  readonly #kept = new Map<string, Message>();

  constructor(deps: OfflineDeps) {
    this.#deps = deps;
  }

  /**
   * Tells the chat that `incoming` did not run, `ageMs` after it was sent; with Run it now when
   * `message`, the message it was read from, is given (it stands on its own) and is not a part of
   * a long text the app split.
   */
  tell(incoming: IncomingText, ageMs: number, message: Message | undefined): void {
    const { outbox, callbacks, logger } = this.#deps;
    logger.event("telegram.offline_message", { chatId: incoming.chatId, messageId: incoming.messageId, ageMs });
    const person = `${incoming.chatId}:${incoming.from.id}`;
    const longBefore = this.#longTexts.get(person);
    const long = incoming.text.length >= SPLIT_TEXT_CHARS;
    if (long) this.#longTexts.set(person, incoming.dateS);
    else this.#longTexts.delete(person);
    const part = long || (longBefore !== undefined && incoming.dateS - longBefore <= SPLIT_PARTS_WITHIN_S);
    const when = `${NOTICE_LEAD} (${formatDurationMs(ageMs)} ago), so it did not run.`;
    if (message === undefined || part) {
      void outbox.send(
        incoming.chatId,
        { html: `${when} Send it again if you still want it.` },
        { replyTo: incoming.messageId },
      );
      return;
    }
    const key = `${incoming.chatId}:${incoming.messageId}`;
    this.#kept.set(key, message);
    if (this.#kept.size > KEPT_MESSAGES) this.#kept.delete(this.#kept.keys().next().value!);
    const token = callbacks.register({ kind: "offline", messageId: incoming.messageId }, incoming.chatId);
    const keyboard = columnKeyboard([{ label: "▶️ Run it now", data: callbacks.data(token, RUN_NOW_CHOICE) }]);
    void outbox.send(
      incoming.chatId,
      { html: `${when} Tap Run it now if you still want it.`, keyboard },
      { replyTo: incoming.messageId },
    );
  }

  /** The Run it now button: the message handled again as one just sent, once. */
  buttons(handleUpdate: (update: Update) => Promise<void>): Composer<TelecodeContext> {
    const { outbox, callbacks, logger } = this.#deps;
    const buttons = new Composer<TelecodeContext>();
    buttons.callbackQuery(RUN_NOW_TRIGGER, (ctx) => {
      const tap = readTap(ctx);
      const notice = ctx.callbackQuery.message;
      if (tap?.token === undefined || tap.chatId === undefined || notice === undefined) return;
      const replied = "reply_to_message" in notice ? notice.reply_to_message : undefined;
      const ours = notice.from?.is_bot === true && (notice.text ?? "").startsWith(NOTICE_LEAD);
      if (!ours || replied === undefined || replied.from?.is_bot !== false) {
        toast(outbox, tap, "The message is no longer there");
        return takeDown(outbox, tap);
      }
      if (callbacks.lookup(tap.token) === undefined) {
        callbacks.restore(tap.token, { kind: "offline", messageId: replied.message_id }, tap.chatId, notice.message_id);
        callbacks.release(tap.token);
      }
      if (!callbacks.claimOnce(tap.token)) return toast(outbox, tap, "Already started");
      toast(outbox, tap, "Running it now");
      void outbox.edit(tap.chatId, notice.message_id, {
        html: `${NOTICE_LEAD}, so it did not run then. ▶️ Running it now.`,
      });
      const message = this.#kept.get(`${tap.chatId}:${replied.message_id}`) ?? replied;
      logger.event("telegram.offline_message_run", { chatId: tap.chatId, messageId: message.message_id });
      const update = { update_id: ctx.update.update_id, message } as Update;
      // Asked for now: it is not judged by its date again.
      markHeardLive(update);
      handleUpdate(update).catch((error: unknown) =>
        logger.event("telegram.offline_message_failed", { err: error }, "error"),
      );
    });
    return buttons;
  }
}
