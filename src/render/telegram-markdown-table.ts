// A Markdown table as monospace text for a <pre> block: columns padded to one width, aligned as
// the table's delimiter row says (`---:` right, `:---:` centred), and a rule under the header,
// as psql prints one. Filled cell by cell from markdown-it's tokens.

export type CellAlign = "left" | "right" | "center";

export class TableText {
  readonly #rows: string[][] = [];
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

  /** The current cell's text. */
  text(text: string): void {
    const row = this.#rows.at(-1);
    if (row === undefined) return;
    this.#aligns[row.length] ??= this.#align;
    row.push(text);
  }

  /** The header rows end here (thead_close): the rule goes under them. */
  endHead(): void {
    this.#headRows = this.#rows.length;
  }

  render(): string {
    const rows = this.#rows;
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
