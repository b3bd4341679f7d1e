// The approval prompt for an ordinary tool call and how its answers become CLI answers:
// Allow, Deny, and "Always allow in this session" when the CLI offers permission suggestions.
import {
  relativeToCwd,
  toolDisplayName,
  type ApprovalAnswer,
  type ApprovalRequest,
  type PermissionUpdate,
} from "../domain/index.js";
import { personDeniedMessage } from "./messages.js";
import type { DecisionOutcome, DecisionPrompt, PersonAnswer, PromptSection } from "./prompt-types.js";
import { describeToolCall, toolCallTitle } from "./tool-summary.js";
import { typedReplyDenial } from "./typed-reply.js";

export const approvalChoiceIds = { allow: "allow", always: "always", deny: "deny" } as const;

/**
 * The updates "Always allow in this session" sends: the CLI's rule and directory suggestions,
 * kept to this session. Suggestions to change the mode are left out: the person agreed to this
 * kind of call, not to a new permission mode for everything.
 */
export function sessionPermissionUpdates(suggestions: ApprovalRequest["permissionSuggestions"]): PermissionUpdate[] {
  return suggestions
    .filter((s) => s["type"] === "addRules" || s["type"] === "addDirectories")
    .map((s) => ({ ...s, type: String(s["type"]), destination: "session" }));
}

/**
 * What "Always allow in this session" allows, one item per rule the CLI suggested:
 * "Bash(npm test:*)", "every Read call", "every github · create_issue call" (an MCP server's
 * tool, named as its prompt names it), "files in this project", "files in /etc". A compound
 * command's rule may cover only part of it, so the person sees exactly which calls will not be
 * asked again. Directories in the project (`root`) are named relative to it.
 */
export function describeSessionPermissions(updates: readonly PermissionUpdate[], root?: string): string[] {
  const items: string[] = [];
  for (const update of updates) {
    if (update.type === "addRules" && Array.isArray(update["rules"])) {
      for (const rule of update["rules"] as unknown[]) {
        if (typeof rule !== "object" || rule === null) continue;
        const { toolName, ruleContent } = rule as { toolName?: unknown; ruleContent?: unknown };
        if (typeof toolName !== "string") continue;
        items.push(
          typeof ruleContent === "string" && ruleContent !== ""
            ? `${toolName}(${ruleContent})`
            : `every ${toolDisplayName(toolName)} call`,
        );
      }
    } else if (update.type === "addDirectories" && Array.isArray(update["directories"])) {
      for (const directory of update["directories"] as unknown[])
        if (typeof directory === "string") items.push(filesIn(directory, root));
    }
  }
  return items;
}

function filesIn(directory: string, root: string | undefined): string {
  const shown = relativeToCwd(directory, root);
  return shown === "." ? "files in this project" : `files in ${shown}`;
}

/**
 * Reasons the CLI gives for every call of a kind, which tell the person nothing the prompt
 * does not already say (it asks, so the call needs approval): left out of the prompt.
 */
const SAYS_NOTHING = new Set([
  "This command requires approval",
  "This connector call requires your approval to proceed.",
]);

function why(request: ApprovalRequest): PromptSection[] {
  const out: PromptSection[] = [];
  if (request.decisionReason && !SAYS_NOTHING.has(request.decisionReason.trim()))
    out.push({ kind: "text", label: "Why it asks", text: request.decisionReason });
  if (request.agentId) out.push({ kind: "text", text: "Requested by a subagent." });
  return out;
}

export type ApprovalPromptOptions = {
  /** Shown when the call is asked only because the chat previews changes. */
  preview?: boolean;
  /** The project's root: file paths in it are shown relative to it. */
  projectRoot?: string | undefined;
};

export function approvalPrompt(request: ApprovalRequest, options: ApprovalPromptOptions = {}): DecisionPrompt {
  const updates = sessionPermissionUpdates(request.permissionSuggestions);
  const always = updates.length > 0;
  const allows = describeSessionPermissions(updates, options.projectRoot);
  const alwaysSection: PromptSection[] =
    allows.length === 0 ? [] : [{ kind: "text", label: "“Always allow” covers", text: allows.join("; ") }];
  return {
    kind: "approval",
    title: toolCallTitle(request.toolName, request.input, options.projectRoot),
    sections: [
      ...describeToolCall(request.toolName, request.input, options.projectRoot, request.fileNow),
      ...why(request),
      ...alwaysSection,
    ],
    choices: [
      { id: approvalChoiceIds.allow, label: "Allow", tone: "allow" },
      ...(always
        ? [{ id: approvalChoiceIds.always, label: "Always allow in this session", tone: "allow" as const }]
        : []),
      { id: approvalChoiceIds.deny, label: "Deny", tone: "deny" },
    ],
    ...(options.preview ? { caption: "Shown because this chat previews changes before they are made." } : {}),
    textReplyHint: "A typed reply denies this call and passes your words to Claude.",
  };
}

export type ApprovalResolution = { answer: ApprovalAnswer; outcome: DecisionOutcome };

/** Maps the person's answer to the CLI answer; undefined when the choice is not one of this prompt's. */
export function resolveApproval(request: ApprovalRequest, answer: PersonAnswer): ApprovalResolution | undefined {
  const by = answer.by !== undefined ? { by: answer.by } : {};
  if (answer.kind === "text") return typedReplyDenial(request.toolName, answer, "Denied with your reply:");
  switch (answer.choiceId) {
    case approvalChoiceIds.allow:
      return {
        answer: { behavior: "allow", updatedInput: { ...request.input } },
        outcome: { decision: "allow", reason: "person", ...by, summary: "Allowed" },
      };
    case approvalChoiceIds.always: {
      const updates = sessionPermissionUpdates(request.permissionSuggestions);
      if (updates.length === 0) return undefined;
      return {
        answer: { behavior: "allow", updatedInput: { ...request.input }, updatedPermissions: updates },
        outcome: { decision: "allow", reason: "person", ...by, summary: "Allowed for the rest of this session" },
      };
    }
    case approvalChoiceIds.deny:
      return {
        answer: { behavior: "deny", message: personDeniedMessage(request.toolName) },
        outcome: { decision: "deny", reason: "person", ...by, summary: "Denied" },
      };
    default:
      return undefined;
  }
}
