// Markdown -> Telegram HTML and the splitter: what a person sees, and the invariants that
// keep Telegram from ever refusing an answer (checked with the fake Bot API's own validator).

import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import {
  markdownToTelegramHtml,
  markdownToTelegramParts,
  parseTelegramHtml,
  renderTelegramMarkdown,
  splitTelegramHtml,
  validateTelegramHtml,
  type TelegramEntity,
} from "../../src/render/index.js";
import { parseMarkdown } from "../../src/render/markdown-parse.js";

const markdownUtils = new MarkdownIt().utils;

describe("markdownToTelegramHtml", () => {
  it("renders the Markdown Claude writes", () => {
    const md = [
      "## Plan",
      "",
      "I **changed** `src/app.ts` and *renamed* the __helper__; ~~old~~ code is gone.",
      "See [the docs](https://example.com/a?b=1&c=2) or [app.ts](src/app.ts).",
      "",
      "- first",
      "  - nested",
      "1. one",
      "",
      "> quoted *text*",
      "",
      "```ts",
      "if (a < b && c > d) {}",
      "```",
      "",
      "---",
      "snake_case_name stays, 2 * 3 * 4 too, ~5 min.",
    ].join("\n");
    expect(markdownToTelegramHtml(md)).toBe(
      [
        "<b>Plan</b>",
        "",
        "I <b>changed</b> <code>src/app.ts</code> and <i>renamed</i> the <b>helper</b>; <s>old</s> code is gone.",
        'See <a href="https://example.com/a?b=1&amp;c=2">the docs</a> or app.ts (src/app.ts).',
        "",
        "• first",
        "  ◦ nested",
        "",
        "1. one",
        "",
        "<blockquote>quoted <i>text</i></blockquote>",
        "",
        '<pre><code class="language-ts">if (a &lt; b &amp;&amp; c &gt; d) {}</code></pre>',
        "",
        "──────────",
        "",
        "snake_case_name stays, 2 * 3 * 4 too, ~5 min.",
      ].join("\n"),
    );
  });

  it("indents an item's lines after its marker line under it, as deep as its nested lists, code aside", () => {
    const md = [
      "1. **Parser** (`src/parse.ts`)",
      "   Handles empty input now.",
      "   - Added a guard",
      "     for `null`",
      "",
      "2. **Docs**",
      "",
      "   Updated the README.",
      "",
      "   ```bash",
      "   npm test",
      "   ```",
      "3. Done.",
    ].join("\n");
    expect(markdownToTelegramHtml(md)).toBe(
      [
        "1. <b>Parser</b> (<code>src/parse.ts</code>)",
        "  Handles empty input now.",
        "  ◦ Added a guard",
        "    for <code>null</code>",
        "2. <b>Docs</b>",
        "  Updated the README.",
        '<pre><code class="language-bash">npm test</code></pre>',
        "3. Done.",
      ].join("\n"),
    );
  });

  it("shows an entity reference as what it stands for, and as typed in code", () => {
    expect(markdownToTelegramHtml("&Xi; &eacute; &#65; and `&Xi;`")).toBe("Ξ é A and <code>&amp;Xi;</code>");
  });

  it("shows a link target that is not a web address as typed, an escaped control character included", () => {
    // Found by the letters property: `%0A` was shown decoded, as a line break.
    expect(markdownToTelegramHtml("[](%0A)")).toBe("%0A");
    expect(markdownToTelegramHtml("[notes](docs/my%20notes.md)")).toBe("notes (docs/my notes.md)");
    expect(markdownToTelegramHtml("[x](a%09b)")).toBe("x (a%09b)");
  });

  it("reads an image as its alt text linked to the picture; a link or image in the alt keeps its target", () => {
    // Found by the letters property: the empty link's path was lost, and then an empty image's.
    expect(markdownToTelegramHtml("![[](src/a.ts)](https://x.io/a_b?c=1&d=2)")).toBe(
      '<a href="https://x.io/a_b?c=1&amp;d=2">src/a.ts</a>',
    );
    expect(markdownToTelegramHtml("![![](src/a.ts)](https://x.io/a_b?c=1&d=2)")).toBe(
      '<a href="https://x.io/a_b?c=1&amp;d=2">src/a.ts</a>',
    );
    // As outside, a target follows its words (found the same way: "![[**](https://x.io)](…)").
    expect(markdownToTelegramHtml("![a ![b](c.png) d](https://x.io/i.png)")).toBe(
      '<a href="https://x.io/i.png">a b (c.png) d</a>',
    );
    expect(markdownToTelegramHtml("![see [the docs](https://d.io)](https://x.io/i.png)")).toBe(
      '<a href="https://x.io/i.png">see the docs (https://d.io)</a>',
    );
    expect(markdownToTelegramHtml("![see <https://d.io> or [src/a.ts](src/a.ts)](https://x.io/i.png)")).toBe(
      '<a href="https://x.io/i.png">see https://d.io or src/a.ts</a>',
    );
    // A label of spaces is as empty as none (found the same way), and leaves no space behind.
    expect(markdownToTelegramHtml("![[ ](https://x.io/a_b?c=1&d=2)](src/a.ts)")).toBe(
      "https://x.io/a_b?c=1&amp;d=2 (src/a.ts)",
    );
    expect(markdownToTelegramHtml("See ![ ](src/a.ts) and [ ](docs/b.md).")).toBe("See src/a.ts and docs/b.md.");
  });

  it("names a file link's target once, and keeps code in a link Telegram cannot open as code", () => {
    // Claude Code links the files it changed, often by their own path.
    expect(markdownToTelegramHtml("Added `foo()` to [`src/a.ts`](src/a.ts) and [b.ts](./b.ts).")).toBe(
      "Added <code>foo()</code> to <code>src/a.ts</code> and b.ts.",
    );
    expect(markdownToTelegramHtml("See [app.ts:42](src/app.ts#L42) and [`run`](https://x.io/run).")).toBe(
      'See app.ts:42 (src/app.ts#L42) and <a href="https://x.io/run">run</a>.',
    );
    expect(markdownToTelegramHtml("| f |\n|-|\n| [x.ts](x.ts) |")).toBe("<pre>f\n----\nx.ts</pre>");
  });

  it("escapes HTML the model writes instead of passing it to Telegram", () => {
    const html = markdownToTelegramHtml("Use <details> & <br/> here, and `<b>` in code");
    expect(html).toBe("Use &lt;details&gt; &amp; &lt;br/&gt; here, and <code>&lt;b&gt;</code> in code");
    expect(validateTelegramHtml(html)).toBeUndefined();
  });

  it("shows a table too wide for a phone as records: the first cell in bold, then Header: cell (two columns: a list)", () => {
    const md = [
      "| File | Change | Lines |",
      "|---|---|--:|",
      "| `src/engine/spawn.ts` | Split the spawn logic out of **the process** | 120 |",
      "| README.md | — | 4 |",
    ].join("\n");
    expect(markdownToTelegramHtml(`Changes:\n\n${md}\n\nDone.`)).toBe(
      [
        "Changes:",
        "",
        "<b><code>src/engine/spawn.ts</code></b>",
        "Change: Split the spawn logic out of <b>the process</b>",
        "Lines: 120",
        "",
        "<b>README.md</b>",
        "Lines: 4",
        "",
        "Done.",
      ].join("\n"),
    );
    // In a list item, the records sit under its marker; the blank line between them stays blank.
    const wide =
      "| Option | Pros | Cons |\n|---|---|---|\n| A | simple, and it needs no migration | slow |\n| B | fast | |";
    expect(markdownToTelegramHtml(`- Choices:\n\n  ${wide.replaceAll("\n", "\n  ")}`)).toBe(
      "• Choices:\n  <b>A</b>\n  Pros: simple, and it needs no migration\n  Cons: slow\n\n  <b>B</b>\n  Pros: fast",
    );
    // Two columns read as a list: one "first — second" line per row.
    const pairs =
      "| Command | What it does |\n|---|---|\n| `npm test` | runs every test, once it is built |\n| | a row without a key |";
    expect(markdownToTelegramHtml(pairs)).toBe(
      "<b><code>npm test</code></b> — runs every test, once it is built\na row without a key",
    );
    // As wide as a phone shows (40 characters) is still a table.
    const fits = `| ${"a".repeat(19)} | ${"b".repeat(18)} |\n|---|---|\n| c | d |`;
    expect(markdownToTelegramHtml(fits)).toMatch(/^<pre>/);
    expect(markdownToTelegramHtml(fits.replace("a |", "aa |"))).toBe("<b>c</b> — d");
  });

  it("shows tables as aligned monospace and keeps unclosed emphasis as typed", () => {
    expect(markdownToTelegramHtml("| a | bb |\n|---|---|\n| ccc | d |")).toBe("<pre>a   | bb\n----+---\nccc | d</pre>");
    // Aligned as the delimiter row says: numbers to the right, a centred column in the middle.
    expect(
      markdownToTelegramHtml("| file | lines | ok |\n|---|---:|:---:|\n| a.ts | 120 | yes |\n| b.ts | 3 | no |"),
    ).toBe("<pre>file | lines | ok\n-----+-------+----\na.ts |   120 | yes\nb.ts |     3 | no</pre>");
    expect(markdownToTelegramHtml("**bold never closed and *half")).toBe("**bold never closed and *half");
    expect(markdownToTelegramHtml("***both***")).toBe("<i><b>both</b></i>");
  });

  it("moves a code block out of a quote (Telegram cannot nest them) and flattens nested quotes", () => {
    expect(markdownToTelegramHtml("> a\n> > b\n> ```\n> x\n> ```")).toBe(
      "<blockquote>a\n\nb</blockquote>\n\n<pre>x</pre>",
    );
  });

  it("opens a GitHub alert's quote with its heading instead of the [!KIND] marker", () => {
    expect(markdownToTelegramHtml("> [!WARNING]\n> This deletes the *cache*.")).toBe(
      "<blockquote><b>⚠️ Warning</b>\nThis deletes the <i>cache</i>.</blockquote>",
    );
    expect(markdownToTelegramHtml("> [!tip]\n>\n> Run it twice.")).toBe(
      "<blockquote><b>💡 Tip</b>\n\nRun it twice.</blockquote>",
    );
    // Only a marker alone on a quote's first line is one, as on GitHub.
    expect(markdownToTelegramHtml("> [!NOTE] inline\n\n[!NOTE]\ntext")).toBe(
      "<blockquote>[!NOTE] inline</blockquote>\n\n[!NOTE]\ntext",
    );
  });
});

