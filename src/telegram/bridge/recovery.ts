// Picking up after a stop, clean or not, one function per concern: runs the store still has as
// running are marked interrupted and their progress messages say so with Continue; summaries a
// stop kept from finished runs' progress messages are shown (pending-summaries.ts); decision
// messages are brought to their recorded state; requests left waiting run (or get Retry); each
// chat that had work cut off, and the one that sent /restart, gets one "back online" note. Runs taken in again (their kept
// processes ran on) are left running, their pending decisions too. (A tap on Continue is buttons/resume.ts.)
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { DecisionRecord, QueuedRunRecord, RunRecord } from "../../store/index.js";
import { showRecordedDecisions } from "./decision-messages-recovery.js";
import { runKeptRequests, type KeptRequestsDeps } from "./kept-requests.js";
import { showPendingSummaries } from "./pending-summaries.js";
import { interruptedHtml, resumeKeyboard } from "./resume-button.js";

/** A /restart: the chat that asked, told once Telecode is back, and what was wrong with the config file then. */
export type Restarted = {
  chatId: number;
  /** The config file could not be read at the restart, so the settings from before stay (redacted). */
  configProblem?: string;
};

export type Recovered = {
  interrupted: RunRecord[];
  expired: DecisionRecord[];
  /** Requests that waited through the stop and run now, in order. */
  resumed: QueuedRunRecord[];
  /** Requests that waited too long: their message has Retry. */
  dropped: QueuedRunRecord[];
};

/**
 * Marks what a stop cut off (but the runs in `keptRunIds`), tells the people concerned, and
 * runs what was waiting; returns what it found.
 */
export function recoverAfterRestart(
  deps: KeptRequestsDeps,
  keptRunIds: ReadonlySet<string> = new Set(),
  restarted?: Restarted,
): Recovered {
  const { interrupted, expired } = markStopped(deps, keptRunIds);
  showPendingSummaries(deps);
  noticeInterruptedRuns(deps, interrupted);
  showRecordedDecisions(deps, new Set(expired.map((d) => d.decisionId)));
  const { resumed, dropped } = runKeptRequests(deps);
  sendBackOnlineNotes(deps, { interrupted, resumed, dropped }, restarted);
  return { interrupted, expired, resumed, dropped };
}

/** One transaction: a crash during recovery leaves everything for the next start. */
function markStopped(
  deps: Pick<KeptRequestsDeps, "store" | "logger">,
  keptRunIds: ReadonlySet<string>,
): {
  interrupted: RunRecord[];
  expired: DecisionRecord[];
} {
  try {
    const recovered = deps.store.recoverAfterRestart("Telecode stopped while this run was working", keptRunIds);
    return { interrupted: recovered.interruptedRuns, expired: recovered.expiredDecisions };
  } catch (error) {
    deps.logger.event("telegram.recovery_failed", { err: error }, "error");
    return { interrupted: [], expired: [] };
  }
}

/** Each interrupted run's progress message (or, without one, a reply to its prompt) says so, with Continue. */
function noticeInterruptedRuns(deps: Pick<KeptRequestsDeps, "logger" | "outbox">, interrupted: RunRecord[]): void {
  for (const run of interrupted) {
    deps.logger.event("telegram.run_interrupted", {
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
      void deps.outbox.send(run.chatId, message, {
        mustDeliver: true,
        ...(run.promptMessageId === null ? {} : { replyTo: run.promptMessageId }),
      });
    else void deps.outbox.edit(run.chatId, run.progressMessageId, message, { mustDeliver: true });
  }
}

export const SET_ASIDE_TEXT =
  "Telecode stopped unexpectedly twice while handling this message, so it set the message aside to be able to start. Send it again if you still want it.";

/** Tells the sender of a message a crash caught twice that it was set aside (strangers are told nothing). */
export function tellSetAside(
  deps: Pick<KeptRequestsDeps, "config" | "outbox">,
  message: { chat: { id: number }; message_id: number; from?: { id: number } },
): void {
  if (message.from === undefined || !deps.config().telegram.allowedUserIds.includes(message.from.id)) return;
  void deps.outbox.send(message.chat.id, { html: SET_ASIDE_TEXT }, { replyTo: message.message_id, mustDeliver: true });
}

/**
 * One short note per chat that had runs interrupted or requests waiting, saying what happens to
 * them; the chat that sent /restart gets one in any case, saying it restarted.
 */
function sendBackOnlineNotes(
  deps: Pick<KeptRequestsDeps, "logger" | "outbox">,
  cut: { interrupted: RunRecord[]; resumed: QueuedRunRecord[]; dropped: QueuedRunRecord[] },
  restarted: Restarted | undefined,
): void {
  const chats = new Map<number, { interrupted: number; resumed: number; dropped: number }>();
  if (restarted !== undefined) chats.set(restarted.chatId, { interrupted: 0, resumed: 0, dropped: 0 });
  const count = (chatId: number, key: "interrupted" | "resumed" | "dropped"): void => {
    const counts = chats.get(chatId) ?? { interrupted: 0, resumed: 0, dropped: 0 };
    counts[key] += 1;
    chats.set(chatId, counts);
  };
  for (const run of cut.interrupted) count(run.chatId, "interrupted");
  for (const request of cut.resumed) count(request.chatId, "resumed");
  for (const request of cut.dropped) count(request.chatId, "dropped");
  for (const [chatId, counts] of chats) {
    deps.logger.event("telegram.back_online_note", { chatId, ...counts });
    void deps.outbox.send(chatId, {
      html: backOnlineHtml(counts, chatId === restarted?.chatId ? restarted : undefined),
    });
  }
}

function backOnlineHtml(
  counts: { interrupted: number; resumed: number; dropped: number },
  restarted: Restarted | undefined,
): string {
  const lines = [restarted === undefined ? "🟢 Telecode is back online." : "🟢 Telecode restarted and is back online."];
  if (restarted?.configProblem !== undefined)
    lines.push(
      `⚠️ The config file could not be read, so the settings from before the restart stay in use: ${esc(restarted.configProblem)} Fix it on the computer running Telecode (\`telecode doctor\` checks it), then /restart again.`,
    );
  const { interrupted, resumed, dropped } = counts;
  if (interrupted === 1) lines.push("A task was interrupted: tap its Continue to pick up where it stopped.");
  if (interrupted > 1)
    lines.push(`${interrupted} tasks were interrupted: tap Continue on each to pick up where it stopped.`);
  if (resumed === 1) lines.push("A queued message runs now.");
  if (resumed > 1) lines.push(`${resumed} queued messages run now, in the order you sent them.`);
  if (dropped === 1) lines.push("A queued message waited too long and did not run: tap its Retry to run it.");
  if (dropped > 1)
    lines.push(`${dropped} queued messages waited too long and did not run: tap Retry on each to run it.`);
  return lines.join("\n");
}
