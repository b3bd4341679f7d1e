// What a person reads, as one comparable string: the visible text (whitespace runs collapsed)
// with its formatting as markers. Built two ways: from our Telegram HTML (through the fake Bot
// API's own parser) and from a spec example's expected HTML, mapped to Telegram's subset by
// the renderer's documented conventions (docs/markdown.md). Equal strings: the reader sees
// what the spec means.

import { parseTelegramHtml } from "../../../src/render/index.js";

type Run = { text: string; formats: ReadonlySet<string> };

const RULE = "──────────";

/** The reader view of Telegram HTML; undefined if Telegram would reject it. */
export function readerViewOfTelegramHtml(html: string): string | undefined {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) return undefined;
  const perChar: Set<string>[] = Array.from({ length: parsed.text.length }, () => new Set<string>());
  for (const e of parsed.entities) {
    const key =
      e.type === "text_link"
        ? plainLink(parsed.text.slice(e.offset, e.offset + e.length), e.url!)
          ? undefined
          : `a:${normalUrl(e.url!)}`
        : e.type === "pre"
          ? `pre:${e.language ?? ""}`
          : e.type === "expandable_blockquote"
            ? "blockquote"
            : e.type;
    if (key === undefined) continue;
    for (let i = e.offset; i < e.offset + e.length; i++) perChar[i]!.add(key);
  }
  const runs: Run[] = [];
  for (let i = 0; i < parsed.text.length; i++) runs.push({ text: parsed.text[i]!, formats: perChar[i]! });
  return serialize(runs);
}

/**
 * The reader view a spec example's HTML asks for in Telegram; undefined when the example's
 * output passes raw HTML through (Telegram shows raw HTML as typed: no spec expectation).
 */
export function readerViewOfSpecHtml(html: string, markdown: string): string | undefined {
  const source = markdown.toLowerCase();
  for (const tag of html.matchAll(/<[^>]*>|<(?![^>]*>)/g)) if (source.includes(tag[0].toLowerCase())) return undefined;
  const runs: Run[] = [];
  const active = new Map<string, number>();
  const formats = (): Set<string> => new Set([...active.keys()].filter((k) => active.get(k)! > 0));
  const push = (text: string): void => {
    if (text === "") return;
    const set = formats();
    if (set.has("table")) return; // table text is collected per cell
    if (set.has("pre")) {
      // Nothing formats inside a code block, and a code block steps out of a quote.
      runs.push({ text, formats: new Set([`pre:${preLanguage}`]) });
      return;
    }
    if ([...set].some((k) => k.startsWith("a:"))) set.delete("code");
    set.delete("link");
    runs.push({ text, formats: set });
  };
  const on = (key: string, delta: number): void => {
    active.set(key, (active.get(key) ?? 0) + delta);
  };
  const lists: { ordered: boolean; next: number }[] = [];
  const links: { url: string; linkable: boolean; key: string; start: number }[] = [];
  let pendingItem: { ordered: boolean; number: number } | undefined;
  let table: { rows: string[][]; cell: string | undefined; headRows: number } | undefined;
  let preLanguage = "";
  const flushItem = (task: string | undefined): void => {
    if (pendingItem === undefined) return;
    const marker = pendingItem.ordered ? `${pendingItem.number}.` : "•";
    push(
      "\n" +
        (task !== undefined && !pendingItem.ordered ? task : marker + (task === undefined ? "" : ` ${task}`)) +
        " ",
    );
    pendingItem = undefined;
  };
  for (const m of html.matchAll(/<(\/?)([a-z][a-z0-9]*)((?:\s[^>]*)?)\/?>|([^<]+)/g)) {
    if (m[4] !== undefined) {
      const text = decode(m[4]);
      if (table?.cell !== undefined) table.cell += text;
      else if (text.trim() !== "" || pendingItem === undefined) {
        if (text.trim() !== "") flushItem(undefined);
        push(text);
      }
      continue;
    }
    const closing = m[1] === "/";
    const tag = m[2]!;
    const attrs = m[3] ?? "";
    const attr = (name: string): string | undefined => {
      const found = new RegExp(`\\s${name}="([^"]*)"`).exec(attrs);
      return found === null ? undefined : decode(found[1]!);
    };
    switch (tag) {
      case "p":
        if (!closing) flushItem(undefined);
        push("\n\n");
        break;
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
        if (!closing) flushItem(undefined);
        push("\n\n");
        on("bold", closing ? -1 : 1);
        break;
      case "em":
        on("italic", closing ? -1 : 1);
        break;
      case "strong":
        on("bold", closing ? -1 : 1);
        break;
      case "del":
      case "s":
        on("strikethrough", closing ? -1 : 1);
        break;
      case "code":
        if ((active.get("pre") ?? 0) > 0) {
          if (!closing) preLanguage = /class="language-([^"\s]+)/.exec(attrs)?.[1] ?? "";
        } else on("code", closing ? -1 : 1);
        break;
      case "pre":
        if (!closing) flushItem(undefined);
        push("\n");
        on("pre", closing ? -1 : 1);
        if (!closing) preLanguage = "";
        break;
      case "blockquote":
        if (!closing) flushItem(undefined);
        push("\n");
        on("blockquote", closing ? -1 : 1);
        break;
      case "ul":
      case "ol":
        if (closing) lists.pop();
        else lists.push({ ordered: tag === "ol", next: Number(attr("start") ?? "1") });
        push("\n");
        break;
      case "li":
        if (closing) flushItem(undefined);
        else {
          if (pendingItem !== undefined) push(pendingItem.ordered ? `\n${pendingItem.number}. ` : "\n• ");
          const list = lists[lists.length - 1]!;
          pendingItem = { ordered: list.ordered, number: list.next++ };
        }
        break;
      case "input":
        flushItem(attrs.includes("checked") ? "☑" : "☐");
        break;
      case "hr":
        flushItem(undefined);
        push(`\n\n${RULE}\n\n`);
        break;
      case "br":
        push("\n");
        break;
      case "a":
      case "img": {
        flushItem(undefined);
        if (closing) {
          const link = links.pop();
          if (link === undefined) return undefined; // raw HTML passed through
          on(link.key, -1);
          const label = runs
            .slice(link.start)
            .map((r) => r.text)
            .join("");
          if (link.url === "") {
            // nothing to show for an empty target
          } else if (plainLink(label, link.url)) {
            for (const run of runs.slice(link.start)) (run.formats as Set<string>).delete(`a:${normalUrl(link.url)}`);
          } else if (label.trim() === "") {
            runs.splice(link.start);
            push(normalUrl(link.url));
          } else if (!link.linkable) push(` (${normalUrl(link.url)})`);
          break;
        }
        const url = attr(tag === "a" ? "href" : "src") ?? "";
        const linkable = isLinkable(url) && links.length === 0;
        const key = linkable ? `a:${normalUrl(url)}` : "link";
        links.push({ url, linkable, key, start: runs.length });
        on(key, 1);
        if (tag === "img") {
          push(attr("alt") ?? "");
          const link = links.pop()!;
          on(link.key, -1);
          if (url === "") break;
          if (!linkable) push(runs.length > link.start ? ` (${normalUrl(url)})` : normalUrl(url));
          else if (runs.length === link.start) push(normalUrl(url));
        }
        break;
      }
      case "table":
        if (closing) {
          const rows = table!.rows.map((row) => row.join(" | "));
          // A rule under the header, as wide as each column (docs/markdown.md).
          const { headRows } = table!;
          if (headRows > 0 && headRows < rows.length) {
            const width = (c: number): number => Math.max(...table!.rows.map((row) => [...(row[c] ?? "")].length));
            const columns = Math.max(...table!.rows.map((row) => row.length));
            rows.splice(headRows, 0, Array.from({ length: columns }, (_, c) => "-".repeat(width(c))).join("-+-"));
          }
          table = undefined;
          on("table", -1);
          on("pre", 1);
          preLanguage = "";
          push(`\n${rows.join("\n")}\n`);
          on("pre", -1);
        } else {
          flushItem(undefined);
          table = { rows: [], cell: undefined, headRows: 0 };
          on("table", 1);
        }
        break;
      case "tr":
        if (!closing) table!.rows.push([]);
        break;
      case "th":
      case "td":
        if (closing) {
          table!.rows[table!.rows.length - 1]!.push(table!.cell!.trim());
          table!.cell = undefined;
        } else table!.cell = "";
        break;
      case "thead":
        if (closing) table!.headRows = table!.rows.length;
        break;
      case "tbody":
        break;
      default:
        return undefined; // raw HTML passed through
    }
  }
  return serialize(runs);
}