describe("markdownToTelegramParts", () => {
  it("splits a 6,000-character answer with code blocks into valid parts, reopening the code block", () => {
    const code = Array.from({ length: 120 }, (_, i) => `  line(${i}); // ${"x".repeat(20)}`).join("\n");
    const md = `# Report\n\n${"Some prose. ".repeat(150)}\n\n\`\`\`python\n${code}\n\`\`\`\n\nDone.`;
    const parts = markdownToTelegramParts(md);
    expect(md.length).toBeGreaterThan(6000);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(validateTelegramHtml(part)).toBeUndefined();
    const withCode = parts.filter((p) => p.includes("line("));
    expect(withCode.length).toBeGreaterThan(1);
    for (const part of withCode) expect(part).toMatch(/<pre><code class="language-python">[\s\S]*<\/code><\/pre>/);
    expect(parts[0]).toMatch(/^<b>Report<\/b>\n\nSome prose\./);
  });

  it("prefers block boundaries: a paragraph that fits is not cut", () => {
    const paragraphs = Array.from({ length: 8 }, (_, i) => `Paragraph ${i} ${"word ".repeat(20)}`.trim());
    const parts = markdownToTelegramParts(paragraphs.join("\n\n"), 400);
    for (const part of parts) expect(part).toMatch(/^Paragraph \d[\s\S]*word$/);
  });

  it("cuts inside formatting when it must, closing and reopening the tags", () => {
    const parts = splitTelegramHtml(`<b>${"bold ".repeat(100)}</b>`, 120);
    expect(parts.length).toBeGreaterThan(4);
    for (const part of parts) {
      expect(part).toMatch(/^<b>.*<\/b>$/);
      expect(textOf(part).length).toBeLessThanOrEqual(120);
    }
  });

  it("returns nothing for an answer with nothing to show", () => {
    expect(markdownToTelegramParts("  \n\n ")).toEqual([]);
  });
});

