// markdown-it's inline tokens (one block's `children`) -> Telegram HTML, or -> plain text for
// places that allow no formatting (table cells). Flat: one pass, no recursion, so no input can
// overflow the stack. Tags are emitted in matched pairs and only where Telegram allows them.

import type { Token } from "markdown-it";

/** Where an inline run sits: tags already open around it are not opened again. */
export type InlineContext = { bold?: boolean };

const MAX_HREF_LENGTH = 512;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

type OpenLink = { href: string; linkable: boolean; plain: boolean; startLength: number };

/** Renders inline tokens as Telegram HTML (newlines kept). */
export function renderInline(tokens: readonly Token[], context: InlineContext = {}): string {
  let html = "";
  const depth = { b: context.bold ? 1 : 0, i: 0, s: 0 };
  const links: OpenLink[] = [];
  const tag = (name: "b" | "i" | "s", opening: boolean): void => {
    if (opening && depth[name]++ === 0) html += `<${name}>`;
    else if (!opening && --depth[name] === 0) html += `</${name}>`;
  };
  for (const token of tokens) {
    switch (token.type) {
      case "text":
        html += escapeHtml(token.content);
        break;
      case "code_inline":
        // Telegram allows no entity but formatting inside a link, so code there is plain text.
        html += links.some((link) => link.linkable)
          ? escapeHtml(token.content)
          : `<code>${escapeHtml(token.content)}</code>`;
        break;
      case "softbreak":
      case "hardbreak":
        html += "\n";
        break;
      case "strong_open":
      case "strong_close":
        tag("b", token.nesting === 1);
        break;
      case "em_open":
      case "em_close":
        tag("i", token.nesting === 1);
        break;
      case "s_open":
      case "s_close":
        tag("s", token.nesting === 1);
        break;
      case "link_open":
        links.push(openLink(token, links.length > 0, html.length));
        if (links.at(-1)!.linkable) html += `<a href="${escapeAttribute(links.at(-1)!.href)}">`;
        break;
      case "link_close":
        html = closeLink(html, links.pop());
        break;
      case "image": {
        // An image reads as its alt text, linked to the picture.
        const link = openLink(token, links.length > 0, html.length);
        if (link.linkable) html += `<a href="${escapeAttribute(link.href)}">`;
        html += escapeHtml(altText(token));
        html = closeLink(html, link);
        break;
      }
      default:
        html += escapeHtml(token.content);
    }
  }
  return html;
}

/** Inline tokens as the text a person would read, without any formatting (for monospace tables). */
export function renderInlinePlain(tokens: readonly Token[]): string {
  let text = "";
  const links: { href: string; start: number }[] = [];
  for (const token of tokens) {
    if (token.type === "softbreak" || token.type === "hardbreak") text += " ";
    else if (token.type === "link_open") links.push({ href: hrefOf(token), start: text.length });
    else if (token.type === "link_close" || token.type === "image") {
      const alt = token.type === "image" ? altText(token) : "";
      text += alt;
      const link = token.type === "image" ? { href: hrefOf(token), start: text.length - alt.length } : links.pop();
      if (link !== undefined && token.markup !== "linkify" && token.markup !== "autolink") {
        text = withTarget(text, link.start, link.href);
      }
    } else text += token.content;
  }
  return text;
}

/**
 * An image's alt text as plain text: the words of its label, without syntax; a link or an image
 * in it reads as one outside does in plain text (withTarget): its target after its label, or
 * instead of a blank one, so the alt loses nothing the model wrote.
 */
function altText(image: Token): string {
  let text = "";
  const links: { href: string; start: number; bare: boolean }[] = [];
  for (const next of image.children ?? []) {
    if (next.type === "image") {
      const start = text.length;
      text = withTarget(text + altText(next), start, hrefOf(next));
    } else if (next.type === "softbreak" || next.type === "hardbreak") text += " ";
    else if (next.type === "text" || next.type === "code_inline") text += next.content;
    else if (next.type === "link_open")
      links.push({
        href: hrefOf(next),
        start: text.length,
        bare: next.markup === "linkify" || next.markup === "autolink",
      });
    else if (next.type === "link_close") {
      const link = links.pop();
      if (link !== undefined && !link.bare) text = withTarget(text, link.start, link.href);
    }
  }
  return text;
}

function hrefOf(token: Token): string {
  return String(token.attrGet(token.type === "image" ? "src" : "href") ?? "");
}

function openLink(token: Token, insideLink: boolean, startLength: number): OpenLink {
  const href = hrefOf(token);
  // Autolinks and bare URLs stay as typed: Telegram links them by itself.
  const plain = token.markup === "autolink" || token.markup === "linkify";
  return { href, linkable: !plain && !insideLink && isLinkable(href), plain, startLength };
}

/**
 * Closes a link: a blank label shows the URL instead; a target Telegram cannot open follows the
 * label, unless the label says it already (`[src/a.ts](src/a.ts)`).
 */
function closeLink(html: string, link: OpenLink | undefined): string {
  if (link === undefined || link.plain) return html;
  const label = html.slice(link.startLength).replace(/<[^>]*>/g, "");
  // A blank label shows the URL itself, which Telegram links by itself.
  if (link.linkable)
    return label.trim() === "" ? html.slice(0, link.startLength) + escapeHtml(link.href) : `${html}</a>`;
  if (link.href === "") return html;
  const shown = escapeHtml(asTyped(link.href));
  if (label.trim() === "") return html.slice(0, link.startLength) + shown;
  return namesTarget(label, shown) ? html : `${html} (${shown})`;
}

function withTarget(text: string, start: number, href: string): string {
  if (href === "") return text;
  const label = text.slice(start);
  if (label.trim() === "") return text.slice(0, start) + asTyped(href);
  return namesTarget(label, asTyped(href)) ? text : `${text} (${asTyped(href)})`;
}

/** A label that is its target, give or take a leading `./`, needs no "(target)" after it. */
function namesTarget(label: string, target: string): boolean {
  const bare = (s: string) => s.trim().replace(/^\.\//, "");
  return bare(label) === bare(target);
}

/**
 * A link target shown as text reads as typed, not percent-encoded as markdown-it stores it; a
 * control character cannot have been typed there, so its escape (`%0A`) stays as it was.
 */
function asTyped(href: string): string {
  try {
    return decodeURI(href).replace(/\p{Cc}/gu, (c) => encodeURIComponent(c));
  } catch {
    return href;
  }
}

/**
 * Telegram opens these; relative paths (Claude links files) stay readable text instead, and
 * so do very long URLs (a tag that size would crowd a message part).
 */
function isLinkable(url: string): boolean {
  return url.length <= MAX_HREF_LENGTH && /^(?:https?:\/\/[^\s/?#]+|tg:\/\/|mailto:[^\s@]+@)/i.test(url);
}
