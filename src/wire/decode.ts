// Decodes one stdout line of the Claude Code CLI into a typed wire message, or a decode
// problem carrying the raw line. Never throws. Checks only the fields Telecode reads (cheap
// typeof tests on the parsed object, no schema library) and keeps every other field.
import type { OversizedLine } from "./line-framer.js";
import type { WireDecodeProblem, WireMessage } from "./types.js";

/** Problems carry at most this many characters of the raw line. */
export const PROBLEM_LINE_MAX_CHARS = 4096;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function problem(reason: string, line: string): WireDecodeProblem {
  return {
    kind: "decode_problem",
    reason,
    line: line.length > PROBLEM_LINE_MAX_CHARS ? line.slice(0, PROBLEM_LINE_MAX_CHARS) : line,
  };
}

/** What `checkMessage` says of an object whose string `type` Telecode does not know. */
const UNKNOWN_TYPE = "unknown message type";

/** True for the value `decodeLine` returns when a line could not be decoded. */
export function isDecodeProblem(value: WireMessage | WireDecodeProblem): value is WireDecodeProblem {
  return (value as { kind?: unknown }).kind === "decode_problem";
}

/** The decode problem to report for a line the framer dropped as too long. */
export function oversizedLineProblem(report: OversizedLine): WireDecodeProblem {
  return {
    kind: "decode_problem",
    reason: `line of ${report.bytes} bytes exceeds the ${report.maxLineBytes}-byte limit and was dropped`,
    line: report.head,
  };
}

/** Top-level types the SDK lists that Telecode keeps without checking. */
const AUXILIARY_TYPES = new Set([
  "tool_progress",
  "tool_use_summary",
  "auth_status",
  "conversation_reset",
  "keep_alive",
  "active_goal",
]);

/**
 * Parses and checks one line (without its newline). Returns the parsed object itself, typed,
 * when the fields Telecode uses have the right types; otherwise a decode problem. A missing
 * `parent_tool_use_id` on assistant/user/stream_event lines is normalised to null.
 */
export function decodeLine(line: string): WireMessage | WireDecodeProblem {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return problem(`not JSON: ${error instanceof Error ? error.message : String(error)}`, line);
  }
  if (!isObject(parsed)) return problem("not a JSON object", line);
  const reason = checkMessage(parsed);
  if (reason === undefined) return parsed as WireMessage;
  if (reason !== UNKNOWN_TYPE) return problem(reason, line);
  const type = parsed["type"] as string;
  return { ...problem(`unknown message type "${type}"`, line), unknownType: type };
}

/** Returns why a parsed object is not a message we can use, or undefined when it is. */
function checkMessage(o: JsonObject): string | undefined {
  const type = o["type"];
  switch (type) {
    case "assistant":
    case "user":
      return checkConversation(o, type);
    case "system":
      return checkSystem(o);
    case "result":
      if (typeof o["subtype"] !== "string") return "result without a string subtype";
      if (typeof o["is_error"] !== "boolean") return "result without a boolean is_error";
      if (typeof o["session_id"] !== "string") return "result without a session_id";
      return undefined;
    case "stream_event":
      if (!isObject(o["event"]) || typeof o["event"]["type"] !== "string") return "stream_event without an event type";
      return checkParent(o);
    case "rate_limit_event": {
      const info = o["rate_limit_info"];
      if (!isObject(info) || typeof info["status"] !== "string")
        return "rate_limit_event without rate_limit_info.status";
      if (info["resetsAt"] !== undefined && typeof info["resetsAt"] !== "number")
        return "rate_limit_event with a non-numeric resetsAt";
      return undefined;
    }
    case "control_request":
      return checkControlRequest(o);
    case "control_response":
      return checkControlResponse(o);
    case "control_cancel_request":
      return typeof o["request_id"] === "string" ? undefined : "control_cancel_request without a request_id";
    case "command_lifecycle":
      return checkCommandLifecycle(o);
    case "prompt_suggestion":
      if (typeof o["suggestion"] !== "string") return "prompt_suggestion without a string suggestion";
      return o["session_id"] === undefined || typeof o["session_id"] === "string"
        ? undefined
        : "prompt_suggestion with a non-string session_id";
    default:
      if (typeof type !== "string") return "no string type field";
      return AUXILIARY_TYPES.has(type) ? undefined : UNKNOWN_TYPE;
  }
}

function checkParent(o: JsonObject): string | undefined {
  const parent = o["parent_tool_use_id"];
  if (parent === undefined) {
    o["parent_tool_use_id"] = null;
    return undefined;
  }
  return parent === null || typeof parent === "string" ? undefined : "parent_tool_use_id is neither a string nor null";
}