// --- properties -------------------------------------------------------------------

const TABLE = "\n\n| a | b |\n|---|---|\n| `c` | **d** |\n";
const markdownPiece = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 6 }) },
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "**",
      "*",
      "_",
      "__",
      "~~",
      "~",
      "`",
      "``",
      "```",
      "```py\n",
      "~~~\n",
      "\n",
      "\n\n",
      "# ",
      "### ",
      "- ",
      "  - ",
      "1. ",
      "> ",
      "> > ",
      "[",
      "](",
      ")",
      "](https://x.io/a_b?c=1&d=2)",
      "](src/a.ts)",
      "![",
      "<https://x.io>",
      "|",
      "| a | b |\n|---|---|\n",
      TABLE,
      "---\n",
      "===\n",
      "<",
      ">",
      "&",
      "&amp;",
      " ",
      "\\",
      "!",
      "word",
      "😀",
      "é",
      "\t",
      "    ",
      "<b>",
      "</i>",
      "\r\n",
      "\u0000",
    ),
  },
);
const markdown = fc.array(markdownPiece, { maxLength: 60 }).map((pieces) => pieces.join(""));
/**
 * GFM drops a row's cells past the header's count (as GitHub does): here only whole tables have
 * pipes, and they end at a blank line. Text that went on as its rows could make one too wide for
 * a phone, and a wide table's records show its headers as labels (their own property, below).
 */
