// Splits well-formed Telegram HTML into messages by what Telegram counts: the visible text
// after entity parsing, in UTF-16 code units. Prefers block boundaries (a short paragraph
// that introduces a code block goes with it), then lines, then sentence ends, then spaces;
// never cuts inside a grapheme cluster; tags open at a cut are closed and reopened in the next
// part; a continued code block keeps its first line's indentation. Pure.

import { TELEGRAM_TEXT_LIMIT } from "./telegram-html-parse.js";

type Token = { raw: string; visible: number; open?: string; close?: string; space?: boolean };

type Cut = { end: number; pieces: number; visible: number; stack: Token[] };

export type SplitOptions = {
  /** Start each part with "(2/3)" when there is more than one (for a long answer). */
  numbered?: boolean;
};

const TAG_OR_ENTITY = /<\/?([a-z-]+)(?:\s[^>]*)?>|&(?:[a-z]+|#x?[0-9a-f]+);/giu;
const NAMED: Readonly<Record<string, string>> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"' };
/** Clusters longer than this are not text anyone reads (a wall of combining marks): cut by code point. */
const MAX_CLUSTER_UNITS = 256;
const NOT_ASCII = /\P{ASCII}+/gu;
/** Characters handed to the grapheme segmenter at once (longer strings slow it down). */
const SEGMENT_WINDOW = 512;
/** Cuts this good or better are taken if they leave the part at least half full. */
const PRIORITIES = [5, 4, 3, 2, 1, 0];
const BLOCK_TAGS = new Set(["pre", "code", "blockquote"]);
/** A paragraph this short before a code block ("Run this:") is its lead-in: no good cut between them. */
const LEAD_IN_CHARS = 200;
/** What ends a sentence, and what may close around its end ("done.)" "it works!”"). */
const SENTENCE_END = new Set([".", "!", "?", "…"]);
const CLOSERS = new Set([")", "]", '"', "'", "”", "’", "»", "&quot;"]);

/**
 * Splits `html` (well-formed Telegram HTML, e.g. from markdownToTelegramHtml) into parts whose
 * visible text is at most `limit` UTF-16 code units each; parts with no visible text are
 * dropped. Loses only whitespace at the cuts.
 */
export function splitTelegramHtml(
  html: string,
  limit: number = TELEGRAM_TEXT_LIMIT,
  options: SplitOptions = {},
): string[] {
  const tokens = tokenize(html);
  const whole = splitTokens(tokens, limit);
  if (!options.numbered || whole.length <= 1) return whole;
  // The labels take room of their own: split again leaving it, until the count is stable.
  let count = whole.length;
  for (;;) {
    const label = `(${count}/${count})\n`.length;
    const parts = splitTokens(tokens, limit - label);
    if (`(${parts.length}/${parts.length})\n`.length <= label || parts.length <= 1) {
      return parts.length <= 1 ? parts : parts.map((part, i) => `<i>(${i + 1}/${parts.length})</i>\n${part}`);
    }
    count = parts.length;
  }
}

function splitTokens(tokens: readonly Token[], limit: number): string[] {
  const parts: string[] = [];
  let stack: Token[] = [];
  let start = skipSpace(tokens, 0, stack);
  while (start < tokens.length) {
    const cut = nextCut(tokens, start, stack, Math.max(1, limit));
    const part = renderPart(tokens, start, stack, cut);
    if (part !== undefined) parts.push(part);
    stack = cut.stack;
    start = skipSpace(tokens, cut.end, stack);
  }
  return parts;
}

function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  const pushCluster = (segment: string): void => {
    if (segment.length <= MAX_CLUSTER_UNITS) tokens.push(textToken(segment, segment.length));
    else for (const point of segment) tokens.push(textToken(point, point.length));
  };
  // ASCII characters are clusters of their own, unless a mark follows: only what is not ASCII
  // (with the character before it) goes through the segmenter.
  const pushText = (text: string): void => {
    let from = 0;
    for (const run of text.matchAll(NOT_ASCII)) {
      const start = Math.max(from, run.index - 1);
      for (let i = from; i < start; i++) tokens.push(textToken(text[i]!, 1));
      pushSegmented(text.slice(start, run.index + run[0].length));
      from = run.index + run[0].length;
    }
    for (let i = from; i < text.length; i++) tokens.push(textToken(text[i]!, 1));
  };
  // The segmenter slows down quadratically on long strings: feed it windows, and re-read each
  // window's last cluster with the next one (it may continue there).
  const pushSegmented = (text: string): void => {
    let from = 0;
    while (from < text.length) {
      const window = text.slice(from, from + SEGMENT_WINDOW);
      const clusters = [...segmenter.segment(window)].map((s) => s.segment);
      const last = from + window.length >= text.length || clusters.length === 1 ? clusters.length : clusters.length - 1;
      for (let i = 0; i < last; i++) {
        pushCluster(clusters[i]!);
        from += clusters[i]!.length;
      }
    }
  };
  let last = 0;
  for (const match of html.matchAll(TAG_OR_ENTITY)) {
    if (match.index > last) pushText(html.slice(last, match.index));
    last = match.index + match[0].length;
    const raw = match[0];
    const name = match[1]?.toLowerCase();
    if (name === undefined) tokens.push(textToken(raw, entityLength(raw)));
    else if (raw.startsWith("</")) tokens.push({ raw, visible: 0, close: name });
    else tokens.push({ raw, visible: 0, open: name });
  }
  if (last < html.length) pushText(html.slice(last));
  return tokens;
}

