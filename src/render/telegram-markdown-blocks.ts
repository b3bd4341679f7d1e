// markdown-it's block tokens -> Telegram HTML: headings become bold, lists get bullets (task
// items ☐/☑), quotes flatten to one level (Telegram cannot nest them, nor put code inside) and
// a GitHub alert's marker becomes its heading, tables become aligned monospace blocks (or, too
// wide for a phone, records). One loop over the flat token stream, no recursion.

import type { Token } from "markdown-it";
import { escapeHtml, renderInline } from "./telegram-markdown-inline.js";
import { TableText } from "./telegram-markdown-table.js";

const BULLETS = ["•", "◦", "▪"];
const RULE = "──────────";
/** A code block's language as Telegram takes it: the info string's first word, if it looks like one. */
const LANGUAGE = /^[\p{L}\p{N}_+#.-]{1,32}$/u;
const TASK = /^\[([ xX])\][ \t]/;
/** `title="app.py"` and the like in an info string: the file name is what a reader needs. */
const FILE_NAME = /^(?:title|filename|file|name)=(["']?)([^"'\s]+)\1$/;

/** GitHub's alerts: `> [!NOTE]` and its kin open a quote with a heading instead of the marker. */
const ALERT = /^\[!(note|tip|important|warning|caution)\][ \t]*$/i;
const ALERTS = {
  note: "ℹ️ Note",
  tip: "💡 Tip",
  important: "❗ Important",
  warning: "⚠️ Warning",
  caution: "🛑 Caution",
};

type List = { ordered: boolean; next: number; markup: string };
type Item = { marker: string; depth: number; started: boolean };

/** Renders block tokens from parseMarkdown as one Telegram HTML string. */
export function renderBlocks(tokens: readonly Token[]): string {
  const out = new BlockWriter();
  const lists: List[] = [];
  const items: Item[] = [];
  let table: TableText | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    switch (token.type) {
      case "paragraph_open":
      case "heading_open": {
        const inline = tokens[i + 1];
        const children = inline?.children ?? [];
        const heading = token.type === "heading_open";
        if (!heading && items.length > 0 && !items.at(-1)!.started) markTask(children, items.at(-1)!);
        const alert = tokens[i - 1]?.type === "blockquote_open" && !heading ? takeAlert(children) : undefined;
        const html = renderInline(children, { bold: heading });
        if (alert !== undefined) out.block(html === "" ? alert : `${alert}\n${html}`, "text", items);
        else out.block(heading && html.trim() !== "" ? `<b>${html}</b>` : html, "text", items);
        i += 2;
        break;
      }
      case "fence":
      case "code_block":
        out.block(renderCode(token), "code", items);
        break;
      case "hr":
        out.block(RULE, "text", items);
        break;
      case "blockquote_open":
        out.quoteDepth++;
        break;
      case "blockquote_close":
        out.quoteDepth--;
        break;
      case "bullet_list_open":
      case "ordered_list_open":
        if (lists.length === 0) out.startList();
        lists.push({
          ordered: token.type === "ordered_list_open",
          next: Number(token.attrGet("start") ?? "1"),
          markup: token.markup,
        });
        break;
      case "bullet_list_close":
      case "ordered_list_close":
        lists.pop();
        break;
      case "list_item_open": {
        const list = lists.at(-1)!;
        const depth = lists.length - 1;
        const marker = list.ordered ? `${list.next++}${list.markup}` : BULLETS[Math.min(depth, BULLETS.length - 1)]!;
        items.push({ marker, depth, started: false });
        break;
      }
      case "list_item_close": {
        const item = items.pop()!;
        if (!item.started) out.block("", "text", [...items, item]);
        break;
      }
      case "table_open":
        table = new TableText();
        break;
      case "tr_open":
        table?.row();
        break;
      case "th_open":
      case "td_open":
        table?.cell(String(token.attrGet("style") ?? ""));
        break;
      case "thead_close":
        table?.endHead();
        break;
      case "inline":
        table?.text(token.children ?? []);
        break;
      case "table_close": {
        const rendered = table?.render();
        if (rendered !== undefined) out.block(rendered.html, rendered.kind, items);
        table = undefined;
        break;
      }
      default:
        break;
    }
  }
  return out.finish();
}

/**
 * Accumulates blocks: a blank line between blocks, one newline between the blocks of a list,
 * list markers before an item's first block, and quote tags around quoted text blocks.
 */
class BlockWriter {
  quoteDepth = 0;
  #html = "";
  #quoteOpen = false;
  #previousInList = false;

  block(html: string, kind: "text" | "code", items: readonly Item[]): void {
    // An item whose first block is a list ("- - x") shows both markers on one line.
    const fresh = items.filter((item) => !item.started);
    const marker =
      fresh.length === 0 ? undefined : "  ".repeat(fresh[0]!.depth) + fresh.map((item) => item.marker).join(" ");
    for (const item of fresh) item.started = true;
    if (html === "" && marker === undefined) return;
    // An item's lines after its marker line sit under it, as its nested lists do.
    const owner = items.at(-1);
    if (owner !== undefined && kind === "text")
      html = indentLines(html, "  ".repeat(owner.depth + 1), marker === undefined);
    const inList = items.length > 0;
    const quoted = this.quoteDepth > 0 && kind === "text";
    if (this.#quoteOpen && !quoted) this.#closeQuote();
    if (this.#html !== "") this.#html += inList && this.#previousInList ? "\n" : "\n\n";
    if (quoted && !this.#quoteOpen) {
      this.#html += "<blockquote>";
      this.#quoteOpen = true;
    }
    if (marker !== undefined) this.#html += kind === "code" ? `${marker}\n` : html === "" ? marker : `${marker} `;
    this.#html += html;
    this.#previousInList = inList;
    if (this.quoteDepth === 0 && this.#quoteOpen) this.#closeQuote();
  }

  /** A new list after another one is a new block: a blank line between them. */
  startList(): void {
    this.#previousInList = false;
  }

  finish(): string {
    if (this.#quoteOpen) this.#closeQuote();
    return this.#html;
  }

  #closeQuote(): void {
    this.#html += "</blockquote>";
    this.#quoteOpen = false;
  }
}

/** Each line after the first (and the first too, when `first`) begins with `indent`; blank lines stay blank. */
function indentLines(html: string, indent: string, first: boolean): string {
  const rest = html.replace(/\n(?=[^\n])/g, `\n${indent}`);
  return first && html !== "" ? indent + rest : rest;
}

/** A task list item (`- [ ] todo`): its box replaces the bullet, or follows the number. */
function markTask(children: Token[], item: Item): void {
  const first = children[0];
  const task = first?.type === "text" ? TASK.exec(first.content) : null;
  if (first === undefined || task === null) return;
  const box = task[1] === " " ? "☐" : "☑";
  first.content = first.content.slice(task[0].length);
  item.marker = /^\d/.test(item.marker) ? `${item.marker} ${box}` : box;
}

/**
 * A GitHub alert's marker (`> [!WARNING]` alone on a quote's first line), taken out of the
 * quote's first paragraph and returned as the heading a reader sees instead ("⚠️ Warning").
 */
function takeAlert(children: Token[]): string | undefined {
  const first = children[0];
  const kind = first?.type === "text" ? ALERT.exec(first.content)?.[1]?.toLowerCase() : undefined;
  const next = children[1];
  if (kind === undefined || (next !== undefined && !next.type.endsWith("break"))) return undefined;
  children.splice(0, 2);
  return `<b>${ALERTS[kind as keyof typeof ALERTS]}</b>`;
}

/**
 * A code block; the info string's first word is the language when it looks like one, and the
 * rest (```python title="app.py"```, ```js {1,3}```) is shown above the code, not lost.
 */
function renderCode(token: Token): string {
  const text = token.content.replace(/\n$/, "");
  // An empty fence (often one the model never finished) shows as typed.
  if (text.trim() === "") return token.type === "fence" ? escapeHtml(`${token.markup}${token.info}`.trim()) : "";
  const info = token.info.trim();
  const [first = ""] = info.split(/\s/, 1);
  const language = LANGUAGE.test(first) ? first : undefined;
  const rest = (language === undefined ? info : info.slice(first.length)).trim();
  const named = FILE_NAME.exec(rest);
  const caption = rest === "" ? "" : `<i>${escapeHtml(named?.[2] ?? rest)}</i>\n`;
  return language === undefined
    ? `${caption}<pre>${escapeHtml(text)}</pre>`
    : `${caption}<pre><code class="language-${escapeHtml(language)}">${escapeHtml(text)}</code></pre>`;
}
