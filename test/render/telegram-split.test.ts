// The splitter and the final answer's parts as a person receives them: as few messages as
// Telegram's real limit allows, no emoji cut in half, code that keeps its indentation across
// messages, "(1/3)" labels, and only the first message notifying.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  markdownToTelegramHtml,
  renderFinalAnswer,
  splitTelegramHtml,
  validateTelegramHtml,
} from "../../src/render/index.js";
import { textOf } from "./html-text.js";

const footer = { costUsd: 0.0421, turns: 1, durationMs: 125_000, sessionId: "0a1b2c3d-4e5f" };

const graphemes = (text: string): string[] =>
  [...new Intl.Segmenter(undefined, { granularity: "grapheme" }).segment(text)].map((s) => s.segment);

describe("splitTelegramHtml", () => {
  it("counts the text Telegram counts, not the HTML around it", () => {
    // 3,900 characters of text in about 9,000 characters of HTML: one message, not three.
    const html = markdownToTelegramHtml("**a** `b` & <c> [d](https://example.com/d) ".repeat(130));
    expect(html.length).toBeGreaterThan(8000);
    expect(textOf(html).length).toBeLessThan(4096);
    expect(splitTelegramHtml(html)).toEqual([html]);
  });

  it("sends a long formatted answer in as few messages as its text needs", () => {
    const section = (i: number): string =>
      `## Step ${i}\n\nChange **\`src/module-${i}.ts\`** so that [the handler](https://example.com/h/${i}) ` +
      `returns *early* & logs <nothing>.\n\n\`\`\`ts\nexport const value${i} = compute(${i}) && check(${i});\n\`\`\``;
    const html = markdownToTelegramHtml(Array.from({ length: 120 }, (_, i) => section(i)).join("\n\n"));
    const visible = textOf(html).length;
    const parts = splitTelegramHtml(html);
    expect(parts.length).toBeLessThanOrEqual(Math.ceil(visible / 3500));
    expect(parts.length).toBeLessThan(Math.ceil(html.length / 4096));
    for (const part of parts) expect(validateTelegramHtml(part)).toBeUndefined();
  });

  it("keeps a short paragraph that introduces a code block with its block", () => {
    const step = (n: number): string =>
      `Step ${n}: run this.\n\n\`\`\`ts\n${Array.from({ length: 12 }, (_, i) => `const value${n}_${i} = compute(${i}) < limit && flag;`).join("\n")}\n\`\`\``;
    const html = markdownToTelegramHtml(Array.from({ length: 12 }, (_, n) => step(n)).join("\n\n"));
    const parts = splitTelegramHtml(html, undefined, { numbered: true });
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      const text = textOf(part);
      expect(text).not.toMatch(/run this\.$/);
      if (part !== parts[0]) expect(text.split("\n")[1]).toMatch(/^Step \d+: run this\.$/);
    }
  });

  it("cuts a paragraph too long for one message after a sentence, not between two words of one", () => {
    const sentence = (i: number): string => `Check ${i} passed on this line, **as it should** (see the log).`;
    const html = markdownToTelegramHtml(Array.from({ length: 150 }, (_, i) => sentence(i)).join(" "));
    const parts = splitTelegramHtml(html, undefined, { numbered: true });
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      const [, ...body] = textOf(part).split("\n");
      expect(body.join("\n")).toMatch(/^Check \d+ passed .*\(see the log\)\.$/s);
    }
  });

  it("never cuts inside an emoji sequence", () => {
    const emoji = ["👨‍👩‍👧‍👦", "🇩🇪", "👋🏽", "1️⃣", "🏳️‍🌈", "é"];
    const text = Array.from({ length: 300 }, (_, i) => emoji[i % emoji.length]).join("");
    for (const limit of [20, 37, 64, 101]) {
      const parts = splitTelegramHtml(text, limit);
      expect(parts.length).toBeGreaterThan(1);
      for (const part of parts) {
        expect(part.length).toBeLessThanOrEqual(limit);
        for (const cluster of graphemes(part)) expect(emoji).toContain(cluster);
      }
      expect(parts.join("")).toBe(text);
    }
  });

  it("keeps the indentation of the first code line in a continued code block", () => {
    const code = Array.from({ length: 40 }, (_, i) => `    line_${i} = call(${i})`).join("\n");
    const parts = splitTelegramHtml(markdownToTelegramHtml(`Intro.\n\n\`\`\`py\n${code}\n\`\`\``), 300, {
      numbered: true,
    });
    expect(parts.length).toBeGreaterThan(2);
    for (const part of parts.slice(1)) {
      const [label, firstCodeLine] = textOf(part).split("\n");
      expect(label).toMatch(/^\(\d+\/\d+\)$/);
      expect(firstCodeLine).toMatch(/^ {4}line_\d+ = call\(\d+\)$/);
      expect(part).toContain('<pre><code class="language-py">    line_');
    }
  });

  it("labels the parts (1/3), (2/3), (3/3) within the limit, and leaves a single part unlabelled", () => {
    const parts = splitTelegramHtml(markdownToTelegramHtml("word ".repeat(600)), 1100, { numbered: true });
    expect(parts.map((p) => textOf(p).split("\n")[0])).toEqual(["(1/3)", "(2/3)", "(3/3)"]);
    for (const part of parts) expect(validateTelegramHtml(part, 1100)).toBeUndefined();
    expect(splitTelegramHtml("short", 1100, { numbered: true })).toEqual(["short"]);
  });
});

