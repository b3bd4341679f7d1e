// Answers the requests the CLI sends on the control channel: can_use_tool goes to the
// controller's decide, hook_callback to its hook function, anything else gets the CLI's own
// "unsupported" error. Each request is answered exactly once, never after a withdrawal.
import type { ApprovalRequest, TelecodeEvent } from "../domain/index.js";
import { encodeControlError, encodeHookOutput, encodePermissionAnswer } from "../wire/index.js";
import type { WireControlRequest, WireHookCallbackRequest } from "../wire/index.js";
import type { ControlChannel } from "./control-channel.js";
import { isClaudeError } from "./errors.js";
import type { Logger } from "../ports/index.js";
import type { ApprovalDecision, RunInfo, SessionController, SessionControls } from "./spec.js";

/** What the model reads when nobody can answer any more. */
export const SESSION_END_MESSAGE = "The Telecode session ended before anyone decided; continue without this tool.";

export type IncomingContext = {
  channel: ControlChannel;
  controller: SessionController;
  session: SessionControls;
  logger: Logger;
  /** The run a request belongs to; `agentId` names the subagent it comes from, if any. */
  run(agentId?: string): RunInfo | undefined;
  emit(event: TelecodeEvent): void;
  /** Called after an answer was written (the session may now be idle). */
  settled(): void;
};

/** The process went on without this Telecode: its requests are left for the next one to answer. */
function isHandedOver(signal: AbortSignal): boolean {
  return signal.aborted && isClaudeError(signal.reason, "claude.handed_over");
}

/** Resolves with the promise's value, or rejects as soon as the signal aborts. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Writes a permission answer once and reports it as approval_resolved. */
async function answerPermission(ctx: IncomingContext, requestId: string, decision: ApprovalDecision): Promise<void> {
  let by = decision.by ?? "controller";
  let behavior = decision.behavior;
  const written = await ctx.channel.answer(requestId, encodePermissionAnswer(requestId, decision));
  if (written === undefined) return;
  if (!written.ok) {
    // The process is gone: the request died with it.
    ctx.logger.event("claude.answer_not_written", { requestId, err: written.error });
    by = "session end";
    behavior = "deny";
  }
  ctx.emit({ type: "approval_resolved", requestId, decision: behavior, by });
  ctx.settled();
}

async function onCanUseTool(ctx: IncomingContext, requestId: string, request: ApprovalRequest): Promise<void> {
  const signal = ctx.channel.beginIncoming(requestId, "can_use_tool");
  if (signal === undefined) return;
  let decision: ApprovalDecision;
  try {
    decision = await untilAborted(
      ctx.controller.decide(request, { signal, run: ctx.run(request.agentId), session: ctx.session }),
      signal,
    );
  } catch (error) {
    if (!ctx.channel.isPending(requestId)) return; // withdrawn, or already answered at close
    if (isHandedOver(signal)) return; // the next Telecode asks again
    if (signal.aborted) {
      decision = { behavior: "deny", message: SESSION_END_MESSAGE, by: "session end" };
    } else {
      ctx.logger.event("claude.decide_failed", { err: error, requestId }, "error");
      decision = {
        behavior: "deny",
        message: "Telecode could not decide on this request because of an internal error; continue without this tool.",
        by: "error",
      };
    }
  }
  await answerPermission(ctx, requestId, decision);
}

async function onHookCallback(
  ctx: IncomingContext,
  requestId: string,
  request: WireHookCallbackRequest,
): Promise<void> {
  const signal = ctx.channel.beginIncoming(requestId, "hook_callback");
  if (signal === undefined) return;
  let output: Record<string, unknown> = {};
  const hook = ctx.controller.hookCallback?.bind(ctx.controller);
  if (hook !== undefined) {
    try {
      output = await untilAborted(hook(request.callback_id, request.input, signal), signal);
    } catch (error) {
      if (!ctx.channel.isPending(requestId) || isHandedOver(signal)) return;
      // An empty output makes no decision: the normal permission flow still applies.
      ctx.logger.event("claude.hook_callback_failed", { err: error, callbackId: request.callback_id }, "warn");
    }
  }
  // A failed write means the process is gone; the request died with it.
  await ctx.channel.answer(requestId, encodeHookOutput(requestId, output));
  ctx.settled();
}

/** Handles one control_request line; `approval` is the translator's view of a can_use_tool. */
export async function handleControlRequest(
  ctx: IncomingContext,
  message: WireControlRequest,
  approval: ApprovalRequest | undefined,
): Promise<void> {
  const { request_id: requestId, request } = message;
  if (request.subtype === "can_use_tool" && approval !== undefined) return onCanUseTool(ctx, requestId, approval);
  if (request.subtype === "hook_callback" && typeof request["callback_id"] === "string") {
    return onHookCallback(ctx, requestId, request as WireHookCallbackRequest);
  }
  if (ctx.channel.beginIncoming(requestId, request.subtype) === undefined) return;
  // The CLI answers unknown subtypes this way itself; it moves on instead of waiting.
  await ctx.channel.answer(
    requestId,
    encodeControlError(requestId, `Unsupported control request subtype: ${request.subtype}`),
  );
}

/** Denies a still-pending request because the session is ending (written before stdin closes). */
export async function denyForSessionEnd(ctx: IncomingContext, requestId: string): Promise<void> {
  const subtype = ctx.channel.subtypeOf(requestId);
  if (subtype === "can_use_tool")
    await answerPermission(ctx, requestId, { behavior: "deny", message: SESSION_END_MESSAGE, by: "session end" });
  else if (subtype !== undefined) await ctx.channel.answer(requestId, encodeHookOutput(requestId, {}));
}
