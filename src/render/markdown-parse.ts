// The Markdown front end: markdown-it (CommonMark plus GFM tables and ~~strikethrough~~) set
// up for what Claude writes, returning its flat token stream. Raw HTML stays text, and `*` or
// `_` inside a word or a path (`src/**/*.ts`, `__init__.py`, `2*3*4`) is never emphasis.
// Rendering the tokens is telegram-markdown-blocks.ts.

import MarkdownIt, { type StateInline, type Token } from "markdown-it";

/** Containers nested deeper than this are not parsed (markdown-it stops there and drops the rest). */
export const MAX_MARKDOWN_NESTING = 100;

export type ParsedMarkdown = {
  tokens: Token[];
  /** Some container reached MAX_MARKDOWN_NESTING: text past it was not parsed. */
  tooDeep: boolean;
};

/**
 * Parses `markdown` into markdown-it's block tokens (inline ones are their `children`).
 * Linear in the input on the inputs we measured (docs/markdown.md); throws only on a bug.
 */
export function parseMarkdown(markdown: string): ParsedMarkdown {
  const md = new MarkdownIt("commonmark", {
    html: false,
    linkify: true,
    maxNesting: MAX_MARKDOWN_NESTING,
  }).enable(["table", "strikethrough"]);
  // URLs are found as Claude typed them, so `_` in them is not emphasis; Telegram links them itself.
  md.inline.ruler.enable("linkify");
  md.core.ruler.disable("linkify");
  md.inline.ruler.at("emphasis", wordBoundEmphasis);
  const tokens = md.parse(markdown, {});
  for (const token of tokens) if (token.type === "fence") token.info = md.utils.unescapeAll(token.info);
  return { tokens, tooDeep: tokens.some((t) => t.level >= MAX_MARKDOWN_NESTING - 1) };
}

/**
 * markdown-it's emphasis rule with one change. CommonMark lets `*` open or close inside a word
 * (`2*3*4`, `foo*bar*`) and `_` next to punctuation (`/_private_/`, `__init__.py`). In a coding
 * assistant's answers those are code, paths and URLs, so here a delimiter run opens only at a
 * word's start (after brackets, quotes or dashes) and closes only at its end (before closing
 * punctuation, a dash, or "'s"). Chinese and Japanese have no spaces, so their characters and
 * full-width punctuation count as a word's edge (`请注意**重要**的事情`), and so does a backtick: a
 * code span right after `**Path:**` is a word of its own. Two emphasised words joined by a
 * symbol (`**Ctrl**+**C**`, `*a*=*b*`) close and open at the symbol. Looks at most PHRASE_LOOK +
 * WORD_LOOK characters either side of the run.
 */
function wordBoundEmphasis(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const src = state.src;
  const marker = src.charCodeAt(start);
  if (silent || (marker !== STAR && marker !== UNDERSCORE)) return false;
  const scanned = state.scanDelims(start, marker === STAR);
  const end = start + scanned.length;
  const open = scanned.can_open && (opensWord(src, start) || opensAfterJoiner(src, start, end));
  const close = scanned.can_close && (closesWord(src, end) || closesBeforeJoiner(src, start, end));
  for (let i = 0; i < scanned.length; i++) {
    const token = state.push("text", "", 0);
    token.content = String.fromCharCode(marker);
    state.delimiters.push({ marker, length: scanned.length, token: state.tokens.length - 1, end: -1, open, close });
  }
  state.pos = end;
  return true;
}

const STAR = 0x2a;
const UNDERSCORE = 0x5f;
/** Words longer than this around a delimiter run are code or paths: no emphasis there. */
const WORD_LOOK = 32;
/** An emphasised phrase beside a joining symbol (`**Ctrl**+`) is at most this long. */
const PHRASE_LOOK = 64;
/** `**a**<=>**b**` is the longest join worth reading as two phrases. */
const JOINER_LOOK = 3;

const OPENING = /[\p{Ps}\p{Pi}\p{Pd}"'*_~]/u;
const CLOSING = /[\p{Pe}\p{Pf}"'*_~.,;:!?…]/u;
const DASH = /\p{Pd}/u;
const LETTER = /\p{L}/u;
const WORD = /[\p{L}\p{N}]/u;
/** Symbols that join two words into one: `+ / = & |`, maths, arrows, dashes (`->`). */
const JOINER = /[\p{Sm}\p{Pd}/&|\u2190-\u21ff\u27f0-\u27ff\u2900-\u297f]/u;
/**
 * Han, Hiragana and Katakana (with the marks they share, like 、。ー) and full-width
 * punctuation: a word's edge in text written without spaces.
 */
const CJK_EDGE =
  /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\u3000-\u303f\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]/u;

/** Only opening punctuation between the word's start and the run at `at`. */
function opensWord(src: string, at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - WORD_LOOK); i--) {
    const ch = src[i]!;
    if (isSpace(ch) || ch === "`" || CJK_EDGE.test(ch)) return true;
    if (!OPENING.test(ch)) return false;
  }
  return at <= WORD_LOOK;
}

