// Where an Edit lands in its file, from the file's text: the whole lines around `old_string`,
// so an approval can say the line number and show a little of what surrounds the change.
import type { EditSite } from "../domain/index.js";

/** Whole lines shown above and below the lines an Edit changes. */
const EDIT_SITE_CONTEXT_LINES = 2;

/** Offset of the start of the line holding `offset`. */
function lineStart(text: string, offset: number): number {
  // lastIndexOf reads a negative position as 0, which would find a "\n" at 0.
  return offset <= 0 ? 0 : text.lastIndexOf("\n", offset - 1) + 1;
}

/** Offset of the start of the line `lines` lines above the one holding `offset`. */
function lineStartAbove(text: string, offset: number, lines: number): number {
  let start = lineStart(text, offset);
  for (let i = 0; i < lines && start > 0; i++) start = lineStart(text, start - 1);
  return start;
}

/** Offset of the end (before its "\n") of the line `lines` lines below the one holding `offset`. */
function lineEndBelow(text: string, offset: number, lines: number): number {
  let end = text.indexOf("\n", offset);
  for (let i = 0; i < lines && end !== -1; i++) end = text.indexOf("\n", end + 1);
  return end === -1 ? text.length : end;
}

/** Line breaks in `text` before offset `end`. */
function countBreaks(text: string, end: number): number {
  let count = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at < end; at = text.indexOf("\n", at + 1)) count++;
  return count;
}

/** How many lines a file's text has: a last line without its "\n" counts too. */
export function lineCount(text: string): number {
  const breaks = countBreaks(text, text.length);
  return text === "" || text.endsWith("\n") ? breaks : breaks + 1;
}

/**
 * The site of `oldString` in `fileText` with `contextLines` whole lines around it, when it
 * occurs exactly once (as the CLI requires of an Edit that does not replace every occurrence);
 * undefined otherwise, or for an empty `oldString`.
 */
export function findEditSite(
  fileText: string,
  oldString: string,
  contextLines: number = EDIT_SITE_CONTEXT_LINES,
): EditSite | undefined {
  if (oldString === "") return undefined;
  const at = fileText.indexOf(oldString);
  if (at === -1 || fileText.includes(oldString, at + 1)) return undefined;
  const end = at + oldString.length;
  const start = lineStartAbove(fileText, at, contextLines);
  // A text ending in "\n" ends its last line: the lines below start right after it.
  const last = oldString.endsWith("\n") ? end - 1 : end;
  const stop = lineEndBelow(fileText, last, contextLines);
  return {
    firstLine: countBreaks(fileText, start) + 1,
    before: fileText.slice(start, at),
    after: fileText.slice(end, Math.max(end, stop)),
  };
}

/** The first line an Edit changes: its site's first line plus the unchanged lines it starts with. */
export function firstChangedLine(site: EditSite, oldText: string, newText: string): number {
  const a = oldText.split("\n");
  const b = newText.split("\n");
  let same = 0;
  while (same < a.length - 1 && same < b.length - 1 && a[same] === b[same]) same++;
  return site.firstLine + same;
}
