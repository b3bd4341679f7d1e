// The words the model reads when Telecode says no. Written for the model: the person is on a
// phone, sees only what the agent writes, and decided; the agent should adapt, not retry.
import { LOOPS_OFF_IN_CHAT, LOOPS_OFF_IN_CONFIG, SCHEDULING_FAILED } from "../domain/index.js";

/** The person tapped Deny on a tool call. */
export function personDeniedMessage(toolName: string): string {
  return (
    `The person reviewing your work from their phone did not allow this ${toolName} call. ` +
    "Do not retry the same call. In your reply, explain briefly what you wanted to do and why, " +
    "or propose another way, and wait for their answer."
  );
}

/** The person typed a reply instead of tapping a button: their words steer the agent. */
export function personRepliedMessage(toolName: string, reply: string): string {
  return (
    `The person did not allow this ${toolName} call. The person replied: "${reply}". ` +
    "Follow what they said; do not repeat the same call unchanged."
  );
}

/** Nobody is there to ask (scheduled, webhook or loop runs). */
export function unattendedMessage(toolName: string): string {
  return (
    `Nobody is available to approve this ${toolName} call: this is an unattended run and no person ` +
    "is watching. Carry on without it if you can, or stop and explain in your reply what you would need."
  );
}

/** The optional approval timeout fired. */
export function timedOutMessage(toolName: string): string {
  return (
    `The person did not answer in time, so this ${toolName} call was not allowed. ` +
    "Carry on without it if you can, or stop and explain in your reply what you need from them."
  );
}

/** Plan mode forbids the call (the CLI asked with decision_reason_type "mode"). */
export function stillInPlanModeMessage(toolName: string): string {
  return (
    `You are still in plan mode: this ${toolName} call would change things before any plan was approved. ` +
    "Do not make changes yet. Finish your plan and present it with ExitPlanMode; " +
    "you can start once the person approves it."
  );
}

/** The person declined the plan. */
export const planDeniedMessage =
  "The person did not approve this plan. Stay in plan mode and do not make changes. " +
  "Ask them what they would like changed, or revise the plan and present it again with ExitPlanMode.";

/** Pause & Outline: the person wants the plan written out as visible text first. */
export const outlineRequestedMessage =
  "The person wants to read the plan before deciding, and they only see the text you write. " +
  "Write a step-by-step outline of your plan as visible text in your reply: what you will change, " +
  "in which files, in what order, and how you will check the result. Then call ExitPlanMode again.";

/** The outline gate refused an ExitPlanMode that came before the outline. */
export const outlineStillMissingMessage =
  "Write the step-by-step outline of your plan as visible text in your reply first " +
  "(a few sentences at least), then call ExitPlanMode again.";

/** Let's discuss: talk before approving. */
export const discussPlanMessage =
  "The person wants to discuss the plan before approving it. Do not call ExitPlanMode now and do not " +
  "make changes. Ask them what they would like to discuss about the plan, then wait for their reply.";

/** Questions are turned off for the chat. */
export const questionsOffMessage =
  "Questions are turned off for this chat, so the person will not see this question. " +
  "Do not ask again; proceed with reasonable defaults and say in your reply which ones you chose.";

/** A question in an unattended run. */
export const questionUnattendedMessage =
  "Nobody is available to answer questions: this is an unattended run. " +
  "Proceed with reasonable defaults and say in your reply which ones you chose.";

/** The question timed out. */
export const questionTimedOutMessage =
  "The person did not answer in time. Proceed with reasonable defaults if that is safe, " +
  "and say in your reply which ones you chose; otherwise stop and ask again in your reply.";

/** The request was withdrawn by the CLI or its session ended: the CLI no longer reads this. */
export const noLongerPendingMessage = "This request is no longer pending.";

/**
 * What the person reads for a tool call that was refused, in place of the words written for
 * the model above (or the CLI's own, for a call rejected without a message): "denied",
 * "not allowed: nobody was watching this run". Undefined for any other text (a real failure).
 * `detail` is the tool result without the CLI's wrappers (cleanToolDetail).
 */
export function refusalInWords(detail: string): string | undefined {
  const text = detail.trimStart();
  for (const [lead, words] of REFUSALS) {
    const match = lead.exec(text);
    if (match !== null) return typeof words === "string" ? words : words(match);
  }
  return undefined;
}

const TOOL = String.raw`\S+`;

/** A text other modules write (Telecode's own hooks), as the lead of a refusal, taken literally. */
function leading(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`);
}

/**
 * The leads of the answers by which a person asks for something else than a yes or no (an
 * outline, a talk): refusals to the CLI, not to the person (see DecisionOutcome.steered).
 */
const STEERS = [
  /^The person wants to read the plan before deciding/,
  /^The person wants to discuss the plan before approving it\./,
] as const;

/** Whether a refused call's result is the person steering (an outline asked for), not refusing. */
export function isSteeringAnswer(detail: string): boolean {
  const text = detail.trimStart();
  return STEERS.some((lead) => lead.test(text));
}

/** Each message's fixed lead, as it begins the tool result, and what the person reads for it. */
const REFUSALS: readonly (readonly [RegExp, string | ((match: RegExpExecArray) => string)])[] = [
  [new RegExp(`^The person reviewing your work from their phone did not allow this ${TOOL} call\\.`), "denied"],
  [
    new RegExp(
      `^The person did not allow this ${TOOL} call\\. The person replied: "([\\s\\S]*)"\\. Follow what they said`,
    ),
    (match) => `denied with a reply: “${match[1] ?? ""}”`,
  ],
  [new RegExp(`^Nobody is available to approve this ${TOOL} call:`), "not allowed: nobody was watching this run"],
  [
    new RegExp(`^The person did not answer in time, so this ${TOOL} call was not allowed\\.`),
    "not allowed: no answer in time",
  ],
  [new RegExp(`^You are still in plan mode: this ${TOOL} call would change things`), "blocked: still in plan mode"],
  [/^The person did not approve this plan\./, "plan not approved"],
  [STEERS[0], "outline requested"],
  [/^Write the step-by-step outline of your plan as visible text/, "waiting for the outline first"],
  [STEERS[1], "to discuss first"],
  [/^Questions are turned off for this chat/, "not asked: questions are off in this chat"],
  [/^Nobody is available to answer questions:/, "not asked: nobody was watching this run"],
  [/^The person did not answer in time\. Proceed/, "no answer in time"],
  [/^This request is no longer pending\./, "no longer pending"],
  [leading(LOOPS_OFF_IN_CHAT), "not scheduled: loops are off in this chat (/loops on allows them)"],
  [leading(LOOPS_OFF_IN_CONFIG), "not scheduled: loops are off in the config ([loops] enabled)"],
  [leading(SCHEDULING_FAILED), "failed: Telecode could not carry it out (`telecode doctor` checks why)"],
  // The CLI's own words for a call an interrupt stopped: while it ran (it says so later on), or
  // while it waited to run.
  [
    /^The user doesn't want to proceed with this tool use\.[\s\S]*this call was stopped while running/,
    "stopped while running; it may have run in part",
  ],
  [/^The user doesn't want to proceed with this tool use\./, "not run"],
];
