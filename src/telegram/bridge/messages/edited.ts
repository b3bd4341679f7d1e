// A person edits a message they sent: Telegram's apps make it easy (a typo fixed a moment
// later), but Claude Code works from a message as it was sent. An edit of a text still waiting
// to run (queued, or its session still opening) changes what that run starts with. An edit of
// words that already started a run is offered as a new request, after that run or instead of it
// (buttons/edit-run.ts, also after a restart); one that cannot run on its own (a command line,
// an attachment's caption, part of a long paste) or that answered a question is only said not
// to reach Claude, so the person does not believe it did. A command line that started nothing
// (a typo fixed: /mdoel opus made /model opus) is handled as if sent now. Other edits are left alone.
import { Composer } from "grammy";
import type { Message, Update } from "grammy/types";
import { EDIT_RUN_TRIGGER, editRunButtons, editRunKeyboard, type EditRunDeps } from "../buttons/edit-run.js";
import { readTap } from "../buttons/tap.js";
import type { Person, TelecodeContext } from "../context.js";
import { heardAs } from "../delivery.js";
import { incomingText, promptWords } from "./incoming.js";
import { SPLIT_TEXT_CHARS } from "./split-text.js";

export type EditedDeps = EditRunDeps & {
  control: { botUsername(): string };
  /** Handles an update as one just received (the bot's own middleware, from the start). */
  handleUpdate(update: Update): Promise<void>;
};

export const EDIT_APPLIED = "✏️ Changed: the queued message runs as you edited it.";
export const EDIT_NOT_REACHING =
  "✏️ This edit does not reach Claude, which works from the message as first sent. Send the change as a new message.";
export const EDIT_AFTER_ANSWER =
  "✏️ This edit does not reach Claude, which has your answer as first sent. Send the change as a new message.";
export const EDIT_WHILE_RUNNING = "✏️ Claude is working from the message as first sent; this edit does not reach it.";
export const EDIT_AFTER_RUN = "✏️ Claude worked from the message as first sent; this edit did not reach it.";

/** Offers remembered per edited message, so a later edit's offer takes the earlier one's place. */
const REMEMBERED_OFFERS = 200;

