// What the decision driver needs from outside: a front end that shows prompts to a person
// and the engine's session controls (time comes from src/ports' Clock). Declared here (structurally equal to
// the engine's types) so this folder never imports a concrete adapter.
import type { Lane } from "../../domain/index.js";
import type {
  AnswerVerdict,
  DecisionOutcome,
  DecisionPrompt,
  InfoMessage,
  PersonAnswer,
  TypedWords,
} from "../../policy/index.js";

/** One open decision as a front end sees it. `decisionId` is what answers name. */
export type PendingDecisionView = {
  decisionId: string;
  /** The lane the decision belongs to: what typed replies are routed by. */
  lane: Lane;
  /** The run that asked, when a person's run did. */
  runId: string | undefined;
  /** The CLI's control request id. */
  requestId: string;
  toolName: string;
  prompt: DecisionPrompt;
  /** The person chose "type an answer": their next text message answers this decision. */
  awaitingText: boolean;
};

/**
 * Implemented by every front end (terminal, Telegram). Calls are synchronous notifications;
 * a front end that needs I/O starts it and returns. Answers come back through
 * `DecisionAnswers`, never through this port.
 */
export interface PersonPort {
  /** Show a new prompt, or replace the prompt of the same `decisionId` (next question, toggles). */
  ask(decision: PendingDecisionView): void;
  /** The decision is over: show the outcome in place of the buttons. Called once per decision. */
  settled(decisionId: string, outcome: DecisionOutcome): void;
  /** Something the person should know that needs no answer. */
  inform(lane: Lane, info: InfoMessage): void;
}

/** Where front ends deliver answers (the decision ledger). Exactly once: the first answer wins. */
export interface DecisionAnswers {
  /** A tap (or a typed answer aimed at one decision). */
  answer(decisionId: string, answer: PersonAnswer): AnswerVerdict;
  /** What an answer would get now, without giving one: the ledger's word on whether the decision is open. */
  verdictFor(decisionId: string): AnswerVerdict;
  /**
   * A text message in a session while something is pending: it answers the decision awaiting
   * typed text, else the oldest open one (for an approval: a deny carrying the words).
   * "no_pending" means nothing was open: treat the text as a normal message.
   */
  answerByText(lane: Lane, words: string | TypedWords, by?: string): "accepted" | "no_pending";
  /** Open decisions of a lane, oldest first. */
  pendingFor(lane: Lane): readonly PendingDecisionView[];
}

/** The engine's session controls the driver uses (the engine's SessionControls fits). */
export type DecisionSessionControls = {
  /** Resolves when the CLI acked the new mode; rejects when it could not be set. */
  setPermissionMode(mode: string): Promise<void>;
};

/** A hook callback Telecode registered itself (decision table row 1 leaves these to their owner). */
export type OwnHookHandler = (input: Record<string, unknown>, signal: AbortSignal) => Promise<Record<string, unknown>>;