const markdownWithWholeTables = fc
  .array(
    markdownPiece.map((piece) => (piece === TABLE ? `${piece}\n` : piece.replace(/\|/g, "¦"))),
    { maxLength: 60 },
  )
  .map((pieces) => pieces.join(""));
const longMarkdown = fc.array(markdownPiece, { minLength: 200, maxLength: 900 }).map((pieces) => pieces.join(""));

function textOf(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(`invalid Telegram HTML (${parsed.error}): ${html}`);
  return parsed.text;
}

/** The text with what Markdown moved out of it put back: a link's URL after it, a code block's language before it. */
function textWithTargets(html: string): string {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) throw new Error(parsed.error);
  const inserts: { at: number; text: string }[] = parsed.entities.flatMap((e: TelegramEntity) => [
    ...(e.type === "text_link" ? [{ at: e.offset + e.length, text: ` ${e.url!} ` }] : []),
    ...(e.type === "pre" && e.language !== undefined ? [{ at: e.offset, text: ` ${e.language} ` }] : []),
  ]);
  let text = parsed.text;
  for (const insert of inserts.sort((a, b) => b.at - a.at))
    text = text.slice(0, insert.at) + insert.text + text.slice(insert.at);
  return text;
}

/** The letters of `s` as a sorted multiset: a fence's title is shown above its language label. */
const letters = (s: string): string => (s.match(/\p{L}/gu) ?? []).sort().join("");
/**
 * The letters a reader should find in `text`, rendered from `md`: the entity references typed in
 * `md` ("&amp;", shown decoded, or as typed in code) and the characters they stand for do not
 * count. Digits are left out: an
 * ordered list is numbered 1, 2, 3 however its items were typed (the spec and Claude corpora
 * check numbers as written).
 */