/** The edits of messages, and the buttons their notices carry (register `buttons` with the other buttons). */
export function editedMessages(deps: EditedDeps): {
  messages: Composer<TelecodeContext>;
  buttons: Composer<TelecodeContext>;
} {
  const offers = new Map<string, { token: string; notice: Promise<number | undefined> }>();
  const messages = new Composer<TelecodeContext>();
  messages.on("edited_message", (ctx) => {
    const message = ctx.editedMessage;
    if (ctx.person === undefined) return;
    const chatId = message.chat.id;
    const messageId = message.message_id;
    const words = wordsOf(message, ctx.person);
    const outcome = deps.sessions.amendQueued(chatId, messageId, (prompt) =>
      words !== undefined && typeof prompt === "string" && prompt.length < SPLIT_TEXT_CHARS ? words : undefined,
    );
    const answered = outcome === "not_queued" && deps.prompts.wasTypedAnswer(chatId, messageId);
    const run = outcome === "not_queued" && !answered ? deps.store.runs.startedBy(chatId, messageId) : null;
    const command = outcome === "not_queued" && !answered && run === null && isCommandLine(message, ctx.person);
    const seen =
      outcome !== "not_queued" ? outcome : answered ? "answered" : run !== null ? "ran" : command ? "command" : outcome;
    deps.logger.event("telegram.message_edited", { chatId, messageId, outcome: seen });
    const reply = (html: string): void => void deps.outbox.send(chatId, { html }, { replyTo: messageId });
    if (outcome === "amended") return reply(EDIT_APPLIED);
    if (outcome === "unchanged" || answered) return reply(answered ? EDIT_AFTER_ANSWER : EDIT_NOT_REACHING);
    // Sent as of its edit, so it is not taken for one that waited while Telecode was down.
    if (command)
      return deps.handleUpdate({
        update_id: ctx.update.update_id,
        message: heardAs({ ...message, date: message.edit_date ?? message.date }, message),
      });
    if (run === null) return;
    if (words === undefined) return reply(EDIT_NOT_REACHING);
    offerRun(chatId, messageId, run.runId, words);
  });

  /** The notice under an edit of words that started run `runId`, with buttons that run the edited `words`. */
  function offerRun(chatId: number, messageId: number, runId: string, words: string): void {
    const key = `${chatId}:${messageId}`;
    const earlier = offers.get(key);
    offers.delete(key);
    void earlier?.notice.then((id) => {
      if (id !== undefined) void deps.outbox.editKeyboard(chatId, id, undefined);
    });
    const running = deps.runs.byRun(runId) !== undefined;
    const token = deps.callbacks.register({ kind: "edit", runId, messageId, text: words }, chatId);
    const content = {
      html: running ? EDIT_WHILE_RUNNING : EDIT_AFTER_RUN,
      keyboard: editRunKeyboard(deps.callbacks, token, running),
    };
    const notice = deps.outbox
      .send(chatId, content, { replyTo: messageId })
      .then((delivery) => (delivery.ok ? delivery.messageId : undefined));
    offers.set(key, { token, notice });
    if (offers.size > REMEMBERED_OFFERS) offers.delete(offers.keys().next().value!);
  }

  /**
   * Only a plain text's words stand for a request: a directive or command line is read
   * otherwise, and a long paste the app split was joined from parts, of which this is one.
   */
  function wordsOf(message: Message, person: Person): string | undefined {
    if (message.text === undefined) return undefined;
    const edited = incomingText(message, message.text, person, deps.control.botUsername());
    return edited.slash === undefined && edited.body.trim() && edited.body.length < SPLIT_TEXT_CHARS
      ? promptWords(edited, edited.prompt)
      : undefined;
  }

  function isCommandLine(message: Message, person: Person): boolean {
    return (
      message.text !== undefined &&
      incomingText(message, message.text, person, deps.control.botUsername()).slash !== undefined
    );
  }

  // Offers live in memory; after a restart a notice's tap finds its offer again from the notice
  // itself: it replies to the edited message, which Telegram sends along as it reads now.
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(EDIT_RUN_TRIGGER, (ctx, next) => {
    const tap = readTap(ctx);
    const notice = ctx.callbackQuery.message;
    if (tap?.token === undefined || tap.chatId === undefined || deps.callbacks.lookup(tap.token) !== undefined)
      return next();
    if (notice === undefined || !("reply_to_message" in notice) || !isOfferNotice(notice)) return next();
    // Its edit date says Telegram sent the message as edited, not as first sent.
    const edited = notice.reply_to_message;
    const asEdited = edited?.from?.is_bot === false && edited.edit_date !== undefined;
    const words = asEdited ? wordsOf(edited, tap.from) : undefined;
    if (edited === undefined || words === undefined) return next();
    const run = deps.store.runs.startedBy(tap.chatId, edited.message_id);
    if (run !== null) {
      const action = { kind: "edit" as const, runId: run.runId, messageId: edited.message_id, text: words };
      // Known again under its own token, and remembered like any other offer (not held: its
      // buttons end with the first tap, or with a later edit).
      deps.callbacks.restore(tap.token, action, tap.chatId, notice.message_id);
      deps.callbacks.release(tap.token);
      // An edit made since the restart has its own notice, which replaced this one.
      const key = `${tap.chatId}:${edited.message_id}`;
      if (!offers.has(key)) offers.set(key, { token: tap.token, notice: Promise.resolve(notice.message_id) });
    }
    return next();
  });
  const latest = (chatId: number, messageId: number): string | undefined => offers.get(`${chatId}:${messageId}`)?.token;
  buttons.use(editRunButtons(deps, latest));
  return { messages, buttons };
}

/** A notice of ours offering to run an edit (its text as sent, before a tap changed it). */
function isOfferNotice(notice: Message): boolean {
  return notice.from?.is_bot === true && (notice.text === EDIT_WHILE_RUNNING || notice.text === EDIT_AFTER_RUN);
}
