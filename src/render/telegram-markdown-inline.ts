// Inline Markdown (as Claude writes it: code spans, links, **bold**, *italic*, ~~strike~~,
// escapes) -> Telegram HTML. Tags are emitted only in matched pairs and only where Telegram
// allows them, so the output always parses. Block structure is telegram-markdown-blocks.ts.

type Inline =
  | { t: "text"; s: string }
  | { t: "code"; s: string }
  | { t: "link"; url: string; kids: Inline[] }
  | { t: "strong" | "em" | "strike"; kids: Inline[] }
  | { t: "delim"; ch: "*" | "_" | "~"; n: number; open: boolean; close: boolean };

/** Where an inline run sits: tags already open around it are not opened again. */
export type InlineContext = { bold?: boolean; italic?: boolean; strike?: boolean };

/** Beyond this many delimiter runs in one block, emphasis is left as typed (keeps parsing linear enough). */
const MAX_DELIMITERS = 1000;

const MAX_HREF_LENGTH = 512;

export function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function escapeAttribute(text: string): string {
  return escapeHtml(text).replace(/"/g, "&quot;");
}

/** Renders one block's inline Markdown (newlines kept) as Telegram HTML. */
export function renderInline(markdown: string, context: InlineContext = {}): string {
  return toHtml(parseInline(markdown, false), { bold: false, italic: false, strike: false, link: false, ...context });
}

function parseInline(src: string, inLink: boolean): Inline[] {
  const items: Inline[] = [];
  let text = "";
  const flush = (): void => {
    if (text !== "") items.push({ t: "text", s: text });
    text = "";
  };
  let i = 0;
  while (i < src.length) {
    const ch = src[i]!;
    if (ch === "\\" && i + 1 < src.length && /[!-/:-@[-`{-~]/.test(src[i + 1]!)) {
      text += src[i + 1]!;
      i += 2;
    } else if (ch === "`") {
      const run = /^`+/.exec(src.slice(i))![0];
      const close = findClosingBackticks(src, i + run.length, run.length);
      if (close < 0) {
        text += run;
        i += run.length;
        continue;
      }
      flush();
      let code = src.slice(i + run.length, close).replace(/\n/g, " ");
      if (code.length > 2 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") code = code.slice(1, -1);
      items.push({ t: "code", s: code });
      i = close + run.length;
    } else if ((ch === "[" || (ch === "!" && src[i + 1] === "[")) && !inLink) {
      const link = parseLink(src, ch === "!" ? i + 1 : i);
      if (link === undefined) {
        text += ch;
        i++;
        continue;
      }
      flush();
      const kids = parseInline(link.label, true);
      // An image keeps its alt text as the link; an empty label shows the URL itself.
      items.push(link.label.trim() === "" ? { t: "text", s: link.url } : { t: "link", url: link.url, kids });
      i = link.end;
    } else if (ch === "<") {
      const auto = /^<((?:https?|mailto):[^\s<>]+)>/i.exec(src.slice(i));
      // Telegram links bare URLs itself; the angle brackets are Markdown syntax only.
      text += auto === null ? "<" : auto[1]!;
      i += auto === null ? 1 : auto[0].length;
    } else if (ch === "*" || ch === "_" || ch === "~") {
      const run = (ch === "*" ? /^\*+/ : ch === "_" ? /^_+/ : /^~+/).exec(src.slice(i))![0];
      const delim = delimiter(ch, run.length, src[i - 1], src[i + run.length]);
      if (delim === undefined) text += run;
      else {
        flush();
        items.push(delim);
      }
      i += run.length;
    } else {
      text += ch;
      i++;
    }
  }
  flush();
  return resolveEmphasis(items);
}

function findClosingBackticks(src: string, from: number, length: number): number {
  const re = /`+/g;
  re.lastIndex = from;
  for (let match = re.exec(src); match !== null; match = re.exec(src)) {
    if (match[0].length === length) return match.index;
  }
  return -1;
}

/** `[label](url)` starting at `start` (the "["), or undefined when it is not a link. */
function parseLink(src: string, start: number): { label: string; url: string; end: number } | undefined {
  let depth = 0;
  let close = -1;
  for (let j = start; j < src.length; j++) {
    const c = src[j];
    if (c === "\\") j++;
    else if (c === "`") {
      const run = /^`+/.exec(src.slice(j))![0];
      const end = findClosingBackticks(src, j + run.length, run.length);
      j = end < 0 ? j + run.length - 1 : end + run.length - 1;
    } else if (c === "[") depth++;
    else if (c === "]" && --depth === 0) {
      close = j;
      break;
    }
  }
  if (close < 0 || src[close + 1] !== "(") return undefined;
  // No link titles: Telegram has nowhere to show them, and dropping them would lose text.
  const target = /^\(\s*(<[^<>\n]*>|[^\s()<>]*(?:\([^\s()<>]*\)[^\s()<>]*)*)\s*\)/.exec(src.slice(close + 1));
  if (target === null) return undefined;
  const raw = target[1]!;
  const url = raw.startsWith("<") ? raw.slice(1, -1) : raw;
  if (url === "") return undefined;
  return { label: src.slice(start + 1, close), url, end: close + 1 + target[0].length };
}

function delimiter(
  ch: "*" | "_" | "~",
  n: number,
  before: string | undefined,
  after: string | undefined,
): Inline | undefined {
  if (ch === "~" && n !== 2) return undefined; // "~5 min" is not strikethrough
  const b = before ?? " ";
  const a = after ?? " ";
  const left = !isSpace(a) && (!isPunct(a) || isSpace(b) || isPunct(b));
  const right = !isSpace(b) && (!isPunct(b) || isSpace(a) || isPunct(a));
  const open = ch === "_" ? left && (!right || isPunct(b)) : left;
  const close = ch === "_" ? right && (!left || isPunct(a)) : right;
  if (!open && !close) return undefined;
  return { t: "delim", ch, n, open, close };
}

function isSpace(c: string): boolean {
  return /\s/u.test(c);
}

function isPunct(c: string): boolean {
  return /[\p{P}\p{S}]/u.test(c);
}

/** CommonMark's delimiter matching, simplified: the nearest compatible opener wins. */
function resolveEmphasis(items: Inline[]): Inline[] {
  if (items.filter((item) => item.t === "delim").length > MAX_DELIMITERS) return items.map(literal);
  let closer = 0;
  while (closer < items.length) {
    const c = items[closer]!;
    if (c.t !== "delim" || !c.close) {
      closer++;
      continue;
    }
    let opener = closer - 1;
    while (opener >= 0) {
      const o = items[opener]!;
      if (o.t === "delim" && o.ch === c.ch && o.open && (c.ch !== "~" || o.n === c.n)) break;
      opener--;
    }
    if (opener < 0) {
      closer++;
      continue;
    }
    const o = items[opener] as Extract<Inline, { t: "delim" }>;
    const use = c.ch === "~" ? 2 : o.n >= 2 && c.n >= 2 ? 2 : 1;
    const kind = c.ch === "~" ? "strike" : use === 2 ? "strong" : "em";
    const node: Inline = { t: kind, kids: items.slice(opener + 1, closer).map(literal) };
    o.n -= use;
    c.n -= use;
    const replaced: Inline[] = [...(o.n > 0 ? [o] : []), node, ...(c.n > 0 ? [c] : [])];
    items.splice(opener, closer - opener + 1, ...replaced);
    closer = opener + (o.n > 0 ? 1 : 0) + 1; // the closer again, if it has delimiters left
  }
  return items.map(literal);
}

function literal(item: Inline): Inline {
  return item.t === "delim" ? { t: "text", s: item.ch.repeat(item.n) } : item;
}

type RenderContext = { bold: boolean; italic: boolean; strike: boolean; link: boolean };

function toHtml(items: readonly Inline[], ctx: RenderContext): string {
  let html = "";
  for (const item of items) {
    switch (item.t) {
      case "text":
        html += escapeHtml(item.s);
        break;
      case "delim":
        html += item.ch.repeat(item.n);
        break;
      case "code":
        // Telegram allows no entity inside a link but formatting, so code in a link is plain text.
        html += ctx.link ? escapeHtml(item.s) : `<code>${escapeHtml(item.s)}</code>`;
        break;
      case "link": {
        const inner = toHtml(item.kids, { ...ctx, link: true });
        html += isLinkable(item.url)
          ? `<a href="${escapeAttribute(item.url)}">${inner}</a>`
          : `${inner} (${escapeHtml(item.url)})`;
        break;
      }
      case "strong":
        html += wrap("b", ctx.bold, toHtml(item.kids, { ...ctx, bold: true }));
        break;
      case "em":
        html += wrap("i", ctx.italic, toHtml(item.kids, { ...ctx, italic: true }));
        break;
      case "strike":
        html += wrap("s", ctx.strike, toHtml(item.kids, { ...ctx, strike: true }));
        break;
      default:
        break;
    }
  }
  return html;
}

function wrap(tag: string, alreadyOpen: boolean, inner: string): string {
  return alreadyOpen || inner === "" ? inner : `<${tag}>${inner}</${tag}>`;
}

/**
 * Telegram opens these; relative paths (Claude links files) stay readable text instead, and
 * so do very long URLs (a tag that size would crowd a message part).
 */
function isLinkable(url: string): boolean {
  return url.length <= MAX_HREF_LENGTH && /^(?:https?:\/\/[^\s/?#]+|tg:\/\/|mailto:[^\s@]+@)/i.test(url);
}
