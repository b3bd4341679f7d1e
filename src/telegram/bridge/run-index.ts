// Where the bridge finds its runs again: the live view per lane, views by run id and by
// message, which session a final answer belongs to (reply to continue), and the CLI's own mode
// per lane (for /status). Memory only; the store has the durable part.
import { laneId, type Lane, type TelecodeEvent } from "../../domain/index.js";

export type RunRef = {
  readonly runId: string | undefined;
  readonly chatId: number;
  readonly lane: Lane;
  /** The message that asked for the run (none for a schedule's or a webhook's). */
  readonly promptMessageId: number | undefined;
  /** Resolves with the progress (or queued) message id once Telegram has it. */
  progressMessage(): Promise<number | undefined>;
};

export type AnswerSession = { sessionId: string; project: string };

const REMEMBERED_ANSWERS = 2000;

const messageKey = (chatId: number, messageId: number): string => `${chatId}:${messageId}`;

export class RunIndex<V extends RunRef = RunRef> {
  readonly #live = new Map<string, V>();
  readonly #byRun = new Map<string, V>();
  readonly #byMessage = new Map<string, V>();
  readonly #answers = new Map<string, AnswerSession>();
  readonly #cliModes = new Map<string, string>();
  /**
   * Runs that shared their chat with another at some point: one asked for after them, queued
   * behind them, or working beside them in another project (both answers then quote their prompts).
   */
  readonly #overlapped = new WeakSet<V>();
  readonly #onEvent: ((lane: Lane, event: TelecodeEvent) => void) | undefined;

  /** `onEvent` sees every event of every lane too (a run's or not). */
  constructor(onEvent?: (lane: Lane, event: TelecodeEvent) => void) {
    this.#onEvent = onEvent;
  }

  /** The run now working in `lane` (its prompts reply to its progress message). */
  live(lane: Lane): V | undefined {
    return this.#live.get(laneId(lane));
  }

  setLive(view: V): void {
    this.#live.set(laneId(view.lane), view);
  }

  track(view: V): void {
    for (const other of this.#byRun.values())
      if (other.chatId === view.chatId && other !== view) {
        this.#overlapped.add(other);
        this.#overlapped.add(view);
      }
    if (view.runId !== undefined) this.#byRun.set(view.runId, view);
  }

  /**
   * Whether the chat asked for another run after `view`'s prompt, or another run worked beside
   * it there: its answer then quotes the prompt, as answers may not come in the order asked.
   */
  sharedChat(view: V): boolean {
    return this.#overlapped.has(view);
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
    const id = laneId(view.lane);
    if (this.#live.get(id) === view) this.#live.delete(id);
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

  /** Keeps the CLI's own permission mode per lane, from any event of the lane (a run's or not). */
  observe(lane: Lane, event: TelecodeEvent): void {
    if (event.type === "mode_changed") this.#cliModes.set(laneId(lane), event.mode);
    this.#onEvent?.(lane, event);
  }

  /** The CLI's permission mode in `lane`, as it last reported it. */
  cliMode(lane: Lane): string | undefined {
    return this.#cliModes.get(laneId(lane));
  }
}
