// Side questions (/btw) as a thread of their own: each answer comes as a reply to its question,
// and a reply to an answer (or a /btw sent as one) asks again beside the task, with the side
// questions before it and their answers, as Claude Code's own /btw keeps them. The threads are
// kept in memory, the newest few hundred answers.
import { escapeTelegramHtml as esc, markdownToTelegramParts } from "../../render/index.js";
import type { Lane, SideAnswer, SideExchange } from "../../domain/index.js";
import { isNoProcess, type SessionManager } from "../../sessions/index.js";
import type { Outbox } from "../outbox.js";
import type { IncomingText } from "./context.js";

/** Side answers remembered for follow-ups; the oldest go first. */
const REMEMBERED = 500;

export const NOT_RUNNING =
  "Claude Code is not running in this chat now, so there is no work to ask about beside: send the question as a message.";

/** A side answer's thread: the lane it was asked in, and every exchange up to and with it. */
type Thread = { lane: Lane; exchanges: readonly SideExchange[] };

/** Where a side question is asked and its answer goes. */
export type SideAsk = {
  lane: Lane;
  chatId: number;
  question: string;
  /** The message the answer replies to (the question's). */
  replyTo: number;
  /** The side questions before it, when it follows one up. */
  history?: readonly SideExchange[];
};

export type SideAnswersDeps = { outbox: Outbox; sessions: Pick<SessionManager, "sideQuestion"> };

export class SideAnswers {
  readonly #deps: SideAnswersDeps;
  readonly #threads = new Map<string, Thread>();

  constructor(deps: SideAnswersDeps) {
    this.#deps = deps;
  }

  /** The thread a reply to message `messageId` of `chatId` continues, when it is a side answer. */
  threadAt(chatId: number, messageId: number | undefined): Thread | undefined {
    return messageId === undefined ? undefined : this.#threads.get(`${chatId}:${messageId}`);
  }

  /**
   * Asks beside the lane's task and sends the answer as a reply to the question. Resolves false,
   * having asked nothing, when the lane has no Claude Code running.
   */
  async ask(asked: SideAsk): Promise<boolean> {
    const { chatId, replyTo, question } = asked;
    this.#deps.outbox.typing(chatId);
    const say = (html: string): void => void this.#deps.outbox.send(chatId, { html }, { replyTo, mustDeliver: true });
    let answer: SideAnswer;
    try {
      answer = await this.#deps.sessions.sideQuestion(asked.lane, question, asked.history);
    } catch (error) {
      if (isNoProcess(error)) return false;
      say(`Claude could not answer: ${esc(error instanceof Error ? error.message : String(error))}`);
      return true;
    }
    if (answer.failed) {
      say(`⚠️ Claude could not answer: ${esc(answer.text)}`);
      return true;
    }
    const thread: Thread = {
      lane: asked.lane,
      exchanges: [...(asked.history ?? []), { question, response: answer.text }],
    };
    // A long answer comes in parts, as a final answer does; a reply to any of them follows it up.
    markdownToTelegramParts(answer.text).forEach((html, index) => {
      const first = index === 0;
      const options = { mustDeliver: true, ...(first ? { replyTo } : { silent: true }) };
      void this.#deps.outbox.send(chatId, { html: first ? `💬 ${html}` : html }, options).then((delivery) => {
        if (delivery.ok) this.#remember(chatId, delivery.messageId, thread);
      });
    });
    return true;
  }

  /**
   * A message replying to a side answer: asked as a follow-up beside the task. When no Claude
   * Code runs there any more, `otherwise` handles it as any message. Undefined (not taken) for
   * a message that replies to no side answer.
   */
  take(message: IncomingText, otherwise: () => Promise<void> | undefined): Promise<void> | undefined {
    const thread = this.threadAt(message.chatId, message.replyTo?.messageId);
    if (thread === undefined || message.prompt.trim() === "") return undefined;
    const asked = {
      lane: thread.lane,
      chatId: message.chatId,
      question: message.prompt.trim(),
      replyTo: message.messageId,
      history: thread.exchanges,
    };
    return this.ask(asked).then((took) => (took ? undefined : otherwise()));
  }

  #remember(chatId: number, messageId: number, thread: Thread): void {
    this.#threads.set(`${chatId}:${messageId}`, thread);
    if (this.#threads.size > REMEMBERED) this.#threads.delete(this.#threads.keys().next().value!);
  }
}