function checkConversation(o: JsonObject, type: "assistant" | "user"): string | undefined {
  const message = o["message"];
  if (!isObject(message)) return `${type} line without a message object`;
  const content = message["content"];
  if (Array.isArray(content)) {
    for (const block of content as unknown[]) {
      const reason = checkBlock(block);
      if (reason !== undefined) return `${type} content block: ${reason}`;
    }
  } else if (type === "assistant" || typeof content !== "string") {
    return `${type} message content is not ${type === "user" ? "a string or " : ""}a list of blocks`;
  }
  return checkParent(o);
}

function checkBlock(block: unknown): string | undefined {
  if (!isObject(block)) return "not an object";
  switch (block["type"]) {
    case "text":
      return typeof block["text"] === "string" ? undefined : "text block without text";
    case "thinking":
      return typeof block["thinking"] === "string" ? undefined : "thinking block without thinking";
    case "tool_use":
      if (typeof block["id"] !== "string" || typeof block["name"] !== "string") return "tool_use without id or name";
      return isObject(block["input"]) ? undefined : "tool_use input is not an object";
    case "tool_result": {
      if (typeof block["tool_use_id"] !== "string") return "tool_result without tool_use_id";
      const content = block["content"];
      if (content !== undefined && typeof content !== "string" && !Array.isArray(content))
        return "tool_result content is neither text nor blocks";
      return undefined;
    }
    default:
      return typeof block["type"] === "string" ? undefined : "block without a string type";
  }
}

function checkSystem(o: JsonObject): string | undefined {
  const subtype = o["subtype"];
  switch (subtype) {
    case "init":
      return typeof o["session_id"] === "string" ? undefined : "system/init without a session_id";
    case "status": {
      const status = o["status"];
      if (status !== null && status !== undefined && typeof status !== "string")
        return "system/status with a non-string status";
      if (status === undefined) o["status"] = null;
      return undefined;
    }
    case "api_retry":
      if (
        typeof o["attempt"] !== "number" ||
        typeof o["max_retries"] !== "number" ||
        typeof o["retry_delay_ms"] !== "number"
      ) {
        return "system/api_retry without numeric attempt, max_retries and retry_delay_ms";
      }
      if (o["error_status"] === undefined) o["error_status"] = null;
      else if (o["error_status"] !== null && typeof o["error_status"] !== "number")
        return "system/api_retry with a non-numeric error_status";
      return undefined;
    case "compact_boundary":
      if (!isObject(o["compact_metadata"])) return "system/compact_boundary without compact_metadata";
      return undefined;
    case "task_started":
    case "task_progress":
    case "task_updated":
    case "task_notification":
      return typeof o["task_id"] === "string" ? undefined : `system/${subtype} without a task_id`;
    default:
      return typeof subtype === "string" ? undefined : "system line without a string subtype";
  }
}

function checkCommandLifecycle(o: JsonObject): string | undefined {
  if (typeof o["command_uuid"] !== "string") return "command_lifecycle without a command_uuid";
  if (typeof o["state"] !== "string") return "command_lifecycle without a string state";
  if (o["wakeup_source"] !== undefined && typeof o["wakeup_source"] !== "string")
    return "command_lifecycle with a non-string wakeup_source";
  if (o["scheduled_for"] !== undefined && typeof o["scheduled_for"] !== "number")
    return "command_lifecycle with a non-numeric scheduled_for";
  return undefined;
}

function checkControlRequest(o: JsonObject): string | undefined {
  if (typeof o["request_id"] !== "string") return "control_request without a request_id";
  const request = o["request"];
  if (!isObject(request) || typeof request["subtype"] !== "string") return "control_request without request.subtype";
  switch (request["subtype"]) {
    case "can_use_tool":
      if (typeof request["tool_name"] !== "string") return "can_use_tool without tool_name";
      if (!isObject(request["input"])) return "can_use_tool input is not an object";
      if (request["permission_suggestions"] !== undefined && !Array.isArray(request["permission_suggestions"])) {
        return "can_use_tool permission_suggestions is not a list";
      }
      return undefined;
    case "hook_callback":
      if (typeof request["callback_id"] !== "string") return "hook_callback without callback_id";
      if (request["input"] === undefined) request["input"] = {};
      return isObject(request["input"]) ? undefined : "hook_callback input is not an object";
    default:
      return undefined;
  }
}

function checkControlResponse(o: JsonObject): string | undefined {
  const response = o["response"];
  if (!isObject(response) || typeof response["request_id"] !== "string")
    return "control_response without response.request_id";
  switch (response["subtype"]) {
    case "success":
      if (response["response"] !== undefined && !isObject(response["response"]))
        return "control_response success payload is not an object";
      return undefined;
    case "error":
      return typeof response["error"] === "string" ? undefined : "control_response error without an error message";
    default:
      return "control_response subtype is neither success nor error";
  }
}
