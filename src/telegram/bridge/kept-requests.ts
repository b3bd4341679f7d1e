// Requests a stop left waiting (queued, or accepted but not yet started): at start each runs
// again in the order it came, in the message that showed it, or, when older than
// limits.offline_max_age_minutes, its message says so with a Retry button (buttons/retry.ts).
// First, what Retry and Continue no longer need is forgotten (old dropped requests, inputs, runs),
// the plans of sessions left a month, and which conversation month-old bot messages in groups are of.
import { definedFields, formatDurationMs } from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { QueuedRunRecord } from "../../store/index.js";
import { offlineMaxAgeMs } from "./messages/incoming.js";
import { retryKeyboard } from "./resume-button.js";
import type { BridgeServices } from "./services.js";

/** Dropped requests (and the inputs of ended runs) are kept this long for Retry and Continue. */
const KEEP_FOR_MS = 7 * 24 * 60 * 60_000;
/**
 * Ended runs and their decisions: nothing reads them once this old (a Continue then answers "No
 * longer pending"). Sessions' plans unchanged this long are forgotten too, and which conversation
 * the bot's messages this old in groups are of (a reply to one then starts the replier's own).
 */
const RUNS_KEPT_MS = 30 * 24 * 60 * 60_000;

export type KeptRequestsDeps = Pick<BridgeServices, "store" | "logger" | "outbox" | "config" | "clock" | "starter">;

/**
 * Runs the requests a stop left waiting, oldest first, or drops the stale ones with Retry (and
 * those whose project is gone, saying so); returns the ones run and the ones with Retry.
 */
export function runKeptRequests(deps: KeptRequestsDeps): { resumed: QueuedRunRecord[]; dropped: QueuedRunRecord[] } {
  const { store, logger, clock } = deps;
  const resumed: QueuedRunRecord[] = [];
  const dropped: QueuedRunRecord[] = [];
  let waiting: QueuedRunRecord[] = [];
  try {
    store.queuedRuns.pruneDropped(clock.now() - KEEP_FOR_MS);
    store.runs.forgetInputs(clock.now() - KEEP_FOR_MS);
    store.runs.pruneEnded(clock.now() - RUNS_KEPT_MS);
    store.sessionPlans.pruneRecordedBefore(clock.now() - RUNS_KEPT_MS);
    store.chats.pruneGroupMessages(clock.now() - RUNS_KEPT_MS);
    waiting = store.queuedRuns.listWaiting();
  } catch (error) {
    logger.event("telegram.kept_requests_failed", { err: error }, "error");
  }
  const config = deps.config();
  for (const request of waiting) {
    const ageMs = clock.now() - request.queuedAt;
    const project = config.projects.find((p) => p.name === request.project);
    if (project === undefined) {
      dropRequest(deps, request, `its project ${request.project} is no longer set up`);
      continue;
    }
    if (ageMs > offlineMaxAgeMs(config.limits)) {
      dropRequest(deps, request, ageMs);
      dropped.push(request);
      continue;
    }
    logger.event("telegram.request_resumed", { chatId: request.chatId, runId: request.runId, ageMs });
    resumed.push(request);
    deps.starter.start({
      chatId: request.chatId,
      project,
      prompt: request.input.prompt,
      mode: request.input.mode,
      choice: request.input.choice,
      kept: { runId: request.runId, messageId: request.messageId ?? undefined },
      ...definedFields({ requester: request.input.requester }),
      ...(request.promptMessageId === null ? {} : { promptMessageId: request.promptMessageId }),
    });
  }
  return { resumed, dropped };
}

/** Says in the request's message (or a reply to its prompt) that it did not run, with Retry when it can. */
function dropRequest(deps: KeptRequestsDeps, request: QueuedRunRecord, why: number | string): void {
  const { store, outbox, logger } = deps;
  const canRetry = typeof why === "number";
  try {
    if (canRetry) store.queuedRuns.markDropped(request.runId);
    else store.queuedRuns.take(request.runId);
  } catch (error) {
    logger.event("telegram.kept_requests_failed", { err: error, runId: request.runId }, "error");
  }
  logger.event("telegram.request_dropped", { chatId: request.chatId, runId: request.runId, why });
  const html = canRetry
    ? `⚠️ Telecode came back ${esc(formatDurationMs(why))} after you sent this, so it did not run (it may no longer be wanted). Tap Retry to run it now.`
    : `⚠️ Telecode restarted before this message ran, and ${esc(why)}, so it did not run.`;
  const keyboard = canRetry ? retryKeyboard(request.runId) : undefined;
  const content = keyboard === undefined ? { html } : { html, keyboard };
  if (request.messageId !== null) {
    void outbox.edit(request.chatId, request.messageId, content, { mustDeliver: true });
    return;
  }
  void outbox
    .send(request.chatId, content, {
      mustDeliver: true,
      ...(request.promptMessageId === null ? {} : { replyTo: request.promptMessageId }),
    })
    .then((delivery) => {
      if (delivery.ok && canRetry) store.queuedRuns.setMessage(request.runId, delivery.messageId);
    })
    .catch((error: unknown) =>
      logger.event("telegram.kept_requests_failed", { err: error, runId: request.runId }, "error"),
    );
}
