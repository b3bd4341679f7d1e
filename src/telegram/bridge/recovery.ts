// Picking up after a stop, clean or not: runs the store still has as running are marked
// interrupted and their progress messages say so with Continue; decisions still pending lose
// their buttons with a note. Runs taken in again (their kept processes ran on) are left alone,
// and only those of their decisions the CLI no longer waits on lose their buttons. (A tap on
// Continue is buttons/resume.ts.)
import type { Logger } from "../../ports/index.js";
import type { DecisionRecord, RunRecord, Store } from "../../store/index.js";
import type { Outbox } from "../outbox.js";
import { interruptedHtml, resumeKeyboard } from "./resume-button.js";

const RESTARTED_DECISION_NOTE = "⏹ Telecode restarted, so this request is no longer pending. Reply to continue.";
const SETTLED_MEANWHILE_NOTE =
  "⏹ Claude Code no longer waits for this request (it was settled while Telecode restarted).";

type RecoveryDeps = { store: Store; logger: Logger; outbox: Outbox };

/** Marks what a stop cut off (but the runs in `keptRunIds`) and tells the people concerned; returns what it found. */
export function recoverAfterRestart(
  deps: RecoveryDeps,
  keptRunIds: ReadonlySet<string> = new Set(),
): {
  interrupted: RunRecord[];
  expired: DecisionRecord[];
} {
  const { store, logger, outbox } = deps;
  let interrupted: RunRecord[] = [];
  let expired: DecisionRecord[] = [];
  try {
    // One transaction: a crash during recovery leaves everything for the next start.
    const recovered = store.recoverAfterRestart("Telecode stopped while this run was working", keptRunIds);
    interrupted = recovered.interruptedRuns;
    expired = recovered.expiredDecisions;
  } catch (error) {
    logger.event("telegram.recovery_failed", { err: error }, "error");
  }
  for (const run of interrupted) {
    logger.event("telegram.run_interrupted", {
      chatId: run.chatId,
      runId: run.runId,
      sessionId: run.sessionId,
      progressMessageId: run.progressMessageId,
    });
    const keyboard = resumeKeyboard(run.runId);
    const html = interruptedHtml(undefined);
    const message = keyboard === undefined ? { html } : { html, keyboard };
    // A run cut off before its progress message existed still gets a notice with Continue.
    if (run.progressMessageId === null)
      void outbox.send(run.chatId, message, {
        mustDeliver: true,
        ...(run.promptMessageId === null ? {} : { replyTo: run.promptMessageId }),
      });
    else void outbox.edit(run.chatId, run.progressMessageId, message, { mustDeliver: true });
  }
  takeDownDecisions(deps, expired, RESTARTED_DECISION_NOTE);
  return { interrupted, expired };
}

/** Decisions of kept runs the CLI no longer waits on (answered or withdrawn just before the stop): buttons off, with a note. */
export function takeDownSettledMeanwhile(deps: RecoveryDeps, decisions: readonly DecisionRecord[]): void {
  takeDownDecisions(deps, decisions, SETTLED_MEANWHILE_NOTE);
}

function takeDownDecisions(deps: RecoveryDeps, decisions: readonly DecisionRecord[], note: string): void {
  for (const decision of decisions) {
    deps.logger.event("telegram.decision_expired", {
      chatId: decision.chatId,
      decisionId: decision.decisionId,
      runId: decision.runId,
    });
    if (decision.messageId === null) continue;
    void deps.outbox.editKeyboard(decision.chatId, decision.messageId, undefined);
    void deps.outbox.send(decision.chatId, { html: note }, { replyTo: decision.messageId, silent: true });
  }
}
