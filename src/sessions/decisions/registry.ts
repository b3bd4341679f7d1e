// The decision ledger: the one authority on whether a decision is open, answered or gone.
// Front ends deliver answers here; it routes them to the owning driver and tells late taps why
// not. A journal (SQLite in Telegram) keeps its record across restarts. One per process.
import { definedFields, laneId, type Lane } from "../../domain/index.js";
import {
  closeDecision,
  emptyPendingBook,
  openDecision,
  verdictFor,
  type AnswerVerdict,
  type ClosedHow,
  type DecisionOutcome,
  type PersonAnswer,
} from "../../policy/index.js";
import type { DecisionAnswers, PendingDecisionView } from "./ports.js";

export type DeliverAnswer = (answer: PersonAnswer) => AnswerVerdict;

/** Where the ledger's record outlives the process (the store's decisions table). */
export interface DecisionJournal {
  /** A decision was opened. */
  opened(view: PendingDecisionView): void;
  /** A decision was closed, with how it ended. */
  closed(view: PendingDecisionView, outcome: DecisionOutcome): void;
  /** How a decision ended that the ledger no longer remembers; undefined when unknown or still pending. */
  closedHow(decisionId: string): ClosedHow | undefined;
}

export type DecisionRegistry = DecisionAnswers & {
  /** For drivers: a decision is open; `deliver` hands it answers until it is closed. */
  open(view: PendingDecisionView, deliver: DeliverAnswer): void;
  /** For drivers: the decision's prompt changed (same id). */
  update(view: PendingDecisionView): void;
  /** For drivers: the decision ended; answered when a person decided it, expired otherwise. */
  close(decisionId: string, outcome: DecisionOutcome): void;
};

export type DecisionRegistryOptions = {
  /** Closed decisions remembered in memory (default 1000); older ones are asked of the journal. */
  rememberClosed?: number;
  journal?: DecisionJournal;
  /** A journal write failed; the decision goes on regardless. */
  onJournalError?: (error: unknown) => void;
};

export function createDecisionRegistry(options: DecisionRegistryOptions = {}): DecisionRegistry {
  let memory = emptyPendingBook(options.rememberClosed ?? 1000);
  const entries = new Map<string, { view: PendingDecisionView; deliver: DeliverAnswer }>();
  const { journal } = options;
  const record = (write: (j: DecisionJournal) => void): void => {
    if (journal === undefined) return;
    try {
      write(journal);
    } catch (error) {
      options.onJournalError?.(error);
    }
  };
  const inLane = (lane: Lane) => {
    const id = laneId(lane);
    return [...entries.values()].filter((e) => laneId(e.view.lane) === id);
  };
  const verdict = (decisionId: string): AnswerVerdict => {
    const known = verdictFor(memory, decisionId);
    if (known !== "no_longer_pending" || memory.closed.has(decisionId) || journal === undefined) return known;
    return journal.closedHow(decisionId) === "answered" ? "already_answered" : "no_longer_pending";
  };

  return {
    open(view, deliver) {
      memory = openDecision(memory, view.decisionId);
      entries.set(view.decisionId, { view, deliver });
      record((j) => j.opened(view));
    },
    update(view) {
      const entry = entries.get(view.decisionId);
      if (entry) entry.view = view;
    },
    close(decisionId, outcome) {
      const entry = entries.get(decisionId);
      const answered = outcome.reason === "person" || outcome.reason === "typed_reply";
      memory = closeDecision(memory, decisionId, answered ? "answered" : "expired");
      entries.delete(decisionId);
      if (entry !== undefined) record((j) => j.closed(entry.view, outcome));
    },
    answer(decisionId, answer) {
      const now = verdict(decisionId);
      if (now !== "accepted") return now;
      const entry = entries.get(decisionId);
      return entry ? entry.deliver(answer) : "no_longer_pending";
    },
    verdictFor: verdict,
    answerByText(lane, words, by) {
      const open = inLane(lane);
      const target = open.find((e) => e.view.awaitingText) ?? open[0];
      if (!target) return "no_pending";
      const typed = typeof words === "string" ? { text: words } : words;
      target.deliver({ kind: "text", ...typed, ...definedFields({ by }) });
      return "accepted";
    },
    pendingFor(lane) {
      return inLane(lane).map((e) => e.view);
    },
  };
}
