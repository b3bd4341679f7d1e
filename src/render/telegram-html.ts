// Markdown as Claude writes it -> Telegram HTML that Telegram always accepts, and the parts
// to send (each within Telegram's limit). Never throws: whatever goes wrong, the answer goes
// out as escaped plain text, and the caller learns why (to log it). Pure.

import { parseMarkdown, MAX_MARKDOWN_NESTING } from "./markdown-parse.js";
import { renderBlocks } from "./telegram-markdown-blocks.js";
import { escapeHtml } from "./telegram-markdown-inline.js";
import { parseTelegramHtml, TELEGRAM_TEXT_LIMIT } from "./telegram-html-parse.js";
import { splitTelegramHtml } from "./telegram-split.js";

/** Why an answer was sent as plain text instead of formatted. */
export type RenderFallback = {
  code: "render.too_deep" | "render.invalid_html" | "render.failed";
  detail: string;
};

export type TelegramMarkdown = {
  html: string;
  /** Set when the Markdown could not be rendered and `html` is the escaped text as typed. */
  fallback?: RenderFallback;
};

/**
 * Renders Markdown as Telegram HTML, or, when that fails for any reason (nesting too deep to
 * parse, a renderer bug, HTML Telegram would refuse), the text as typed, escaped. Never throws.
 */
export function renderTelegramMarkdown(markdown: string): TelegramMarkdown {
  const clean = sanitize(markdown);
  try {
    const parsed = parseMarkdown(clean);
    if (parsed.tooDeep) {
      return asPlainText(clean, { code: "render.too_deep", detail: `containers nested ${MAX_MARKDOWN_NESTING} deep` });
    }
    const html = renderBlocks(parsed.tokens);
    const check = parseTelegramHtml(html);
    if (!check.ok) return asPlainText(clean, { code: "render.invalid_html", detail: check.error });
    return { html };
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return asPlainText(clean, { code: "render.failed", detail });
  }
}

/** Renders Markdown as one Telegram HTML string (any length); plain text if it cannot be rendered. */
export function markdownToTelegramHtml(markdown: string): string {
  return renderTelegramMarkdown(markdown).html;
}

/**
 * Renders Markdown as the messages to send: each part's text at most `limit` UTF-16 code
 * units, valid on its own (see splitTelegramHtml). Empty when there is nothing to show.
 */
export function markdownToTelegramParts(markdown: string, limit: number = TELEGRAM_TEXT_LIMIT): string[] {
  return splitTelegramHtml(markdownToTelegramHtml(markdown), limit);
}

/** Escapes plain text for Telegram HTML (also strips what Telegram cannot carry). */
export function escapeTelegramHtml(text: string): string {
  return escapeHtml(sanitize(text));
}

function asPlainText(clean: string, fallback: RenderFallback): TelegramMarkdown {
  return { html: escapeHtml(clean), fallback };
}

/** Lone surrogates cannot be encoded as UTF-8, and control characters are noise to Telegram. */
function sanitize(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[^\P{Cc}\t\n]/gu, "") // control characters but tab and newline
    .replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}