function serialize(runs: readonly Run[]): string {
  let text = "";
  let open: string[] = [];
  let pendingSpace = false;
  const normalized = normalizeMarkers(runs);
  for (const run of normalized) {
    if (/^[ \t\r\n]+$/.test(run.text)) {
      pendingSpace = true;
      continue;
    }
    const wanted = [...run.formats].sort();
    const same = wanted.length === open.length && wanted.every((f, i) => f === open[i]);
    if (!same) {
      if (pendingSpace && text !== "") text += " ";
      pendingSpace = false;
      text += `⟦${wanted.join(",")}⟧`;
      open = wanted;
    }
    if (pendingSpace && text !== "") text += " ";
    pendingSpace = false;
    text += run.text;
  }
  return text.replace(/^(?:⟦⟧)?/, "").replace(/⟦⟧$/, "");
}

/** Bullets by depth read the same; "1)" reads as "1."; runs become one character each. */
function normalizeMarkers(runs: readonly Run[]): Run[] {
  const chars: Run[] = [];
  for (const run of runs) for (const ch of run.text) chars.push({ text: ch, formats: run.formats });
  let lineStart = true;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!.text;
    if (ch === "◦" || ch === "▪") chars[i] = { ...chars[i]!, text: "•" };
    if (lineStart && /\d/.test(ch)) {
      let j = i;
      while (j < chars.length && /\d/.test(chars[j]!.text)) j++;
      if (chars[j]?.text === ")") chars[j] = { ...chars[j]!, text: "." };
    }
    if (ch === "\n") lineStart = true;
    else if (ch !== " " && ch !== "\t") lineStart = false;
  }
  return chars;
}

function decode(text: string): string {
  return text.replace(/&(?:#x([0-9a-f]+)|#([0-9]+)|(quot|amp|lt|gt));/gi, (_, hex, dec, named) =>
    hex !== undefined
      ? String.fromCodePoint(parseInt(hex, 16))
      : dec !== undefined
        ? String.fromCodePoint(parseInt(dec, 10))
        : ({ quot: '"', amp: "&", lt: "<", gt: ">" } as Record<string, string>)[named]!,
  );
}

function normalUrl(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

/** A link whose text is its own URL reads as plain text: Telegram links it by itself. */
function plainLink(text: string, url: string): boolean {
  const bare = (s: string): string => normalUrl(s).replace(/^(?:https?:\/\/|mailto:)/i, "");
  return bare(text) === bare(url);
}

/** The renderer's rule: what Telegram opens as a link. */
function isLinkable(url: string): boolean {
  return url.length <= 512 && /^(?:https?:\/\/[^\s/?#]+|tg:\/\/|mailto:[^\s@]+@)/i.test(url);
}
