// Picking up after a stop, clean or not: runs the store still has as running are marked
// interrupted and their progress messages say so with Continue; decisions still pending lose
// their buttons with a note. A tap on Continue resumes that run's session.
import type { DecisionRecord, RunRecord } from "../../store/index.js";
import { startRun, type BridgeCore } from "./bridge-core.js";
import { interruptedHtml, resumeKeyboard, runIdFromResumeToken } from "./resume-button.js";
import type { IncomingTap } from "./taps.js";

/** What the model reads when a person continues an interrupted run. */
export const RESUME_PROMPT =
  "Telecode was restarted while you were working on my last request, so that work was interrupted. Check where it stopped and continue.";

const RESTARTED_DECISION_NOTE = "⏹ Telecode restarted, so this request is no longer pending. Reply to continue.";

/** Marks what a stop cut off and tells the people concerned; returns what it found. */
export function recoverAfterRestart(core: BridgeCore): { interrupted: RunRecord[]; expired: DecisionRecord[] } {
  let interrupted: RunRecord[] = [];
  let expired: DecisionRecord[] = [];
  try {
    // One transaction: a crash during recovery leaves everything for the next start.
    const recovered = core.store.recoverAfterRestart("Telecode stopped while this run was working");
    interrupted = recovered.interruptedRuns;
    expired = recovered.expiredDecisions;
  } catch (error) {
    core.logger.event("telegram.recovery_failed", { err: error }, "error");
  }
  for (const run of interrupted) {
    core.logger.event("telegram.run_interrupted", {
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
      void core.outbox.send(run.chatId, message, {
        mustDeliver: true,
        ...(run.promptMessageId === null ? {} : { replyTo: run.promptMessageId }),
      });
    else void core.outbox.edit(run.chatId, run.progressMessageId, message, { mustDeliver: true });
  }
  for (const decision of expired) {
    core.logger.event("telegram.decision_expired", {
      chatId: decision.chatId,
      decisionId: decision.decisionId,
      runId: decision.runId,
    });
    if (decision.messageId === null) continue;
    void core.outbox.editKeyboard(decision.chatId, decision.messageId, undefined);
    void core.outbox.send(
      decision.chatId,
      { html: RESTARTED_DECISION_NOTE },
      { replyTo: decision.messageId, silent: true },
    );
  }
  return { interrupted, expired };
}

/** Continue on an interrupted run's message: resumes its session once. */
export function resumeTap(
  core: BridgeCore,
  tap: IncomingTap,
  token: string,
  toast: (text: string) => void,
  takeDown: () => void,
): void {
  const runId = runIdFromResumeToken(token);
  const run = lookup(core, runId);
  if (run === null || run.chatId !== tap.chatId || run.state !== "interrupted") {
    toast("No longer pending");
    takeDown();
    return;
  }
  if (core.resumed.has(runId)) {
    toast("Already continuing");
    return;
  }
  const project = core.config().projects.find((p) => p.name === run.project);
  if (project === undefined) {
    toast(`Project ${run.project} is no longer set up`);
    return;
  }
  core.resumed.add(runId);
  toast("Continuing…");
  takeDown();
  const sessionId = run.sessionId ?? core.store.sessions.current(run.chatId, run.project)?.sessionId;
  core.logger.event("telegram.run_resumed", { chatId: run.chatId, runId, sessionId });
  startRun(core, {
    chatId: run.chatId,
    project,
    prompt: RESUME_PROMPT,
    choice: sessionId === undefined ? { kind: "current" } : { kind: "resume", sessionId },
    ...(tap.messageId === undefined ? {} : { promptMessageId: tap.messageId }),
  });
}

function lookup(core: BridgeCore, runId: string): RunRecord | null {
  try {
    return core.store.runs.get(runId);
  } catch (error) {
    core.logger.event("telegram.resume_lookup_failed", { err: error, runId }, "error");
    return null;
  }
}