const readable = (text: string, md: string): string => {
  const references = new Set(md.match(/&#?[a-z0-9]+;/gi) ?? []);
  let clean = text;
  // A reference reads as itself in code and as what it stands for elsewhere ("&Xi;" as "Ξ").
  for (const reference of references)
    for (const shown of [reference, markdownUtils.unescapeAll(reference)]) clean = clean.split(shown).join("");
  return letters(clean);
};
/** Blocks whose lines are text a reader sees (containers only hold them). */
const LEAVES = new Set(["paragraph_open", "heading_open", "fence", "code_block", "hr", "table_open", "html_block"]);
/**
 * The lines of `md` that markdown-it reads as content: a line no block covers is blank, a
 * container's marker or a link reference definition (syntax, not text). Control characters go
 * first, as the renderer drops them before it reads the Markdown.
 */
function contentOf(md: string): string {
  const clean = md.replace(/\r\n?/g, "\n").replace(/[^\P{Cc}\t\n]/gu, "");
  const covered = new Set<number>();
  for (const token of parseMarkdown(clean).tokens)
    if (token.map !== null && LEAVES.has(token.type))
      for (let line = token.map[0]; line < token.map[1]; line++) covered.add(line);
  return clean
    .split("\n")
    .filter((_, line) => covered.has(line))
    .join("\n");
}
const counts = (s: string): Map<string, number> => {
  const map = new Map<string, number>();
  for (const c of s) map.set(c, (map.get(c) ?? 0) + 1);
  return map;
};
const squeeze = (s: string): string => s.replace(/\s+/g, "");

describe("properties", () => {
  it("any Markdown renders to HTML Telegram accepts, without falling back to plain text", () => {
    fc.assert(
      fc.property(markdown, (md) => {
        const rendered = renderTelegramMarkdown(md);
        expect(rendered.fallback).toBeUndefined();
        const parsed = parseTelegramHtml(rendered.html);
        expect(parsed.ok ? undefined : parsed.error).toBeUndefined();
      }),
      { numRuns: 1500 },
    );
  });

  it("any Markdown keeps every letter a reader should see", () => {
    fc.assert(
      fc.property(markdownWithWholeTables, (md) => {
        expect(readable(textWithTargets(markdownToTelegramHtml(md)), md)).toBe(readable(contentOf(md), md));
      }),
      { numRuns: 1500 },
    );
  });

  it("any table keeps every body cell's letters, and each label's past two columns, and is valid", () => {
    const cell = fc.stringMatching(/^[a-z`*_ ]{0,30}$/);
    const table = fc
      .integer({ min: 1, max: 5 })
      .chain((columns) =>
        fc.tuple(
          fc.array(cell, { minLength: columns, maxLength: columns }),
          fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { maxLength: 4 }),
        ),
      );
    fc.assert(
      fc.property(table, ([header, rows]) => {
        const line = (cells: string[]) => `| ${cells.map((c) => c.replace(/\s+/g, " ")).join(" | ")} |`;
        const md = [line(header), `|${header.map(() => "---").join("|")}|`, ...rows.map(line)].join("\n");
        const text = textOf(markdownToTelegramHtml(md));
        // Every letter of the body as often as it is there, and of a label (a header but the
        // first, above a cell with letters, in a table of three columns or more) at least once.
        const shown = counts(letters(text));
        for (const [letter, n] of counts(letters(rows.flat().join(""))))
          expect(shown.get(letter)).toBeGreaterThanOrEqual(n);
        const labels = header.filter(
          (_, c) => c > 0 && header.length > 2 && rows.some((row) => letters(row[c]!) !== ""),
        );
        for (const letter of letters(labels.join(""))) expect(shown.has(letter)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("any Markdown splits into parts within the limit, each valid, losing only whitespace", () => {
    fc.assert(
      fc.property(longMarkdown, fc.integer({ min: 60, max: 4096 }), (md, limit) => {
        const parts = markdownToTelegramParts(md, limit);
        for (const part of parts) expect(validateTelegramHtml(part, limit)).toBeUndefined();
        expect(squeeze(parts.map(textOf).join(""))).toBe(squeeze(textOf(markdownToTelegramHtml(md))));
      }),
      { numRuns: 300 },
    );
  });

  it("splitting is lossless for long single blocks too (one huge code block, one huge line)", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 3000 }),
        fc.integer({ min: 60, max: 700 }),
        fc.boolean(),
        (body, limit, asCode) => {
          const md = asCode ? `\`\`\`sh\n${body.replace(/`/g, "'")}\n\`\`\`` : body;
          const parts = markdownToTelegramParts(md, limit);
          for (const part of parts) expect(validateTelegramHtml(part, limit)).toBeUndefined();
          expect(squeeze(parts.map(textOf).join(""))).toBe(squeeze(textOf(markdownToTelegramHtml(md))));
        },
      ),
      { numRuns: 300 },
    );
  });
});
