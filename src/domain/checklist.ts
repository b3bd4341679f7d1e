// Reading the agent's plan from outside data (the CLI's tool calls, a stored row): a status in
// Claude Code's words, and a whole item.
import { CHECKLIST_STATUSES, type ChecklistItem } from "./events.js";

const STATUSES: ReadonlySet<unknown> = new Set(CHECKLIST_STATUSES);

/** `value` as a checklist status, when it is one. */
export function checklistStatus(value: unknown): ChecklistItem["status"] | undefined {
  return STATUSES.has(value) ? (value as ChecklistItem["status"]) : undefined;
}

const optionalString = (value: unknown): boolean => value === undefined || typeof value === "string";

/** Whether `value` is a checklist item: a text and a status, and strings where it has an id or active text. */
export function isChecklistItem(value: unknown): value is ChecklistItem {
  if (typeof value !== "object" || value === null) return false;
  const item = value as Record<string, unknown>;
  return (
    typeof item["text"] === "string" &&
    checklistStatus(item["status"]) !== undefined &&
    optionalString(item["id"]) &&
    optionalString(item["activeText"])
  );
}
