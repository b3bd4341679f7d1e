// The "choice" part of a decision button's callback data: "d" and the choice id itself when it
// fits (":" written as "-"; no policy id contains "-"), else "d_" and the choice's index. The
// leading "d" is what tells a decision button from the bridge's other buttons.
import { buttonTrigger } from "../callback-data.js";

/** Matches a decision button's callback data. */
export const DECISION_TRIGGER = buttonTrigger("d[A-Za-z0-9_-]{1,15}");

/** The callback "choice" field for a prompt choice. */
export function choiceCode(choiceId: string, index: number): string {
  return /^[A-Za-z0-9:]{1,15}$/.test(choiceId) ? `d${choiceId.replaceAll(":", "-")}` : `d_${index}`;
}

/** The choice id a tapped code names (the decision judges it), or undefined for an index out of range. */
export function choiceFromCode(code: string, choiceIds: readonly string[]): string | undefined {
  if (!code.startsWith("d")) return undefined;
  const body = code.slice(1);
  if (body.startsWith("_")) return choiceIds[Number(body.slice(1))];
  return body.replaceAll("-", ":");
}
