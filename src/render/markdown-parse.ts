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
 * punctuation, a dash, or "'s"). Looks at most WORD_LOOK characters around the run.
 */
function wordBoundEmphasis(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  const marker = state.src.charCodeAt(start);
  if (silent || (marker !== STAR && marker !== UNDERSCORE)) return false;
  const scanned = state.scanDelims(start, marker === STAR);
  const end = start + scanned.length;
  const open = scanned.can_open && opensWord(state.src, start);
  const close = scanned.can_close && closesWord(state.src, end);
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

const OPENING = /[\p{Ps}\p{Pi}\p{Pd}"'*_~]/u;
const CLOSING = /[\p{Pe}\p{Pf}"'*_~.,;:!?…]/u;
const DASH = /\p{Pd}/u;
const LETTER = /\p{L}/u;

/** Only opening punctuation between the word's start and the run at `at`. */
function opensWord(src: string, at: number): boolean {
  for (let i = at - 1; i >= Math.max(0, at - WORD_LOOK); i--) {
    const ch = src[i]!;
    if (isSpace(ch)) return true;
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
    // A dash or a link's "](" ends the word as far as emphasis is concerned.
    if (isSpace(ch) || DASH.test(ch) || ch === "]") return true;
    if (!CLOSING.test(ch)) return false;
  }
  return i >= src.length;
}

function isSpace(ch: string): boolean {
  return ch === " " || ch === "\n" || ch === "\t" || ch === "\r" || ch === "\f" || ch === "\v";
}
