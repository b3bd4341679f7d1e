// A finished run's progress message is edited to its summary one pacing interval later, and a
// stop can come first: the message would read "Working", with Cancel, under the answer. So the
// summary is kept with the run until Telegram has it, and the next start shows what was kept.
import type { Logger } from "../../ports/index.js";
import type { Store } from "../../store/index.js";
import type { Outbox } from "../outbox.js";
import type { MessageContent } from "../outbox-types.js";

export type PendingSummaryDeps = { outbox: Outbox; store: Store; logger: Logger };

/** Edits a run's progress message to its summary, kept in the store until Telegram has it. */
export async function showSummary(
  deps: PendingSummaryDeps,
  target: { chatId: number; messageId: number; runId: string | undefined },
  content: MessageContent,
): Promise<void> {
  const { runId } = target;
  if (runId !== undefined) keep(deps, runId, JSON.stringify(content));
  // It must arrive: else the message would read "Working", with Cancel, after the answer. It
  // replaces any progress edit still waiting, and goes one pacing interval early.
  await deps.outbox.edit(target.chatId, target.messageId, content, { mustDeliver: true, urgent: true });
  // Delivered, or refused for good (the message is gone): nothing is left to show.
  if (runId !== undefined) keep(deps, runId, null);
}

/** At a start: each summary a stop kept from its progress message is shown now. */
export function showPendingSummaries(deps: PendingSummaryDeps): void {
  let runs;
  try {
    runs = deps.store.runs.listPendingSummaries();
  } catch (error) {
    deps.logger.event("telegram.recovery_failed", { err: error }, "error");
    return;
  }
  for (const run of runs) {
    const content = readSummary(run.pendingSummary);
    if (content === undefined || run.progressMessageId === null) {
      keep(deps, run.runId, null);
      continue;
    }
    deps.logger.event("telegram.summary_shown_late", { chatId: run.chatId, runId: run.runId });
    void showSummary(deps, { chatId: run.chatId, messageId: run.progressMessageId, runId: run.runId }, content);
  }
}

function keep(deps: PendingSummaryDeps, runId: string, summary: string | null): void {
  try {
    deps.store.runs.setPendingSummary(runId, summary);
  } catch (error) {
    deps.logger.event("telegram.summary_keep_failed", { err: error, runId }, "warn");
  }
}

function readSummary(text: string | null): MessageContent | undefined {
  if (text === null) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || typeof (value as { html?: unknown }).html !== "string")
      return undefined;
    return value as MessageContent;
  } catch {
    return undefined;
  }
}