function textToken(raw: string, visible: number): Token {
  return raw === " " || raw === "\n" || raw === "\t" || /^\s+$/.test(raw)
    ? { raw, visible, space: true }
    : { raw, visible };
}

/** UTF-16 length of what an entity reference stands for. */
function entityLength(raw: string): number {
  const named = NAMED[raw.toLowerCase()];
  if (named !== undefined) return named.length;
  const code = raw[2] === "x" || raw[2] === "X" ? parseInt(raw.slice(3, -1), 16) : parseInt(raw.slice(2, -1), 10);
  return code > 0xffff ? 2 : 1;
}

/** Where the part starting at `start` ends, and the elements open there. */
function nextCut(tokens: readonly Token[], start: number, startStack: readonly Token[], limit: number): Cut {
  const stack = [...startStack];
  let visible = 0;
  let pieces = 0;
  const best = new Map<number, Cut>();
  let i = start;
  for (; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (visible + token.visible > limit && visible > 0) break;
    visible += token.visible;
    pieces++;
    if (token.open !== undefined) stack.push(token);
    else if (token.close !== undefined) stack.pop();
    const priority = cutPriority(tokens, i + 1, stack);
    if (priority !== undefined) best.set(priority, { end: i + 1, pieces, visible, stack: [...stack] });
  }
  const all: Cut = { end: i, pieces, visible, stack };
  if (i >= tokens.length) return all;
  const good = PRIORITIES.map((p) => best.get(p)).find((c) => c !== undefined && c.visible >= limit / 2);
  return good ?? [...best.values()].sort((a, b) => b.end - a.end)[0] ?? all;
}

/** The part's HTML: the open elements reopened, its tokens, whitespace before the cut dropped, closed. */
function renderPart(tokens: readonly Token[], start: number, stack: readonly Token[], cut: Cut): string | undefined {
  let end = start + cut.pieces;
  while (end > start && tokens[end - 1]!.space === true) end--;
  let html = stack.map((t) => t.raw).join("");
  let hasText = false;
  for (let i = start; i < end; i++) {
    html += tokens[i]!.raw;
    if (tokens[i]!.visible > 0 && tokens[i]!.space !== true) hasText = true;
  }
  if (!hasText) return undefined;
  // Whitespace dropped at the cut may sit between tags still to close here: keep those closings.
  for (let i = end; i < start + cut.pieces; i++) if (tokens[i]!.space !== true) html += tokens[i]!.raw;
  return html + closing(cut.stack);
}

/** How good a cut before tokens[index] is; undefined where no cut may go (right after an opening tag). */
function cutPriority(tokens: readonly Token[], index: number, stack: readonly Token[]): number | undefined {
  const before = tokens[index - 1]!;
  if (before.open !== undefined) return undefined;
  if (before.raw === "\n") {
    if (stack.length === 0) {
      if (tokens[index - 2]?.raw !== "\n") return 4;
      return tokens[index]?.open === "pre" && isLeadIn(tokens, index - 2) ? 4 : 5;
    }
    return stack.every((t) => BLOCK_TAGS.has(t.open!)) ? 3 : 1;
  }
  if (before.space === true) return endsSentence(tokens, index - 1, stack) ? 2 : 1;
  return 0;
}

/** Whether the text before the space at tokens[space] ends a sentence (in prose, not in code). */
function endsSentence(tokens: readonly Token[], space: number, stack: readonly Token[]): boolean {
  if (stack.some((t) => t.open === "pre" || t.open === "code")) return false;
  let i = space - 1;
  while (i >= 0 && tokens[i]!.visible === 0) i--;
  if (i > 0 && CLOSERS.has(tokens[i]!.raw)) i--;
  while (i >= 0 && tokens[i]!.visible === 0) i--;
  return i >= 0 && SENTENCE_END.has(tokens[i]!.raw);
}

/** Whether the paragraph ending before tokens[end] is short enough to be a lead-in. */
function isLeadIn(tokens: readonly Token[], end: number): boolean {
  let visible = 0;
  for (let i = end - 1; i >= 0; i--) {
    const token = tokens[i]!;
    // Its start: a blank line, or the end of the block before it.
    if ((token.raw === "\n" && tokens[i - 1]?.raw === "\n") || token.close === "pre") return true;
    visible += token.visible;
    if (visible > LEAD_IN_CHARS) return false;
  }
  return true;
}

function closing(stack: readonly Token[]): string {
  return stack
    .map((t) => `</${t.open!}>`)
    .reverse()
    .join("");
}

/** The next part starts after whitespace, except inside a code block, where it is the code's indentation. */
function skipSpace(tokens: readonly Token[], index: number, stack: readonly Token[]): number {
  if (stack.some((t) => t.open === "pre" || t.open === "code")) return index;
  let i = index;
  while (i < tokens.length && tokens[i]!.space === true) i++;
  return i;
}
