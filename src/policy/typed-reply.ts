// Typed replies: a line typed at a prompt in a front end without buttons (the terminal) picks a
// choice by number or label, anything else is the person's own words; and words typed at an
// approval or plan prompt deny the call and pass the words on to Claude.
import type { ApprovalAnswer } from "../domain/index.js";
import { personRepliedMessage } from "./messages.js";
import {
  shownWords,
  type DecisionOutcome,
  type DecisionPrompt,
  type PersonAnswer,
  type TypedWords,
} from "./prompt-types.js";

/**
 * "2" or "Deny" (any case, surrounding spaces ignored) picks that choice; an empty line gives
 * undefined (ask again); any other text is a typed answer. Choices that only open a text field
 * ("Type an answer") are picked too, so the front end can ask for the text next.
 */
export function answerFromTypedLine(prompt: DecisionPrompt, line: string, by?: string): PersonAnswer | undefined {
  const text = line.trim();
  if (text === "") return undefined;
  const who = by !== undefined ? { by } : {};
  const n = /^\d+$/.test(text) ? Number(text) : NaN;
  const byNumber = Number.isInteger(n) ? prompt.choices[n - 1] : undefined;
  const byLabel = prompt.choices.find((c) => c.label.toLowerCase() === text.toLowerCase());
  const choice = byNumber ?? byLabel;
  if (choice) return { kind: "choice", choiceId: choice.id, ...who };
  return { kind: "text", text, ...who };
}

/**
 * The deny a typed reply to `toolName`'s prompt sends, carrying the words, and how the prompt
 * settles: `lead` and the words as the person gave them ("Denied with your reply: …").
 */
export function typedReplyDenial(
  toolName: string,
  words: TypedWords & { by?: string },
  lead: string,
): { answer: ApprovalAnswer; outcome: DecisionOutcome } {
  return {
    answer: { behavior: "deny", message: personRepliedMessage(toolName, words.text) },
    outcome: {
      decision: "deny",
      reason: "typed_reply",
      ...(words.by !== undefined ? { by: words.by } : {}),
      summary: `${lead} ${shownWords(words)}`,
    },
  };
}
