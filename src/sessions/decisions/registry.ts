// The one place front ends deliver answers, across all sessions: routes an answer to the
// driver that owns the decision, and tells late taps "already answered" / "no longer pending".
// One instance per process, created by the composition root (no module state).
import {
  closeDecision,
  emptyPendingBook,
  openDecision,
  verdictFor,
  type AnswerVerdict,
  type ClosedHow,
  type PersonAnswer,
} from "../../policy/index.js";
import type { DecisionAnswers, PendingDecisionView } from "./ports.js";

export type DeliverAnswer = (answer: PersonAnswer) => AnswerVerdict;

export type DecisionRegistry = DecisionAnswers & {
  /** For drivers: a decision is open; `deliver` hands it answers until it is closed. */
  open(view: PendingDecisionView, deliver: DeliverAnswer): void;
  /** For drivers: the decision's prompt changed (same id). */
  update(view: PendingDecisionView): void;
  /** For drivers: the decision ended ("answered" by the person, or "expired" otherwise). */
  close(decisionId: string, how: ClosedHow): void;
};

export function createDecisionRegistry(options: { rememberClosed?: number } = {}): DecisionRegistry {
  let book = emptyPendingBook(options.rememberClosed ?? 1000);
  const entries = new Map<string, { view: PendingDecisionView; deliver: DeliverAnswer }>();

  return {
    open(view, deliver) {
      book = openDecision(book, view.decisionId);
      entries.set(view.decisionId, { view, deliver });
    },
    update(view) {
      const entry = entries.get(view.decisionId);
      if (entry) entry.view = view;
    },
    close(decisionId, how) {
      book = closeDecision(book, decisionId, how);
      entries.delete(decisionId);
    },
    answer(decisionId, answer) {
      const verdict = verdictFor(book, decisionId);
      if (verdict !== "accepted") return verdict;
      const entry = entries.get(decisionId);
      return entry ? entry.deliver(answer) : "no_longer_pending";
    },
    answerByText(laneId, text, by) {
      const open = [...entries.values()].filter((e) => e.view.laneId === laneId);
      const target = open.find((e) => e.view.awaitingText) ?? open[0];
      if (!target) return "no_pending";
      target.deliver({ kind: "text", text, ...(by !== undefined ? { by } : {}) });
      return "accepted";
    },
    pendingFor(laneId) {
      return [...entries.values()].filter((e) => e.view.laneId === laneId).map((e) => e.view);
    },
  };
}
