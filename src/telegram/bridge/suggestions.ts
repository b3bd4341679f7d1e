// Claude Code's guess at the person's next message ("run the tests"), offered as a button under
// the answer it follows, so a phone spares the typing. It comes a moment after the answer (one
// more request to the model), and only the latest answer of a lane has one: it goes away once
// any turn starts there (the conversation moved on). A tap sends it as the person's next message,
// in that answer's session, the run's title saying what was sent.
import { Composer } from "grammy";
import { excerpt, laneId, type Lane, type PromptSuggested, type TelecodeEvent } from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { Config } from "../../config/index.js";
import type { Logger } from "../../ports/index.js";
import { buttonTrigger, type CallbackRegistry } from "../callback-data.js";
import type { Outbox } from "../outbox.js";
import type { BridgeAction } from "./bridge-types.js";
import { requesterOf, type TelecodeContext } from "./context.js";
import type { RunStarter } from "./run-starter.js";
import type { SentAnswer } from "./run-view.js";
import { readTap, takeDown, toast } from "./buttons/tap.js";

const SUGGESTION_CHOICE = "go";
const SUGGESTION_TRIGGER = buttonTrigger(SUGGESTION_CHOICE);
/** What a tap on a guess no longer offered says (the conversation moved on, or Telecode restarted). */
const STALE = "No longer offered: send it as a message if you still want it";
/** A button's words: Telegram's apps cut longer labels anyway; the whole text is what runs. */
const LABEL_CHARS = 60;

/** A suggestion shown under an answer, until the lane's next turn. */
type Shown = { token: string; chatId: number; messageId: number };

export type SuggestionsDeps = { outbox: Outbox; callbacks: CallbackRegistry<BridgeAction>; logger: Logger };

export class Suggestions {
  readonly #deps: SuggestionsDeps;
  /** Per lane, its latest answer (until a turn starts there). */
  readonly #answers = new Map<string, SentAnswer>();
  /** Per lane, a suggestion that came before its answer was handed over (the answer waits for its progress message). */
  readonly #early = new Map<string, PromptSuggested>();
  readonly #shown = new Map<string, Shown>();

  constructor(deps: SuggestionsDeps) {
    this.#deps = deps;
  }

  /** Every event of every lane (a run's or not): a turn starting takes the lane's suggestion away. */
  observe(lane: Lane, event: TelecodeEvent): void {
    if (event.type === "turn_started") this.#clear(laneId(lane));
    else if (event.type === "prompt_suggested") this.#suggested(lane, event);
  }

  /** A run's answer is being sent: the lane's next suggestion goes under its last message. */
  answered(lane: Lane, answer: SentAnswer): void {
    const id = laneId(lane);
    this.#answers.set(id, answer);
    const early = this.#early.get(id);
    this.#early.delete(id);
    if (early !== undefined) this.#suggested(lane, early);
  }

  /**
   * The suggestion buttons: a tap runs the suggestion as the person's next message, once. A
   * button whose guess the conversation has moved past (or that a restart forgot) goes away.
   */
  buttons(deps: { starter: Pick<RunStarter, "start">; config: () => Config }): Composer<TelecodeContext> {
    const buttons = new Composer<TelecodeContext>();
    buttons.callbackQuery(SUGGESTION_TRIGGER, (ctx) => {
      const tap = readTap(ctx);
      if (tap === undefined) return;
      const entry = tap.token === undefined ? undefined : this.#deps.callbacks.lookup(tap.token);
      const action = entry?.chatId === tap.chatId ? entry?.action : undefined;
      const shown = action?.kind === "suggestion" ? this.#shown.get(laneId(action.lane)) : undefined;
      const live = shown !== undefined && shown.token === tap.token && this.#deps.callbacks.claimOnce(shown.token);
      if (action?.kind !== "suggestion" || shown === undefined || !live) {
        toast(this.#deps.outbox, tap, STALE);
        takeDown(this.#deps.outbox, tap);
        return;
      }
      const { lane, text, sessionId } = action;
      const project = deps.config().projects.find((p) => p.name === lane.project);
      if (project === undefined) {
        toast(this.#deps.outbox, tap, `Project ${lane.project} is no longer set up`);
        return;
      }
      this.#clear(laneId(lane));
      toast(this.#deps.outbox, tap, "Sending it");
      this.#deps.logger.event("telegram.suggestion_taken", { chatId: lane.chatId, project: lane.project });
      deps.starter.start({
        chatId: lane.chatId,
        project,
        prompt: text,
        choice: { kind: "resume", sessionId },
        promptMessageId: shown.messageId,
        requester: requesterOf(tap.from),
        view: { titleHtml: `💬 ${esc(text)}` },
      });
    });
    return buttons;
  }

  #suggested(lane: Lane, suggestion: PromptSuggested): void {
    const id = laneId(lane);
    const answer = this.#answers.get(id);
    if (answer === undefined) {
      this.#early.set(id, suggestion);
      return;
    }
    // A suggestion belongs to the conversation it follows.
    if (suggestion.sessionId !== undefined && suggestion.sessionId !== answer.sessionId) return;
    void answer.lastMessage.then((messageId) => {
      // The answer did not arrive, or a turn started while it went out.
      if (messageId === undefined || this.#answers.get(id) !== answer) return;
      this.#hide(id);
      const action: BridgeAction = { kind: "suggestion", lane, text: suggestion.text, sessionId: answer.sessionId };
      const token = this.#deps.callbacks.register(action, answer.chatId);
      const data = this.#deps.callbacks.data(token, SUGGESTION_CHOICE);
      this.#shown.set(id, { token, chatId: answer.chatId, messageId });
      const keyboard = {
        inline_keyboard: [[{ text: `💬 ${excerpt(suggestion.text, LABEL_CHARS)}`, callback_data: data }]],
      };
      void this.#deps.outbox.editKeyboard(answer.chatId, messageId, keyboard);
    });
  }

  /** The lane's conversation moved on: its answer no longer takes a suggestion, and one shown goes. */
  #clear(id: string): void {
    this.#answers.delete(id);
    this.#early.delete(id);
    this.#hide(id);
  }

  #hide(id: string): void {
    const shown = this.#shown.get(id);
    if (shown === undefined) return;
    this.#shown.delete(id);
    void this.#deps.outbox.editKeyboard(shown.chatId, shown.messageId, undefined);
  }
}
