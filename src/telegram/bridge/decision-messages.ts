// Decisions as Telegram messages (the bridge's PersonPort): prompts with buttons, edited in place
// and settled with who decided; taps go to the decision ledger, which alone says whether one is
// open. Records each prompt's message, what it shows and its button token, so a restart can
// bring it up to date, and a kept run's decision asked again keeps its message and buttons.
import type { InlineKeyboardMarkup } from "grammy/types";
import type { DecisionOutcome, DecisionPrompt, PersonAnswer } from "../../policy/index.js";
import type { Logger } from "../../ports/index.js";
import type { Lane } from "../../domain/index.js";
import type { DecisionAnswers, PendingDecisionView, PersonPort } from "../../sessions/decisions/index.js";
import type { Requester } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import type { CallbackRegistry } from "../callback-data.js";
import type { Outbox } from "../outbox.js";
import type { BridgeAction, DecisionAction } from "./bridge-types.js";
import { choiceCode, choiceFromCode } from "./choice-code.js";
import { keyboardOf, renderInfoParts, renderPromptParts, renderSettledHtml } from "./prompt-html.js";
import type { RunIndex } from "./run-index.js";

type Shown = {
  chatId: number;
  token: string;
  action: DecisionAction;
  /** The message with the buttons, once sent. */
  message: Promise<number | undefined>;
  lastHtml: string;
  lastKeyboard: InlineKeyboardMarkup;
};

/** Decision messages remembered after they were settled, so a late tap on one can be judged. */
const SETTLED_MESSAGES = 2000;

export type TapReply = { toast: string; removeButtons: boolean };

/** What a tap that names nothing the decision offers reads. */
export const NOTHING = "This button does nothing";

export type DecisionMessagesDeps = {
  outbox: Outbox;
  store: Store;
  logger: Logger;
  answers: DecisionAnswers;
  callbacks: CallbackRegistry<BridgeAction>;
  runs: Pick<RunIndex, "live">;
  /** The one person who may answer a decision, when only one may (answerers.ts). */
  soleAnswerer: (chatId: number, decisionId: string) => Requester | undefined;
};

export class DecisionMessages {
  readonly #deps: DecisionMessagesDeps;
  /** Decisions on screen now, by decision id. */
  readonly #shown = new Map<string, Shown>();
  /** Which decision each message shows ("chat:message" → decision id), settled ones too (bounded). */
  readonly #byMessage = new Map<string, string>();
  /** The person's messages whose words answered a decision ("chat:message"; bounded). */
  readonly #typedAnswers = new Set<string>();

  constructor(deps: DecisionMessagesDeps) {
    this.#deps = deps;
  }

