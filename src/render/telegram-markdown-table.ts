// A Markdown table for Telegram, filled cell by cell from markdown-it's tokens. One that fits a
// phone's width is monospace text for a <pre> block: columns padded to one width, aligned as the
// delimiter row says (`---:` right, `:---:` centred), a rule under the header, as psql prints
// one. A wider one would wrap into a jumble there, so each row becomes a short record instead:
// its first cell in bold, then one "Header: cell" line per other cell, formatting kept (a table
// of two columns, one "first — second" line per row).

import type { Token } from "markdown-it";
import { escapeHtml, renderInline, renderInlinePlain } from "./telegram-markdown-inline.js";

export type CellAlign = "left" | "right" | "center";

/**
 * Monospace characters a phone shows on one line of a code block in portrait (about 40 on a
 * 6-inch screen); a table wider than this is shown as records.
 */
const PHONE_COLUMNS = 40;

type Cell = { plain: string; tokens: readonly Token[] };

export class TableText {
  readonly #rows: Cell[][] = [];
  /** Each column's alignment, from its header cell. */
  readonly #aligns: CellAlign[] = [];
  #headRows = 0;
  #align: CellAlign = "left";

  row(): void {
    this.#rows.push([]);
  }

  /** A new cell starts (th_open, td_open), aligned as its `style` attribute says. */
  cell(style: string): void {
    this.#align = style.includes("right") ? "right" : style.includes("center") ? "center" : "left";
  }

  /** The current cell's inline tokens. */
  text(tokens: readonly Token[]): void {
    const row = this.#rows.at(-1);
    if (row === undefined) return;
    this.#aligns[row.length] ??= this.#align;
    row.push({ plain: renderInlinePlain(tokens).trim(), tokens });
  }

  /** The header rows end here (thead_close): the rule goes under them. */
  endHead(): void {
    this.#headRows = this.#rows.length;
  }

  /** The table as Telegram HTML: a <pre> block (`code`) when it fits a phone, else records (`text`). */
  render(): { html: string; kind: "code" | "text" } {
    const text = this.#monospace();
    const fits = text.split("\n").every((line) => length(line) <= PHONE_COLUMNS);
    return fits || this.#rows.length <= this.#headRows
      ? { html: `<pre>${escapeHtml(text)}</pre>`, kind: "code" }
      : { html: this.#records(), kind: "text" };
  }

  #monospace(): string {
    const rows = this.#rows.map((row) => row.map((cell) => cell.plain));
    const columns = rows.reduce((max, row) => Math.max(max, row.length), 0);
    const widths = Array.from({ length: columns }, (_, c) =>
      rows.reduce((max, row) => Math.max(max, length(row[c])), 0),
    );
    const lines = rows.map((row) =>
      widths
        .map((width, c) => pad(row[c] ?? "", width, this.#aligns[c] ?? "left"))
        .join(" | ")
        .trimEnd(),
    );
    if (this.#headRows > 0 && this.#headRows < rows.length)
      lines.splice(this.#headRows, 0, widths.map((width) => "-".repeat(width)).join("-+-"));
    return lines.join("\n");
  }

  /**
   * Each body row as its first cell in bold and a "Header: cell" line per other cell that has
   * text; a table of two columns as one line per row, "first — second", like a list.
   */
  #records(): string {
    const header = this.#headRows > 0 ? this.#rows[this.#headRows - 1]! : [];
    const pairs = this.#rows.every((row) => row.length <= 2);
    return this.#rows
      .slice(this.#headRows)
      .map((row) => {
        const lines = row.flatMap((cell, c) => {
          // An empty cell, or one a dash marks as empty, has nothing to say on a line of its own.
          if (/^[-–—]*$/.test(cell.plain)) return [];
          if (c === 0) return [`<b>${renderInline(cell.tokens, { bold: true }).trim()}</b>`];
          const label = header[c]?.plain ?? "";
          const html = renderInline(cell.tokens).trim();
          return [label === "" || pairs ? html : `${escapeHtml(label)}: ${html}`];
        });
        return lines.join(pairs ? " — " : "\n");
      })
      .filter((record) => record !== "")
      .join(pairs ? "\n" : "\n\n");
  }
}

/** Characters as a monospace font shows them (code points, not UTF-16 units). */
function length(text: string | undefined): number {
  return text === undefined ? 0 : [...text].length;
}

function pad(text: string, width: number, align: CellAlign): string {
  const space = width - length(text);
  if (align === "right") return " ".repeat(space) + text;
  if (align === "center") return " ".repeat(Math.floor(space / 2)) + text + " ".repeat(Math.ceil(space / 2));
  return text + " ".repeat(space);
}
