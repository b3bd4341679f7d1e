// Small pure conversions the translator applies to single wire pieces: a can_use_tool request
// (or an MCP server's elicitation) to the domain ApprovalRequest, a tool_result's content to a
// short detail, a local-command echo to a note. No state here.
import { ELICITATION_TOOL, excerpt } from "../domain/index.js";
import type { ApprovalRequest, NoteEmitted } from "../domain/index.js";
import type { WireCanUseToolRequest, WireElicitationRequest, WireIncomingRequest } from "../wire/index.js";

/** Tool results longer than this are cut in `tool_finished.detail`. */
export const TOOL_DETAIL_MAX_CHARS = 300;

/** The domain approval request for a `can_use_tool` control request. */
export function toApprovalRequest(requestId: string, incoming: WireIncomingRequest): ApprovalRequest {
  const r = incoming as WireCanUseToolRequest;
  const request: ApprovalRequest = {
    requestId,
    toolName: r.tool_name,
    input: r.input,
    permissionSuggestions: Array.isArray(r.permission_suggestions) ? r.permission_suggestions : [],
  };
  if (typeof r.tool_use_id === "string") request.toolUseId = r.tool_use_id;
  if (typeof r.description === "string") request.description = r.description;
  if (typeof r.decision_reason === "string") request.decisionReason = r.decision_reason;
  if (typeof r.decision_reason_type === "string") request.decisionReasonType = r.decision_reason_type;
  if (typeof r.blocked_path === "string") request.blockedPath = r.blocked_path;
  if (typeof r.agent_id === "string") request.agentId = r.agent_id;
  return request;
}

/**
 * The decision an MCP server's question (an `elicitation` request) is put to the person as: the
 * request's fields are its input, under the name no tool has.
 */
export function elicitationRequest(requestId: string, incoming: WireIncomingRequest): ApprovalRequest {
  const { subtype: _subtype, ...input } = incoming as WireElicitationRequest;
  return { requestId, toolName: ELICITATION_TOOL, input, permissionSuggestions: [] };
}

/** A short excerpt of a tool result's content (text blocks joined; other blocks named). */
export function resultDetail(content: unknown): string {
  if (typeof content === "string") return excerpt(withoutHandBackFrame(content).trim(), TOOL_DETAIL_MAX_CHARS);
  if (!Array.isArray(content)) return "";
  let text = "";
  for (const block of content as unknown[]) {
    if (typeof block !== "object" || block === null) continue;
    const b = block as Record<string, unknown>;
    const part =
      typeof b["text"] === "string"
        ? b["text"]
        : typeof b["tool_name"] === "string"
          ? b["tool_name"]
          : typeof b["type"] === "string"
            ? `[${b["type"]}]`
            : "";
    text = text === "" ? part : `${text}\n${part}`;
    if (text.length > TOOL_DETAIL_MAX_CHARS) break;
  }
  return excerpt(withoutHandBackFrame(text).trim(), TOOL_DETAIL_MAX_CHARS);
}

const HAND_BACK = "[Subagent hand-back]";
const REPORT_FOLLOWS = "The report follows:\n";

/**
 * A subagent's report without the frame Claude Code puts around it for the model (the tools it
 * used, a ~500-character notice, its agent id and usage), dedented: the frame alone would fill
 * the excerpt, and in the foreground the report is shown nowhere else.
 */
function withoutHandBackFrame(text: string): string {
  const at = text.indexOf(REPORT_FOLLOWS);
  if (at < 0 || !text.includes(HAND_BACK)) return text;
  const report = text.slice(at + REPORT_FOLLOWS.length);
  const end = report.search(/\nagentId: |\n<usage>/);
  return (end < 0 ? report : report.slice(0, end))
    .split("\n")
    .map((line) => line.replace(/^ {2}/, ""))
    .join("\n");
}

const LOCAL_COMMAND = /^<local-command-(stdout|stderr)>([\s\S]*?)<\/local-command-\1>/;

/**
 * `<local-command-stdout>Set model to …</local-command-stdout>` (a user line the CLI prints
 * for slash commands and set_model) as an info note; stderr as a warning; else undefined.
 */
export function localCommandNote(text: string): NoteEmitted | undefined {
  if (!text.startsWith("<local-command-std")) return undefined;
  const match = LOCAL_COMMAND.exec(text);
  if (match === null) return undefined;
  const body = (match[2] ?? "").trim();
  if (body === "") return undefined;
  return { type: "note", kind: match[1] === "stderr" ? "warning" : "info", text: body };
}