  /** The port the decision driver of the lane's session talks to. */
  portFor(lane: Lane): PersonPort {
    // Deferred to a microtask: a tap's toast is queued before the edits its answer causes.
    return {
      ask: (view) => queueMicrotask(() => this.#ask(lane, view)),
      settled: (decisionId, outcome) => queueMicrotask(() => this.#settled(decisionId, outcome)),
      inform: (_lane, info) =>
        queueMicrotask(() => {
          const replyTo = this.#deps.runs.live(lane)?.progressMessage() ?? Promise.resolve(undefined);
          void replyTo.then((id) => this.#sendParts(lane.chatId, renderInfoParts(info), id, undefined, false));
        }),
    };
  }

  /** The decision whose prompt is message `messageId` (open or settled), if this process showed it. */
  decisionAt(chatId: number, messageId: number): string | undefined {
    return this.#byMessage.get(`${chatId}:${messageId}`);
  }

  /** The person's message `messageId` answered a decision with its words. */
  tookTypedAnswer(chatId: number, messageId: number): void {
    this.#typedAnswers.add(`${chatId}:${messageId}`);
    if (this.#typedAnswers.size > SETTLED_MESSAGES)
      this.#typedAnswers.delete(this.#typedAnswers.values().next().value!);
  }

  /** Whether the person's message `messageId` answered a decision (in this process). */
  wasTypedAnswer(chatId: number, messageId: number): boolean {
    return this.#typedAnswers.has(`${chatId}:${messageId}`);
  }

  /** A tap on a decision button: answered at once (the caller shows the toast), work follows. */
  tap(action: DecisionAction, code: string, by: string): TapReply {
    const choiceId = choiceFromCode(
      code,
      action.choices.map((c) => c.id),
    );
    if (choiceId === undefined) return { toast: NOTHING, removeButtons: false };
    const answer: PersonAnswer = { kind: "choice", choiceId, by };
    switch (this.#deps.answers.answer(action.decisionId, answer)) {
      case "accepted":
        return {
          toast: toastFor(choiceId, action.choices.find((c) => c.id === choiceId)?.label),
          removeButtons: false,
        };
      case "already_answered":
        return { toast: "Already answered", removeButtons: false };
      case "no_longer_pending":
        // The ledger says the decision is over: the only tap that may take its buttons down.
        return { toast: "No longer pending", removeButtons: true };
      case "not_a_choice":
        return { toast: NOTHING, removeButtons: false };
    }
  }

  #ask(lane: Lane, view: PendingDecisionView): void {
    const existing = this.#shown.get(view.decisionId);
    const onlyFor = this.#deps.soleAnswerer(lane.chatId, view.decisionId);
    const parts = renderPromptParts(view.prompt, { awaitingText: view.awaitingText, onlyFor });
    const choices = view.prompt.choices.map((c) => ({ id: c.id, label: c.label }));
    if (existing !== undefined) {
      // Same decision, new prompt (next question, a toggle, "type an answer"): edit it in place.
      existing.action.choices = choices;
      existing.lastHtml = parts.at(-1) ?? existing.lastHtml;
      const keyboard = this.#keyboard(existing.token, view.prompt);
      existing.lastKeyboard = keyboard;
      void existing.message.then((id) => {
        if (id === undefined || this.#shown.get(view.decisionId) !== existing) return;
        this.#record(() => this.#deps.store.decisions.setMessageHtml(view.decisionId, existing.lastHtml));
        return this.#deps.outbox.edit(
          existing.chatId,
          id,
          { html: existing.lastHtml, keyboard },
          { mustDeliver: true },
        );
      });
      return;
    }
    const action: DecisionAction = {
      kind: "decision",
      decisionId: view.decisionId,
      chatId: lane.chatId,
      promptKind: view.prompt.kind,
      choices,
    };
    if (this.#showAgain(lane, view, action, parts)) return;
    const token = this.#deps.callbacks.register(action, lane.chatId, { held: true });
    const keyboard = this.#keyboard(token, view.prompt);
    const live = this.#deps.runs.live(lane);
    const message = (live?.progressMessage() ?? Promise.resolve(undefined)).then((replyTo) =>
      this.#sendParts(lane.chatId, parts, replyTo, keyboard, true),
    );
    const shown: Shown = {
      chatId: lane.chatId,
      token,
      action,
      message,
      lastHtml: parts.at(-1) ?? "",
      lastKeyboard: keyboard,
    };
    this.#shown.set(view.decisionId, shown);
    void message.then((id) => {
      if (id === undefined) return;
      this.#deps.callbacks.attachMessage(token, id);
      this.#rememberMessage(`${lane.chatId}:${id}`, view.decisionId);
      // The ledger's record (the journal) has the row; the message, its text and token are what a restart needs.
      this.#record(() => this.#deps.store.decisions.setMessage(view.decisionId, id, shown.lastHtml, token));
    });
    this.#deps.logger.event("telegram.decision_shown", {
      chatId: lane.chatId,
      runId: view.runId,
      decisionId: view.decisionId,
      kind: view.prompt.kind,
      tool: view.toolName,
    });
  }

  /** The prompt's buttons, their data under `token`. */
  #keyboard(token: string, prompt: DecisionPrompt): InlineKeyboardMarkup {
    return keyboardOf(prompt.choices, (c, i) => this.#deps.callbacks.data(token, choiceCode(c.id, i)), prompt.link);
  }

  /**
   * A decision a previous Telecode showed, asked again after a restart (its kept run goes on):
   * its message gets its buttons back under the same token, so a tap made meanwhile still
   * counts. False when there is no such message.
   */
  #showAgain(lane: Lane, view: PendingDecisionView, action: DecisionAction, parts: readonly string[]): boolean {
    let record;
    try {
      record = this.#deps.store.decisions.get(view.decisionId);
    } catch (error) {
      this.#deps.logger.event("telegram.decision_lookup_failed", { err: error }, "error");
      return false;
    }
    const messageId = record?.messageId ?? null;
    const token = record?.callbackToken ?? null;
    if (record?.state !== "pending" || messageId === null || token === null) return false;
    this.#deps.callbacks.restore(token, action, lane.chatId, messageId);
    const keyboard = this.#keyboard(token, view.prompt);
    const shown: Shown = {
      chatId: lane.chatId,
      token,
      action,
      message: Promise.resolve(messageId),
      lastHtml: parts.at(-1) ?? "",
      lastKeyboard: keyboard,
    };
    this.#shown.set(view.decisionId, shown);
    this.#rememberMessage(`${lane.chatId}:${messageId}`, view.decisionId);
    // Usually "not modified"; a question asked again starts from its first part.
    void this.#deps.outbox.edit(lane.chatId, messageId, { html: shown.lastHtml, keyboard }, { mustDeliver: true });
    this.#deps.logger.event("telegram.decision_shown_again", {
      chatId: lane.chatId,
      runId: view.runId,
      decisionId: view.decisionId,
      messageId,
    });
    return true;
  }

  /**
   * Chat `chatId` became a supergroup (chat-moves.ts): its open prompts, left in the old group
   * where no tap may reach, are asked again in the new one (the outbox sends the old message's
   * content anew there, and later edits follow it).
   */
  chatMoved(chatId: number): void {
    for (const shown of this.#shown.values()) {
      if (shown.chatId !== chatId) continue;
      void shown.message.then((id) => {
        if (id === undefined) return;
        const content = { html: shown.lastHtml, keyboard: shown.lastKeyboard };
        return this.#deps.outbox.edit(chatId, id, content, { mustDeliver: true });
      });
    }
  }

  #settled(decisionId: string, outcome: DecisionOutcome): void {
    const shown = this.#shown.get(decisionId);
    if (shown === undefined) return;
    this.#shown.delete(decisionId);
    this.#deps.callbacks.release(shown.token);
    const html = renderSettledHtml(shown.lastHtml, outcome);
    void shown.message
      .then(async (id) => {
        if (id === undefined) return;
        const delivery = await this.#deps.outbox.edit(shown.chatId, id, { html }, { mustDeliver: true });
        // Until Telegram has the edit, a restart finds the message showing less than was decided.
        if (delivery.ok) this.#record(() => this.#deps.store.decisions.markShown(decisionId));
      })
      .catch((error: unknown) =>
        this.#deps.logger.event("telegram.decision_settle_failed", { err: error, decisionId }, "error"),
      );
    this.#deps.logger.event("telegram.decision_settled", {
      chatId: shown.chatId,
      decisionId,
      decision: outcome.decision,
      reason: outcome.reason,
    });
  }

  /** Sends the parts in order; the last carries the buttons. Resolves with the last part's id. */
  async #sendParts(
    chatId: number,
    parts: readonly string[],
    replyTo: number | undefined,
    keyboard: BridgeKeyboard,
    mustDeliver: boolean,
  ): Promise<number | undefined> {
    let last: number | undefined;
    const sends = parts.map((html, index) => {
      const isLast = index === parts.length - 1;
      const content = isLast && keyboard !== undefined ? { html, keyboard } : { html };
      return this.#deps.outbox.send(chatId, content, {
        mustDeliver,
        ...(index === 0 && replyTo !== undefined ? { replyTo } : {}),
      });
    });
    for (const delivery of await Promise.all(sends)) last = delivery.ok ? delivery.messageId : undefined;
    return last;
  }

  #rememberMessage(key: string, decisionId: string): void {
    this.#byMessage.set(key, decisionId);
    if (this.#byMessage.size > SETTLED_MESSAGES + this.#shown.size) {
      const oldest = this.#byMessage.keys().next();
      if (oldest.done !== true) this.#byMessage.delete(oldest.value);
    }
  }

  /** Store writes are bookkeeping for restarts: a failure is logged, never breaks a prompt. */
  #record(write: () => unknown): void {
    try {
      write();
    } catch (error) {
      this.#deps.logger.event("telegram.decision_record_failed", { err: error }, "error");
    }
  }
}

type BridgeKeyboard = ReturnType<typeof keyboardOf> | undefined;

/** The toast a tap gets when it was taken: says what happens next in two words. */
function toastFor(choiceId: string, label: string | undefined): string {
  if (choiceId === "allow" || choiceId === "always" || choiceId === "approve") return "Approved";
  if (choiceId === "deny") return "Denied";
  if (choiceId === "decline") return "Declined";
  if (choiceId === "outline") return "Outlining plan…";
  if (choiceId === "discuss") return "Let's discuss — send your thoughts";
  if (choiceId.endsWith(":type")) return "Send your answer as a message";
  if (choiceId.endsWith(":done")) return "Answered";
  return label === undefined ? "Got it" : `✓ ${label}`.slice(0, 190);
}
