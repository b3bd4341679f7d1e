// bench/markdown: the final answer's path (Markdown -> Telegram HTML -> numbered parts) on a
// realistic 100 KB answer and on hostile inputs at 50 KB and 100 KB. A ratio near 2 between
// the two sizes means linear; every case must also stay far below a second (it runs on the
// event loop that serves every chat). Numbers for docs/markdown.md.
import process from "node:process";
import { renderFinalAnswer, renderTelegramMarkdown } from "../dist/render/index.js";
import { scaled } from "./scale.js";
import { printTable } from "./table.js";

const ROUNDS = scaled(5, 1);
/** The larger input's size in characters; the smaller is half of it. */
const SIZE = scaled(100_000, 10_000);
const kb = (chars) => `${chars / 1000} KB`;
const footer = { costUsd: 0.05, turns: 3, durationMs: 90_000, sessionId: "0a1b2c3d" };

/** A Claude-like answer of about `bytes` characters: headings, prose, paths, lists, tables, code. */
function realisticAnswer(bytes) {
  const section = (i) =>
    [
      `## ${i}. Update \`src/module_${i}/handler.ts\``,
      "",
      `I changed **\`handle_${i}()\`** so it returns early — see [the docs](https://example.com/docs/${i}_guide) ` +
        `and src/**/*.ts. Calls like f(*args, **kwargs) and __init__.py stay as written; 2*3*4 too 👨‍👩‍👧‍👦.`,
      "",
      "- checked the *fast* path",
      "  - and the `slow` one",
      "- [x] tests pass",
      "",
      "| File | Change |",
      "|---|---|",
      `| \`src/a_${i}.ts\` | **added** a guard |`,
      "",
      '```python title="app.py"',
      `def handler_${i}(event):`,
      "    if not event:",
      "        return None",
      `    return process(event, retries=${i})`,
      "```",
      "",
    ].join("\n");
  let text = "";
  for (let i = 0; text.length < bytes; i++) text += section(i);
  return text.slice(0, bytes);
}

const hostile = {
  "realistic answer": realisticAnswer,
  "[ repeated": (n) => "[".repeat(n),
  "![ repeated": (n) => "![".repeat(n / 2),
  "[a]( repeated": (n) => "[a](".repeat(n / 4),
  "run of * around a word": (n) => `${"*".repeat(n / 2)}a${"*".repeat(n / 2)}`,
  "_a repeated": (n) => "_a".repeat(n / 2),
  "*a **b repeated": (n) => "*a **b ".repeat(n / 7),
  "backtick runs": (n) => "` a ``".repeat(n / 6),
  "table rows": (n) => "|a|b|\n|-|-|\n" + "|1|2|\n".repeat((n - 12) / 6),
  // Too wide for a phone: each row becomes a record.
  "wide table rows": (n) =>
    "| file | what changed and why |\n|-|-|\n" + "| `src/a.ts` | **guard** added before the call |\n".repeat(n / 52),
  "> nested": (n) => `${">".repeat(n)} x`,
  "- nested on one line": (n) => `${"- ".repeat(n / 2)}x`,
  "list indented deeper each line": (n) => {
    const lines = [];
    for (let i = 0, size = 0; size < n; i++) {
      const line = `${" ".repeat(2 * (i % 300))}- x`;
      lines.push(line);
      size += line.length + 1;
    }
    return lines.join("\n");
  },
};

function medianMs(run) {
  const times = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)];
}

const rows = [];
for (const [name, make] of Object.entries(hostile)) {
  renderFinalAnswer(make(SIZE / 5), footer); // warm-up: the first runs pay for compilation
  const half = make(SIZE / 2);
  const full = make(SIZE);
  const msHalf = medianMs(() => renderFinalAnswer(half, footer));
  const msFull = medianMs(() => renderFinalAnswer(full, footer));
  const answer = renderFinalAnswer(full, footer);
  rows.push({
    input: name,
    [`${kb(SIZE / 2)} ms`]: msHalf.toFixed(1),
    [`${kb(SIZE)} ms`]: msFull.toFixed(1),
    "ratio of the two": (msFull / msHalf).toFixed(2),
    parts: answer.parts.length,
    rendered: renderTelegramMarkdown(full).fallback?.code ?? "formatted",
  });
}
printTable(rows);
