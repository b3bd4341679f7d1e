// The decision ledger's record in SQLite: each decision a person's run asked for, and how it
// ended, so a restart can take its buttons down and a late tap on a decision this process no
// longer remembers still reads "already answered" or "no longer pending".
import type { DecisionOutcome } from "../../policy/index.js";
import type { DecisionJournal, PendingDecisionView } from "../../sessions/decisions/index.js";
import type { DecisionState, Store } from "../../store/index.js";

export function storeDecisionJournal(store: Store): DecisionJournal {
  return {
    opened(view) {
      // A decision in a turn the CLI started itself belongs to no run and is not kept.
      if (view.runId === undefined) return;
      // Opened again after a restart (its kept run asked again): the record is already there.
      if (store.decisions.get(view.decisionId) !== null) return;
      store.decisions.add({
        decisionId: view.decisionId,
        chatId: view.lane.chatId,
        runId: view.runId,
        kind: view.prompt.kind,
        requestId: view.requestId,
      });
    },
    closed(view, outcome) {
      const state = storedState(view, outcome);
      // A decided one keeps its outcome line, so a restart that must show it shows the same.
      const decided = state !== "withdrawn" && state !== "expired";
      store.decisions.resolve(
        view.decisionId,
        state,
        decided ? { summary: outcome.summary, by: outcome.by } : undefined,
      );
    },
    closedHow(decisionId) {
      const record = store.decisions.get(decisionId);
      if (record === null || record.state === "pending") return undefined;
      return record.state === "withdrawn" || record.state === "expired" ? "expired" : "answered";
    },
  };
}

function storedState(view: PendingDecisionView, outcome: DecisionOutcome): Exclude<DecisionState, "pending"> {
  if (outcome.reason === "withdrawn") return "withdrawn";
  if (outcome.reason === "session_end" || outcome.decision === "none") return "expired";
  if (outcome.decision === "deny") return "denied";
  return view.prompt.kind === "question" ? "answered" : "approved";
}
