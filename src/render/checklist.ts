// The agent's plan (its task list) as lines a person scans: "✓ Read the code", "▸ Running the
// tests", "○ Fix the bug", a long list folded to what is in hand, and a one-line account of it.
// Plain text; each front end escapes it for its own surface.
import { excerpt, type ChecklistItem } from "../domain/index.js";

const MARKS: Readonly<Record<ChecklistItem["status"], string>> = { completed: "✓", in_progress: "▸", pending: "○" };

/** Words on one line, cut to fit. */
const fit = (words: string, maxChars: number): string => excerpt(words.replace(/\s+/g, " ").trim(), maxChars);

/** "2/5 done". */
export function checklistCount(items: readonly ChecklistItem[]): string {
  return `${items.filter((i) => i.status === "completed").length}/${items.length} done`;
}

/**
 * The list as at most `maxLines` lines, in its order. A longer one folds what is done into one
 * line ("✓ 7 done") and what is left beyond the room into another ("○ 4 more").
 */
export function checklistLines(items: readonly ChecklistItem[], maxLines: number, maxChars: number): string[] {
  // In progress, an item reads as what it is doing ("Running the tests").
  const line = (item: ChecklistItem): string =>
    `${MARKS[item.status]} ${fit(item.status === "in_progress" ? (item.activeText ?? item.text) : item.text, maxChars)}`;
  if (items.length <= maxLines) return items.map(line);
  const done = items.filter((i) => i.status === "completed");
  const left = items.filter((i) => i.status !== "completed");
  const lines = done.length > 0 ? [`✓ ${done.length} done`] : [];
  // In progress first, then what comes next, as the room allows.
  const ordered = [...left.filter((i) => i.status === "in_progress"), ...left.filter((i) => i.status === "pending")];
  const room = Math.max(1, maxLines - lines.length - (ordered.length > maxLines - lines.length ? 1 : 0));
  const shown = new Set(ordered.slice(0, room));
  lines.push(...left.filter((i) => shown.has(i)).map(line));
  if (ordered.length > shown.size) lines.push(`○ ${ordered.length - shown.size} more`);
  return lines;
}

/** "2/3 done · next: Fix the bug", "3/3 done": where the plan stands, on one line. */
export function checklistSummary(items: readonly ChecklistItem[], maxChars: number): string {
  const next = items.find((i) => i.status === "in_progress") ?? items.find((i) => i.status === "pending");
  const count = checklistCount(items);
  return next === undefined ? count : `${count} · next: ${fit(next.text, maxChars)}`;
}
