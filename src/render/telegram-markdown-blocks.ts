// Block-level Markdown as Claude writes it (fences, headings, lists, quotes, tables, rules,
// paragraphs) -> blocks. Never throws: anything unrecognised is a paragraph. Rendering the
// blocks to HTML is telegram-html.ts.

export type MarkdownBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "heading"; text: string }
  /** `fence` is the opening line as written (shown instead when the block is empty). */
  | { kind: "code"; language: string | undefined; text: string; fence: string }
  | { kind: "item"; depth: number; marker: string; text: string }
  | { kind: "quote"; blocks: MarkdownBlock[] }
  | { kind: "table"; rows: string[][] }
  | { kind: "rule" };

/** A fence with at most one word of info (the language); anything else stays text, so nothing is lost. */
const FENCE = /^(\s*)(`{3,}|~{3,})[ \t]*([\w+#.-]{0,32})[ \t]*$/;
const HEADING = /^\s{0,3}(#{1,6})(?:\s+(.*?))?(?:\s+#+)?\s*$/;
const RULE = /^\s{0,3}([-*_])(?:\s*\1){2,}\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const ITEM = /^(\s*)([-*+]|\d{1,9}[.)])(?:\s+(.*)|\s*)$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;
const SETEXT = /^\s{0,3}(=+|-+)\s*$/;

/** Splits Markdown into blocks; `\r\n` and `\r` count as newlines. */
export function parseBlocks(markdown: string): MarkdownBlock[] {
  return parseLines(markdown.replace(/\r\n?/g, "\n").split("\n"), 0);
}

function parseLines(lines: readonly string[], quoteDepth: number): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === "") {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence !== null) {
      i = readFence(lines, i, fence, blocks);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      blocks.push({ kind: "heading", text: heading[2] ?? "" });
      i++;
      continue;
    }
    if (RULE.test(line)) {
      blocks.push({ kind: "rule" });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && QUOTE.test(lines[i]!)) inner.push(QUOTE.exec(lines[i++]!)![1]!);
      // Telegram cannot nest quotes: an inner quote joins the outer one.
      const parsed = parseLines(inner, quoteDepth + 1);
      if (quoteDepth > 0) blocks.push(...parsed);
      else blocks.push({ kind: "quote", blocks: parsed });
      continue;
    }
    const item = ITEM.exec(line);
    if (item !== null) {
      const text = [item[3] ?? ""];
      i++;
      while (i < lines.length && isContinuation(lines[i]!)) text.push(lines[i++]!.trim());
      const indent = item[1]!.replace(/\t/g, "    ").length;
      blocks.push({
        kind: "item",
        depth: Math.min(6, Math.floor(indent / 2)),
        marker: item[2]!,
        text: text.join("\n"),
      });
      continue;
    }
    if (
      line.includes("|") &&
      i + 1 < lines.length &&
      TABLE_SEPARATOR.test(lines[i + 1]!) &&
      lines[i + 1]!.includes("-")
    ) {
      const rows = [cells(line)];
      i += 2;
      while (i < lines.length && lines[i]!.includes("|") && lines[i]!.trim() !== "") rows.push(cells(lines[i++]!));
      blocks.push({ kind: "table", rows });
      continue;
    }
    const paragraph = [line];
    i++;
    while (i < lines.length && isContinuation(lines[i]!)) {
      if (SETEXT.test(lines[i]!)) break;
      paragraph.push(lines[i++]!);
    }
    if (i < lines.length && SETEXT.test(lines[i]!) && lines[i]!.trim() !== "") {
      blocks.push({ kind: "heading", text: paragraph.map((l) => l.trim()).join("\n") });
      i++;
      continue;
    }
    blocks.push({ kind: "paragraph", text: paragraph.map((l) => l.trimEnd()).join("\n") });
  }
  return blocks;
}

function readFence(lines: readonly string[], start: number, fence: RegExpExecArray, blocks: MarkdownBlock[]): number {
  const indent = fence[1]!.length;
  const marker = fence[2]!;
  const language = fence[3] === "" ? undefined : fence[3];
  const body: string[] = [];
  let i = start + 1;
  while (i < lines.length) {
    const close = /^\s*(`{3,}|~{3,})\s*$/.exec(lines[i]!);
    if (close !== null && close[1]![0] === marker[0] && close[1]!.length >= marker.length) {
      i++;
      break;
    }
    // Fences indented in a list item: their content is indented the same way.
    body.push(lines[i]!.replace(new RegExp(`^ {0,${indent}}`), ""));
    i++;
  }
  blocks.push({ kind: "code", language, text: body.join("\n"), fence: lines[start]!.trim() });
  return i;
}

/** A line that continues the paragraph or list item above it (not blank, not a new block). */
function isContinuation(line: string): boolean {
  return (
    line.trim() !== "" &&
    !FENCE.test(line) &&
    !HEADING.test(line) &&
    !RULE.test(line) &&
    !QUOTE.test(line) &&
    !ITEM.test(line)
  );
}

function cells(line: string): string[] {
  let row = line.trim();
  if (row.startsWith("|")) row = row.slice(1);
  if (row.endsWith("|") && !row.endsWith("\\|")) row = row.slice(0, -1);
  return row.split(/(?<!\\)\|/).map((cell) => cell.trim().replace(/\\\|/g, "|"));
}
