// ExitPlanMode: the plan prompt (Approve / Deny / Pause & Outline), the outline gate that
// Pause & Outline arms, the post-outline prompt (Approve Plan / Deny / Let's discuss), and the
// CLI answer for each choice. Pure; the caller keeps the gate in its state.
import type { ApprovalAnswer, ApprovalRequest, PermissionMode } from "../domain/index.js";
import { discussPlanMessage, outlineRequestedMessage, planDeniedMessage } from "./messages.js";
import { isPlanChat } from "./modes.js";
import type { DecisionOutcome, DecisionPrompt, PersonAnswer, PromptSection } from "./prompt-types.js";
import { typedReplyDenial } from "./typed-reply.js";

/** Characters of visible text (or of the plan field) that count as a written outline. */
export const outlineMinChars = 200;

/**
 * Armed by Pause & Outline. While armed, ExitPlanMode is refused without asking until the
 * model has written `outlineMinChars` of assistant text since arming, or sends a plan of
 * that size that differs from the one the person paused on (the same plan file again is
 * not an outline).
 */
export type OutlineGate = { armed: false } | { armed: true; textChars: number; pausedPlan: string };

export const disarmedGate: OutlineGate = { armed: false };

export function armGate(pausedPlan: string): OutlineGate {
  return { armed: true, textChars: 0, pausedPlan };
}

/** Counts main-thread assistant text toward the outline. */
export function gateAfterText(gate: OutlineGate, chars: number): OutlineGate {
  return gate.armed ? { ...gate, textChars: gate.textChars + chars } : gate;
}

export function planTextOf(request: ApprovalRequest): string {
  const plan = request.input["plan"];
  return typeof plan === "string" ? plan : "";
}

export function isGateSatisfied(gate: OutlineGate, request: ApprovalRequest): boolean {
  if (!gate.armed) return true;
  const plan = planTextOf(request);
  return gate.textChars >= outlineMinChars || (plan.length >= outlineMinChars && plan !== gate.pausedPlan);
}

export const planChoiceIds = { approve: "approve", deny: "deny", outline: "outline", discuss: "discuss" } as const;

export type PlanCaptionContext = {
  chatMode: PermissionMode;
  rearmEnabled: boolean;
  /** Background agents from an earlier approved plan that still hold the re-arm back. */
  agentsDeferringRearm: number;
};

/** What approving does, said only as far as it is true for this chat right now. */
export function planApprovalCaption(ctx: PlanCaptionContext): string {
  const base = "Approving lets Claude leave plan mode and start making changes.";
  if (!isPlanChat(ctx.chatMode)) return base;
  if (!ctx.rearmEnabled) return `${base} Plan mode does not come back by itself: re-arming is turned off.`;
  if (ctx.agentsDeferringRearm > 0) {
    return `${base} Plan mode comes back after this request's work ends and the background agents still running from the earlier plan have finished.`;
  }
  return `${base} Plan mode comes back when this request's work ends, or after the background agents it starts have finished.`;
}

function planSections(request: ApprovalRequest): PromptSection[] {
  const plan = planTextOf(request);
  const path = request.input["planFilePath"];
  const out: PromptSection[] = [{ kind: "markdown", text: plan === "" ? "(Claude sent no plan text.)" : plan }];
  if (typeof path === "string" && path !== "")
    out.push({ kind: "fields", fields: [{ name: "plan file", value: path }] });
  return out;
}

export function planPrompt(request: ApprovalRequest, afterOutline: boolean, caption: string): DecisionPrompt {
  return {
    kind: "plan",
    title: afterOutline ? "Plan ready, with the outline" : "Plan ready for review",
    sections: planSections(request),
    choices: afterOutline
      ? [
          { id: planChoiceIds.approve, label: "Approve Plan", tone: "allow" },
          { id: planChoiceIds.deny, label: "Deny", tone: "deny" },
          { id: planChoiceIds.discuss, label: "Let's discuss", tone: "neutral" },
        ]
      : [
          { id: planChoiceIds.approve, label: "Approve", tone: "allow" },
          { id: planChoiceIds.deny, label: "Deny", tone: "deny" },
          { id: planChoiceIds.outline, label: "Pause & Outline", tone: "neutral" },
        ],
    caption,
    textReplyHint: "A typed reply keeps plan mode and passes your words to Claude.",
  };
}

/** The prompt a front end shows for a plan-auto approval: information, no buttons. */
export function planAutoApprovedSections(request: ApprovalRequest): PromptSection[] {
  return planSections(request);
}

export type PlanResolution = {
  answer: ApprovalAnswer;
  outcome: DecisionOutcome;
  /** The plan was approved: the CLI leaves plan mode. */
  approved: boolean;
  /** What happens to the outline gate. */
  gate: OutlineGate;
};

/** The outcomes of a plan's answers that ask for something else than yes or no (see DecisionOutcome.steered). */
const STEERED_SUMMARIES = { outline: "Outline requested", discuss: "Let's discuss" } as const;

/** Whether a plan decision's recorded summary is one of the steering answers (a store keeps only the words). */
export function isSteeredPlanSummary(summary: string | null): boolean {
  return summary === STEERED_SUMMARIES.outline || summary === STEERED_SUMMARIES.discuss;
}

/** Maps an answer on a plan prompt; undefined when the choice is not offered by that prompt. */
export function resolvePlanAnswer(
  request: ApprovalRequest,
  afterOutline: boolean,
  answer: PersonAnswer,
): PlanResolution | undefined {
  const by = answer.by !== undefined ? { by: answer.by } : {};
  if (answer.kind === "text") {
    return {
      ...typedReplyDenial("ExitPlanMode", answer, "Not approved; you replied:"),
      approved: false,
      gate: disarmedGate,
    };
  }
  const deny = (message: string, summary: string, gate: OutlineGate, steered = false): PlanResolution => ({
    answer: { behavior: "deny", message },
    outcome: { decision: "deny", reason: "person", ...by, summary, ...(steered ? { steered: true as const } : {}) },
    approved: false,
    gate,
  });
  switch (answer.choiceId) {
    case planChoiceIds.approve:
      return {
        answer: { behavior: "allow", updatedInput: { ...request.input } },
        outcome: { decision: "allow", reason: "person", ...by, summary: "Plan approved" },
        approved: true,
        gate: disarmedGate,
      };
    case planChoiceIds.deny:
      return deny(planDeniedMessage, "Plan denied", disarmedGate);
    case planChoiceIds.outline:
      return afterOutline
        ? undefined
        : deny(outlineRequestedMessage, STEERED_SUMMARIES.outline, armGate(planTextOf(request)), true);
    case planChoiceIds.discuss:
      return afterOutline ? deny(discussPlanMessage, STEERED_SUMMARIES.discuss, disarmedGate, true) : undefined;
    default:
      return undefined;
  }
}