/** Only closing punctuation (or "'s", or a dash or "]" and anything) between the run ending at `at` and the word's end. */
function closesWord(src: string, at: number): boolean {
  let i = at;
  const limit = Math.min(src.length, at + WORD_LOOK);
  if ((src[i] === "'" || src[i] === "’") && LETTER.test(src[i + 1] ?? "")) {
    i++;
    while (i < limit && LETTER.test(src[i]!)) i++;
  }
  for (; i < limit; i++) {
    const ch = src[i]!;
    // A dash, a link's "](" or a code span ends the word as far as emphasis is concerned.
    if (isSpace(ch) || DASH.test(ch) || ch === "]" || ch === "`" || CJK_EDGE.test(ch)) return true;
    if (!CLOSING.test(ch)) return false;
  }
  return i >= src.length;
}

/** The run `[start, end)` closes `**Ctrl**` in `**Ctrl**+**C**`. */
function closesBeforeJoiner(src: string, start: number, end: number): boolean {
  const joinerEnd = skip(src, end, 1, JOINER_LOOK, (ch) => JOINER.test(ch));
  if (joinerEnd === end) return false;
  const nextEnd = skip(src, joinerEnd, 1, WORD_LOOK, (ch) => ch === src[start]);
  return nextEnd > joinerEnd && joinsPhrases(src, start, nextEnd);
}

/** The run `[start, end)` opens `**C**` in `**Ctrl**+**C**`. */
function opensAfterJoiner(src: string, start: number, end: number): boolean {
  const joinerStart = skip(src, start - 1, -1, JOINER_LOOK, (ch) => JOINER.test(ch)) + 1;
  if (joinerStart === start) return false;
  const previousStart = skip(src, joinerStart - 1, -1, WORD_LOOK, (ch) => ch === src[start]) + 1;
  return previousStart < joinerStart && joinsPhrases(src, previousStart, end);
}

/**
 * Whether the run starting at `leftStart` and the one ending at `rightEnd` (same marker, only
 * joining symbols between) end one emphasised phrase and start the next: each touches a letter
 * or digit on its phrase's side, the left phrase opens at a word's start and the right one
 * closes at a word's end (or at another join). A path like `__pycache__/__init__.py` fails the
 * last test and stays as typed.
 */
function joinsPhrases(src: string, leftStart: number, rightEnd: number): boolean {
  if (!WORD.test(src[leftStart - 1] ?? "") || !WORD.test(src[rightEnd] ?? "")) return false;
  const marker = src[leftStart]!;
  const openerEnd = skip(src, leftStart - 1, -1, PHRASE_LOOK, (ch) => ch !== marker) + 1;
  const openerStart = skip(src, openerEnd - 1, -1, WORD_LOOK, (ch) => ch === marker) + 1;
  if (openerStart === openerEnd || !(opensWord(src, openerStart) || isAfterJoiner(src, openerStart, openerEnd))) {
    return false;
  }
  const closerStart = skip(src, rightEnd, 1, PHRASE_LOOK, (ch) => ch !== marker);
  const closerEnd = skip(src, closerStart, 1, WORD_LOOK, (ch) => ch === marker);
  return closerEnd > closerStart && (closesWord(src, closerEnd) || isBeforeJoiner(src, closerStart, closerEnd));
}

/** The shape of a right-hand run in a join (`+**` before a letter), without looking further. */
function isAfterJoiner(src: string, start: number, end: number): boolean {
  const joinerStart = skip(src, start - 1, -1, JOINER_LOOK, (ch) => JOINER.test(ch)) + 1;
  const previousStart = skip(src, joinerStart - 1, -1, WORD_LOOK, (ch) => ch === src[start]) + 1;
  return (
    joinerStart < start &&
    previousStart < joinerStart &&
    WORD.test(src[previousStart - 1] ?? "") &&
    WORD.test(src[end] ?? "")
  );
}

/** The shape of a left-hand run in a join (`**+` after a letter), without looking further. */
function isBeforeJoiner(src: string, start: number, end: number): boolean {
  const joinerEnd = skip(src, end, 1, JOINER_LOOK, (ch) => JOINER.test(ch));
  const nextEnd = skip(src, joinerEnd, 1, WORD_LOOK, (ch) => ch === src[start]);
  return joinerEnd > end && nextEnd > joinerEnd && WORD.test(src[start - 1] ?? "") && WORD.test(src[nextEnd] ?? "");
}

/**
 * From `from`, steps `step` (1 or -1) while `matches` holds, at most `max` characters; returns
 * the first index where it stopped (which may be -1 or `src.length`). Gives up (returns `from`)
 * when `max` characters all match, so no run is read past its bound.
 */
function skip(src: string, from: number, step: 1 | -1, max: number, matches: (ch: string) => boolean): number {
  let i = from;
  for (let n = 0; n < max; n++, i += step) {
    const ch = src[i];
    if (ch === undefined || !matches(ch)) return i;
  }
  return from;
}

function isSpace(ch: string): boolean {
  return ch === " " || ch === "\n" || ch === "\t" || ch === "\r" || ch === "\f" || ch === "\v";
}
