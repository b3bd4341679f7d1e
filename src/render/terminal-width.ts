// How many terminal columns text takes: East Asian wide characters and emoji take two, marks
// and joiners none. Enough to keep a one-line status from wrapping; not a full UAX #11 table.

/** Marks (accents, variation selectors) and format characters (joiners, direction marks). */
const ZERO_WIDTH = /[\p{M}\p{Cf}]/u;
/** CJK, Hangul, full-width forms, and emoji drawn as emoji by default (✅, 😀; not ☀ or ©). */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\p{Emoji_Presentation}\u{20000}-\u{3fffd}]/u;

/** The columns one character (a code point) takes. */
function charWidth(ch: string): number {
  if (ZERO_WIDTH.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += charWidth(ch);
  return width;
}

/** `text` cut to at most `columns` terminal columns, ending with "…" when cut; never half a character. */
export function fitColumns(text: string, columns: number): string {
  if (displayWidth(text) <= columns) return text;
  let width = 0;
  let end = 0;
  for (const ch of text) {
    const w = charWidth(ch);
    if (width + w > columns - 1) break;
    width += w;
    end += ch.length;
  }
  return `${text.slice(0, end)}…`;
}
