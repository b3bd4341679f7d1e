// The spec corpus: every CommonMark example and the GFM extension examples, rendered for
// Telegram and read back through the fake Bot API's parser, against what the spec's HTML
// means in Telegram's subset (reader-view.ts). The few differences are deliberate, each
// with its reason; a new difference, or one that went away, fails here.

import { describe, expect, it } from "vitest";
import { renderTelegramMarkdown } from "../../src/render/index.js";
import { readerViewOfSpecHtml, readerViewOfTelegramHtml } from "./markdown-corpus/reader-view.js";
import { commonmarkExamples, gfmExtensionExamples, type SpecExample } from "./markdown-corpus/spec-examples.js";

const INTRAWORD = "emphasis inside a word stays as typed (2*3*4, __init__.py, src/**/*.ts)";
const INFO = 'a code block\'s info string after the language shows above the code (title="app.py" → app.py)';
const EMPTY_FENCE = "an empty code block shows its fence as typed (Telegram cannot show an empty block)";
const ALT_TARGET = "a link or image inside an image's description keeps its target after its words, as outside";

/** Where the reader sees something other than the spec's HTML, and why. */
const DIFFERENCES: Readonly<Record<string, string>> = {
  "commonmark-15": "emphasis after an escaped backslash (\\\\*a*) stays as typed, like any run after a symbol",
  "commonmark-126": EMPTY_FENCE,
  "commonmark-129": EMPTY_FENCE,
  "commonmark-130": EMPTY_FENCE,
  "commonmark-143": INFO,
  "commonmark-144": EMPTY_FENCE,
  "commonmark-146": INFO,
  "commonmark-237": EMPTY_FENCE,
  "commonmark-355": INTRAWORD,
  "commonmark-356": INTRAWORD,
  "commonmark-364": INTRAWORD,
  "commonmark-370": INTRAWORD,
  "commonmark-381": INTRAWORD,
  "commonmark-390": INTRAWORD,
  "commonmark-396": INTRAWORD,
  "commonmark-411": INTRAWORD,
  "commonmark-415": INTRAWORD,
  "commonmark-416": INTRAWORD,
  "commonmark-417": INTRAWORD,
  "commonmark-429": INTRAWORD,
  "commonmark-520": ALT_TARGET,
  "commonmark-574": ALT_TARGET,
  "commonmark-575": ALT_TARGET,
  "gfm-491": "a single ~tilde~ is not strikethrough (markdown-it; and '~5 min' means about five minutes)",
  "gfm-493": "~~~three tildes~~~ strike through (markdown-it counts runs of two)",
};

function readerViews(example: SpecExample): { want: string | undefined; got: string | undefined } {
  const want = readerViewOfSpecHtml(example.html, example.markdown);
  const rendered = renderTelegramMarkdown(example.markdown);
  return { want, got: rendered.fallback === undefined ? readerViewOfTelegramHtml(rendered.html) : "(plain text)" };
}

describe("the CommonMark 0.31.2 and GFM 0.29 extension examples", () => {
  const examples = [...commonmarkExamples, ...gfmExtensionExamples];

  it("read in Telegram as the spec means them, but for the known differences", () => {
    const differing = examples.filter((example) => {
      const { want, got } = readerViews(example);
      return want !== undefined && got !== want;
    });
    expect(differing.map((e) => e.id)).toEqual(Object.keys(DIFFERENCES));
    expect(examples.length).toBe(652 + 28);
  });

  it("show raw HTML as typed, in HTML Telegram accepts", () => {
    const raw = examples.filter((example) => readerViewOfSpecHtml(example.html, example.markdown) === undefined);
    expect(raw.length).toBeGreaterThan(60);
    for (const example of raw) {
      const { html, fallback } = renderTelegramMarkdown(example.markdown);
      expect(fallback).toBeUndefined();
      const view = readerViewOfTelegramHtml(html);
      expect(view).toBeDefined();
      const tag = /<\/?[a-zA-Z][a-zA-Z0-9-]*/.exec(example.markdown)?.[0] ?? "<";
      expect(view, example.id).toContain(tag);
    }
  });
});
