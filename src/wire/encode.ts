// Encodes what Telecode writes on the CLI's stdin: user messages, answers to the CLI's
// control requests, and our own control requests. Each function returns one complete line,
// newline included. Request ids are the caller's: nothing here generates ids or keeps state.
import type { ElicitationAnswer, OutgoingControlRequest, PermissionAnswer } from "./types.js";

export type UserMessageOptions = {
  /** Set when answering inside a subagent; null (the default) for the main thread. */
  parentToolUseId?: string | null;
  /** The CLI ignores it on stdin; kept for symmetry with what it prints. Default "". */
  sessionId?: string;
  /**
   * The line's own id: the CLI then reports the turn it starts as `command_lifecycle` with this
   * `command_uuid` (PROTOCOL.md, "Scheduling and turns the CLI starts itself").
   */
  uuid?: string;
};

/** A user turn: plain text, or content blocks (text, images, PDFs) passed through as given. */
export function encodeUserMessage(
  content: string | readonly WireUserContentBlock[],
  options: UserMessageOptions = {},
): string {
  return `${JSON.stringify({
    type: "user",
    ...(options.uuid === undefined ? {} : { uuid: options.uuid }),
    message: { role: "user", content },
    parent_tool_use_id: options.parentToolUseId ?? null,
    session_id: options.sessionId ?? "",
  })}\n`;
}

/** The image types the Messages API accepts in an `image` block. */
export type WireImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export type WireUserTextBlock = { type: "text"; text: string };

/** An image the person sent, inline as base64; the CLI forwards it to the API unchanged (PROTOCOL.md). */
export type WireUserImageBlock = {
  type: "image";
  source: { type: "base64"; media_type: WireImageMediaType; data: string };
};

/** A PDF inline as base64; the CLI 2.1.332 forwards it to the API unchanged (test/fixtures/user-pdf-document). */
export type WireUserDocumentBlock = {
  type: "document";
  source: { type: "base64"; media_type: "application/pdf"; data: string };
  /** Shown to the model as the document's name. */
  title?: string;
};

/** What a person's user line may carry: text, images and PDFs. */
export type WireUserContentBlock = WireUserTextBlock | WireUserImageBlock | WireUserDocumentBlock;

/** A success answer to a CLI control request, with an arbitrary payload. */
export function encodeControlSuccess(requestId: string, response: Readonly<Record<string, unknown>>): string {
  return `${JSON.stringify({
    type: "control_response",
    response: { subtype: "success", request_id: requestId, response },
  })}\n`;
}

/**
 * The answer to a `can_use_tool` request. Allow echoes `updatedInput` (the full input,
 * possibly with `answers` for AskUserQuestion) and optional `updatedPermissions`; deny
 * carries the message the model reads. Either may say who decided (`decisionClassification`).
 */
export function encodePermissionAnswer(requestId: string, answer: PermissionAnswer): string {
  let payload: Record<string, unknown>;
  if (answer.behavior === "allow") {
    payload = { behavior: "allow", updatedInput: answer.updatedInput };
    if (answer.updatedPermissions !== undefined) payload["updatedPermissions"] = answer.updatedPermissions;
  } else {
    payload = { behavior: "deny", message: answer.message };
    if (answer.interrupt !== undefined) payload["interrupt"] = answer.interrupt;
  }
  if (answer.decisionClassification !== undefined) payload["decisionClassification"] = answer.decisionClassification;
  return encodeControlSuccess(requestId, payload);
}

/** The answer to an `elicitation` request, which the CLI hands to the MCP server that asked. */
export function encodeElicitationAnswer(requestId: string, answer: ElicitationAnswer): string {
  return encodeControlSuccess(requestId, answer);
}

/**
 * The answer to a `hook_callback` request: the hook output object, e.g. `{}` or
 * `{hookSpecificOutput: {hookEventName: "PreToolUse", permissionDecision: "deny", …}}`.
 */
export function encodeHookOutput(requestId: string, output: Readonly<Record<string, unknown>>): string {
  return encodeControlSuccess(requestId, output);
}

/** An error answer; the default code tells the CLI we do not handle that request subtype. */
export function encodeControlError(requestId: string, error: string, errorCode = "unsupported_request"): string {
  return `${JSON.stringify({
    type: "control_response",
    response: { subtype: "error", request_id: requestId, error, error_code: errorCode },
  })}\n`;
}

/** One of our own control requests (initialize, interrupt, set_permission_mode, set_model). */
export function encodeControlRequest(requestId: string, request: OutgoingControlRequest): string {
  return `${JSON.stringify({ type: "control_request", request_id: requestId, request })}\n`;
}