describe("renderFinalAnswer", () => {
  it("notifies with the first part only", () => {
    const { parts, fallback } = renderFinalAnswer("Paragraph. ".repeat(1200), footer);
    expect(fallback).toBeUndefined();
    expect(parts.map((p) => p.silent)).toEqual([false, true, true, true]);
    expect(textOf(parts[0]!.html)).toMatch(/^\(1\/4\)\nParagraph\./);
    expect(textOf(parts[3]!.html)).toMatch(/reply to continue$/);
  });

  it("sends an answer it cannot render as its text, and says so", () => {
    const { parts, fallback } = renderFinalAnswer(`${">".repeat(5000)} deep`, footer);
    expect(fallback?.code).toBe("render.too_deep");
    expect(parts.map((p) => textOf(p.html)).join("")).toContain(`${">".repeat(100)}`);
  });
});

describe("properties", () => {
  const piece = fc.oneof(
    fc.string({ maxLength: 10 }),
    fc.constantFrom(
      "👨‍👩‍👧‍👦",
      "🇩🇪",
      "👋🏽",
      "e\u0301",
      "\n",
      "\n\n",
      "    ",
      "**",
      "`",
      "```\n",
      "&",
      "<",
      "[a](https://x.io)",
    ),
  );
  const md = fc.array(piece, { minLength: 50, maxLength: 600 }).map((pieces) => pieces.join(""));

  it("numbered parts stay within the limit, valid, whole clusters, losing only whitespace", () => {
    fc.assert(
      fc.property(md, fc.integer({ min: 40, max: 4096 }), (markdown, limit) => {
        const html = markdownToTelegramHtml(markdown);
        const parts = splitTelegramHtml(html, limit, { numbered: true });
        const texts = parts.map((part) => {
          expect(validateTelegramHtml(part, limit)).toBeUndefined();
          return parts.length > 1 ? textOf(part).replace(/^\(\d+\/\d+\)\n/, "") : textOf(part);
        });
        const squeeze = (s: string): string => s.replace(/\s+/g, "");
        expect(squeeze(texts.join(""))).toBe(squeeze(textOf(html)));
        expect(texts.flatMap(graphemes).filter((g) => !/^\s+$/.test(g))).toEqual(
          graphemes(textOf(html)).filter((g) => !/^\s+$/.test(g)),
        );
      }),
      { numRuns: 200 },
    );
  });
});
