// Answers the requests the CLI sends on the control channel: can_use_tool and elicitation (an
// MCP server's question) go to the controller's decide, hook_callback to its hook function,
// anything else gets the CLI's own "unsupported" error. Each request is answered exactly once,
// never after a withdrawal.
import type { ApprovalRequest, TelecodeEvent } from "../domain/index.js";
import {
  encodeControlError,
  encodeElicitationAnswer,
  encodeHookOutput,
  encodePermissionAnswer,
} from "../wire/index.js";
import type { ElicitationAnswer, WireControlRequest, WireHookCallbackRequest } from "../wire/index.js";
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

/** Writes an answer once (`line`, made from what was decided) and reports it as approval_resolved. */
async function answerDecision(
  ctx: IncomingContext,
  requestId: string,
  decision: ApprovalDecision,
  line: string,
): Promise<void> {
  let by = decision.by ?? "controller";
  let behavior = decision.behavior;
  const written = await ctx.channel.answer(requestId, line);
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

function answerPermission(ctx: IncomingContext, requestId: string, decision: ApprovalDecision): Promise<void> {
  return answerDecision(ctx, requestId, decision, encodePermissionAnswer(requestId, decision));
}

/**
 * What the MCP server hears: the values the person gave (only when the decision says exactly
 * that, so an "allow everything" can make none up), their no, or, when nobody answered, a cancel.
 */
export function elicitationAnswer(decision: ApprovalDecision): ElicitationAnswer {
  if (decision.behavior === "deny") return decision.declined === true ? { action: "decline" } : { action: "cancel" };
  const { action, content } = decision.updatedInput;
  if (action !== "accept") return { action: "cancel" };
  return typeof content === "object" && content !== null ? { action, content: { ...content } } : { action };
}

/**
 * Asks the controller about a request and returns what it decided, or, when it could not, the
 * deny that ends it (the session ended, an internal error); undefined when nothing may be
 * answered (withdrawn, answered at close, or handed to the next Telecode).
 */
async function decideOn(
  ctx: IncomingContext,
  requestId: string,
  subtype: string,
  request: ApprovalRequest,
): Promise<ApprovalDecision | undefined> {
  const signal = ctx.channel.beginIncoming(requestId, subtype);
  if (signal === undefined) return undefined;
  try {
    return await untilAborted(
      ctx.controller.decide(request, { signal, run: ctx.run(request.agentId), session: ctx.session }),
      signal,
    );
  } catch (error) {
    if (!ctx.channel.isPending(requestId)) return undefined; // withdrawn, or already answered at close
    if (isHandedOver(signal)) return undefined; // the next Telecode asks again
    if (signal.aborted) return { behavior: "deny", message: SESSION_END_MESSAGE, by: "session end" };
    ctx.logger.event("claude.decide_failed", { err: error, requestId }, "error");
    return {
      behavior: "deny",
      message: "Telecode could not decide on this request because of an internal error; continue without this tool.",
      by: "error",
    };
  }
}

async function onCanUseTool(ctx: IncomingContext, requestId: string, request: ApprovalRequest): Promise<void> {
  const decision = await decideOn(ctx, requestId, "can_use_tool", request);
  if (decision !== undefined) await answerPermission(ctx, requestId, decision);
}

async function onElicitation(ctx: IncomingContext, requestId: string, request: ApprovalRequest): Promise<void> {
  const decision = await decideOn(ctx, requestId, "elicitation", request);
  if (decision === undefined) return;
  await answerDecision(ctx, requestId, decision, encodeElicitationAnswer(requestId, elicitationAnswer(decision)));
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
  if (request.subtype === "elicitation" && approval !== undefined) return onElicitation(ctx, requestId, approval);
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
  const ended: ApprovalDecision = { behavior: "deny", message: SESSION_END_MESSAGE, by: "session end" };
  if (subtype === "can_use_tool") await answerPermission(ctx, requestId, ended);
  else if (subtype === "elicitation")
    await answerDecision(ctx, requestId, ended, encodeElicitationAnswer(requestId, { action: "cancel" }));
  else if (subtype !== undefined) await ctx.channel.answer(requestId, encodeHookOutput(requestId, {}));
}
