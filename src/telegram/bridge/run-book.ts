// Where the bridge finds its runs again: the live view per session key (prompts reply to its
// progress message), views by run id and by message (cancel by reply), and which session a
// final answer belongs to (reply to continue). Memory only; the store has the durable part.
import { laneId, type Lane } from "../../domain/index.js";

export type RunRef = {
  readonly runId: string | undefined;
  readonly chatId: number;
  readonly key: Lane;
  /** Resolves with the progress (or queued) message id once Telegram has it. */
  progressMessage(): Promise<number | undefined>;
};

export type AnswerSession = { sessionId: string; project: string };

const REMEMBERED_ANSWERS = 2000;

const messageKey = (chatId: number, messageId: number): string => `${chatId}:${messageId}`;

export class RunBook<V extends RunRef = RunRef> {
  readonly #live = new Map<string, V>();
  readonly #byRun = new Map<string, V>();
  readonly #byMessage = new Map<string, V>();
  readonly #answers = new Map<string, AnswerSession>();

  /** The run now working in `key` (its prompts reply to its progress message). */
  live(key: Lane): V | undefined {
    return this.#live.get(laneId(key));
  }

  setLive(view: V): void {
    this.#live.set(laneId(view.key), view);
  }

  track(view: V): void {
    if (view.runId !== undefined) this.#byRun.set(view.runId, view);
  }

  attachMessage(view: V, messageId: number): void {
    this.#byMessage.set(messageKey(view.chatId, messageId), view);
  }

  byRun(runId: string): V | undefined {
    return this.#byRun.get(runId);
  }

  byMessage(chatId: number, messageId: number): V | undefined {
    return this.#byMessage.get(messageKey(chatId, messageId));
  }

  all(): V[] {
    return [...this.#byRun.values()];
  }

  finished(view: V): void {
    if (this.#live.get(laneId(view.key)) === view) this.#live.delete(laneId(view.key));
    if (view.runId !== undefined) this.#byRun.delete(view.runId);
    for (const [k, v] of this.#byMessage) if (v === view) this.#byMessage.delete(k);
  }

  /** A final answer's message: replying to it continues `session`. */
  rememberAnswer(chatId: number, messageId: number, session: AnswerSession): void {
    this.#answers.set(messageKey(chatId, messageId), session);
    if (this.#answers.size > REMEMBERED_ANSWERS) {
      const oldest = this.#answers.keys().next().value;
      if (oldest !== undefined) this.#answers.delete(oldest);
    }
  }

  answerSession(chatId: number, messageId: number): AnswerSession | undefined {
    return this.#answers.get(messageKey(chatId, messageId));
  }
}
