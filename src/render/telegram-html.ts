// Markdown as Claude writes it -> Telegram HTML that Telegram always accepts, and the parts
// to send (each within Telegram's limit, split on block boundaries). Headings become bold,
// lists get bullets, tables become monospace blocks. Pure.

import { parseBlocks, type MarkdownBlock } from "./telegram-markdown-blocks.js";
import { escapeHtml, renderInline } from "./telegram-markdown-inline.js";
import { TELEGRAM_TEXT_LIMIT } from "./telegram-html-parse.js";
import { splitTelegramHtml } from "./telegram-split.js";

const BULLETS = ["•", "◦", "▪"];

/** Renders Markdown as one Telegram HTML string (any length; see `markdownToTelegramParts`). */
export function markdownToTelegramHtml(markdown: string): string {
  return renderBlocks(parseBlocks(sanitize(markdown)));
}

/**
 * Renders Markdown as the messages to send: each part's HTML (and so its text) is at most
 * `limit` UTF-16 code units, valid on its own, split between blocks where possible, with
 * code blocks closed and reopened across parts. Empty when there is nothing to show.
 */
export function markdownToTelegramParts(markdown: string, limit: number = TELEGRAM_TEXT_LIMIT): string[] {
  return splitTelegramHtml(markdownToTelegramHtml(markdown), limit);
}

/** Escapes plain text for Telegram HTML (also strips what Telegram cannot carry). */
export function escapeTelegramHtml(text: string): string {
  return escapeHtml(sanitize(text));
}

/** Lone surrogates cannot be encoded as UTF-8, and control characters are noise to Telegram. */
function sanitize(text: string): string {
  let clean = "";
  for (const char of text.replace(/\r\n?/g, "\n")) {
    const code = char.codePointAt(0)!;
    if (code >= 0xd800 && code <= 0xdfff) clean += "\ufffd";
    else if ((code < 0x20 && char !== "\n" && char !== "\t") || code === 0x7f) continue;
    else clean += char;
  }
  return clean;
}

function renderBlocks(blocks: readonly MarkdownBlock[]): string {
  let html = "";
  let previous: MarkdownBlock | undefined;
  for (const block of blocks) {
    const rendered = renderBlock(block);
    if (rendered === "") continue;
    if (previous !== undefined) html += previous.kind === "item" && block.kind === "item" ? "\n" : "\n\n";
    html += rendered;
    previous = block;
  }
  return html;
}

function renderBlock(block: MarkdownBlock): string {
  switch (block.kind) {
    case "paragraph":
      return renderInline(block.text);
    case "heading":
      return block.text.trim() === "" ? "" : `<b>${renderInline(block.text, { bold: true })}</b>`;
    case "code":
      // An empty block (often a fence the model never finished) shows as typed.
      return block.text.trim() === "" ? escapeHtml(block.fence) : renderCode(block.language, block.text);
    case "item":
      return renderItem(block);
    case "quote":
      return renderQuote(block.blocks);
    case "table":
      return renderCode(undefined, alignTable(block.rows));
    case "rule":
      return "──────────";
    default:
      return "";
  }
}

function renderCode(language: string | undefined, text: string): string {
  const body = escapeHtml(text);
  return language === undefined
    ? `<pre>${body}</pre>`
    : `<pre><code class="language-${escapeHtml(language)}">${body}</code></pre>`;
}

function renderItem(item: Extract<MarkdownBlock, { kind: "item" }>): string {
  const indent = "  ".repeat(item.depth);
  const marker = /^\d/.test(item.marker) ? item.marker : BULLETS[Math.min(item.depth, BULLETS.length - 1)]!;
  return `${indent}${marker} ${renderInline(item.text)}`;
}

/** Telegram allows no code block inside a quote here, so code blocks step outside it. */
function renderQuote(blocks: readonly MarkdownBlock[]): string {
  const segments: string[] = [];
  let quoted: MarkdownBlock[] = [];
  const flushQuote = (): void => {
    const inner = renderBlocks(quoted);
    if (inner !== "") segments.push(`<blockquote>${inner}</blockquote>`);
    quoted = [];
  };
  for (const block of blocks) {
    if (block.kind === "code" || block.kind === "table") {
      flushQuote();
      segments.push(renderBlock(block));
    } else quoted.push(block);
  }
  flushQuote();
  return segments.join("\n\n");
}

function alignTable(rows: readonly string[][]): string {
  const columns = Math.max(...rows.map((row) => row.length));
  const widths = Array.from({ length: columns }, (_, c) => Math.max(...rows.map((row) => [...(row[c] ?? "")].length)));
  return rows
    .map((row) =>
      widths
        .map((width, c) => {
          const cell = row[c] ?? "";
          return cell + " ".repeat(width - [...cell].length);
        })
        .join(" | ")
        .trimEnd(),
    )
    .join("\n");
}
