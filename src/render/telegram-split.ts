// Splits well-formed Telegram HTML into parts of at most `limit` UTF-16 code units of HTML
// (so of text too), preferring block boundaries, then lines, then spaces; tags open at a cut
// are closed and reopened in the next part. Loses only whitespace at the cuts. Pure.

import { TELEGRAM_TEXT_LIMIT } from "./telegram-html-parse.js";

type Token = { raw: string; open?: string; close?: string };

/** An element open at some point; `dropped` once its tags no longer fit a part (text is kept, formatting not). */
type Open = { token: Token; dropped: boolean };

type Cut = { end: number; pieces: number; stack: Open[] };

const TOKEN = /<\/?([a-z-]+)(?:\s[^>]*)?>|&(?:[a-z]+|#x?[0-9a-f]+);|[\s\S]/giu;

/** Cuts this good or better are taken if they leave the part at least half full. */
const PRIORITIES = [4, 3, 2, 1, 0];

/**
 * Splits `html` (well-formed Telegram HTML, e.g. from markdownToTelegramHtml) into parts of
 * at most `limit` UTF-16 code units each; parts with no visible text are dropped.
 */
export function splitTelegramHtml(html: string, limit: number = TELEGRAM_TEXT_LIMIT): string[] {
  const tokens = tokenize(html);
  const parts: string[] = [];
  let start = skipSpace(tokens, 0);
  let stack: Open[] = [];
  while (start < tokens.length) {
    // Formatting whose tags would take more than half of every part is given up on.
    if (
      stack.reduce((sum, o) => sum + (o.dropped ? 0 : o.token.raw.length + o.token.open!.length + 3), 0) >
      limit / 2
    ) {
      stack = stack.map((o) => ({ ...o, dropped: true }));
    }
    const { part, next, stackAtCut } = nextPart(tokens, start, stack, limit);
    if (hasVisibleText(part)) parts.push(part);
    start = skipSpace(tokens, next);
    stack = stackAtCut;
  }
  return parts;
}

function tokenize(html: string): Token[] {
  const tokens: Token[] = [];
  for (const match of html.matchAll(TOKEN)) {
    const raw = match[0];
    const name = match[1]?.toLowerCase();
    if (name === undefined) tokens.push({ raw });
    else if (raw.startsWith("</")) tokens.push({ raw, close: name });
    else tokens.push({ raw, open: name });
  }
  return tokens;
}

/** The part starting at `start`, where the next one starts, and the elements open there. */
function nextPart(
  tokens: readonly Token[],
  start: number,
  startStack: readonly Open[],
  limit: number,
): { part: string; next: number; stackAtCut: Open[] } {
  const stack = [...startStack];
  const pieces: string[] = stack.filter((o) => !o.dropped).map((o) => o.token.raw);
  let length = pieces.reduce((sum, piece) => sum + piece.length, 0);
  let closeLength = closing(stack).length;
  const best = new Map<number, Cut>();
  let i = start;
  for (; i < tokens.length; i++) {
    const token = tokens[i]!;
    const top = stack[stack.length - 1];
    const raw = token.close !== undefined && top?.dropped === true ? "" : token.raw;
    const nextClose =
      token.open !== undefined
        ? closeLength + token.open.length + 3
        : token.close !== undefined && raw !== ""
          ? closeLength - raw.length
          : closeLength;
    if (length + raw.length + nextClose > limit && i > start) break;
    pieces.push(raw);
    length += raw.length;
    closeLength = nextClose;
    if (token.open !== undefined) stack.push({ token, dropped: false });
    else if (token.close !== undefined) stack.pop();
    const priority = cutPriority(tokens, i + 1, stack);
    if (priority !== undefined) best.set(priority, { end: i + 1, pieces: pieces.length, stack: [...stack] });
  }
  let cut: Cut = { end: i, pieces: pieces.length, stack };
  if (i < tokens.length) {
    const good = PRIORITIES.map((p) => best.get(p)).find(
      (c) => c !== undefined && lengthOf(pieces, c.pieces) >= limit / 2,
    );
    cut = good ?? [...best.values()].sort((a, b) => b.end - a.end)[0] ?? cut;
  }
  let kept = cut.pieces;
  while (kept > 0 && /^\s$/.test(pieces[kept - 1]!)) kept--; // whitespace before a cut is not worth sending
  return { part: pieces.slice(0, kept).join("") + closing(cut.stack), next: cut.end, stackAtCut: cut.stack };
}

function lengthOf(pieces: readonly string[], count: number): number {
  let length = 0;
  for (let i = 0; i < count; i++) length += pieces[i]!.length;
  return length;
}

/** How good a cut before tokens[index] is; undefined where no cut may go (right after an opening tag). */
function cutPriority(tokens: readonly Token[], index: number, stack: readonly Open[]): number | undefined {
  const before = tokens[index - 1]!;
  if (before.open !== undefined) return undefined;
  if (before.raw === "\n") {
    if (stack.length === 0) return tokens[index - 2]?.raw === "\n" ? 4 : 3;
    return stack.every((o) => ["pre", "code", "blockquote"].includes(o.token.open!)) ? 2 : 1;
  }
  if (before.raw === " ") return 1;
  return 0;
}

function closing(stack: readonly Open[]): string {
  return stack
    .filter((o) => !o.dropped)
    .map((o) => `</${o.token.open!}>`)
    .reverse()
    .join("");
}

function skipSpace(tokens: readonly Token[], index: number): number {
  let i = index;
  while (i < tokens.length && /^\s$/.test(tokens[i]!.raw)) i++;
  return i;
}

function hasVisibleText(html: string): boolean {
  return html.replace(/<[^>]*>/g, "").trim() !== "";
}
