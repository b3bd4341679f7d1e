// Reads a line typed at a prompt in a front end without buttons (the terminal): a choice's
// number or label picks it; anything else is the person's own words (a typed reply).
import type { DecisionPrompt, PersonAnswer } from "./prompt-types.js";

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
