// The Retry button of a request kept without running (a restart found it too old, see
// kept-requests.ts; a [budget] cap refused it): its token is the run id, so it works in any
// later process; the first tap runs the request in that message.
import { Composer } from "grammy";
import type { QueuedRunRecord } from "../../../store/index.js";
import { buttonTrigger } from "../../callback-data.js";
import { requesterOf, type TelecodeContext } from "../context.js";
import { RETRY_CHOICE } from "../resume-button.js";
import { runIdFromToken } from "../run-token.js";
import type { BridgeServices } from "../services.js";
import { readTap, takeDown, toast } from "./tap.js";

const RETRY_TRIGGER = buttonTrigger(RETRY_CHOICE);

export function retryButtons(
  deps: Pick<BridgeServices, "outbox" | "store" | "logger" | "config" | "starter">,
): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(RETRY_TRIGGER, (ctx) => {
    const tap = readTap(ctx);
    if (tap?.token === undefined) return;
    const runId = runIdFromToken(tap.token);
    const dropped = takeDropped(deps, runId, tap.chatId);
    if (dropped === undefined) {
      toast(deps.outbox, tap, "No longer pending");
      takeDown(deps.outbox, tap);
      return;
    }
    const project = deps.config().projects.find((p) => p.name === dropped.project);
    if (project === undefined) {
      toast(deps.outbox, tap, `Project ${dropped.project} is no longer set up`);
      takeDown(deps.outbox, tap);
      return;
    }
    toast(deps.outbox, tap, "Running it now");
    deps.logger.event("telegram.request_retried", { chatId: dropped.chatId, runId });
    deps.starter.start({
      chatId: dropped.chatId,
      project,
      prompt: dropped.input.prompt,
      mode: dropped.input.mode,
      choice: dropped.input.choice,
      kept: { runId, messageId: tap.messageId },
      requester: requesterOf(tap.from),
      ...(dropped.promptMessageId === null ? {} : { promptMessageId: dropped.promptMessageId }),
    });
  });
  return buttons;
}

/** The dropped request the tap names, taken from the store (so one tap runs it), if it is this chat's. */
function takeDropped(
  deps: Pick<BridgeServices, "store" | "logger">,
  runId: string,
  chatId: number | undefined,
): QueuedRunRecord | undefined {
  try {
    const kept = deps.store.queuedRuns.get(runId);
    if (kept === null || kept.state !== "dropped" || kept.chatId !== chatId) return undefined;
    return deps.store.queuedRuns.take(runId) ?? undefined;
  } catch (error) {
    deps.logger.event("telegram.retry_lookup_failed", { err: error, runId }, "error");
    return undefined;
  }
}
