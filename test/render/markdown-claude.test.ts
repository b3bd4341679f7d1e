// Realistic Claude answers and hostile inputs: what a person sees in Telegram for the Markdown
// a coding assistant writes (fences with info strings, paths, URLs, tables, nested lists), and
// that no input stalls the renderer, overflows the stack or makes an answer disappear.

import { describe, expect, it } from "vitest";
import { parseTelegramHtml, renderTelegramMarkdown } from "../../src/render/index.js";
import { textOf } from "./html-text.js";

const html = (markdown: string): string => {
  const rendered = renderTelegramMarkdown(markdown);
  expect(rendered.fallback).toBeUndefined();
  return rendered.html;
};

describe("Claude's answers", () => {
  it("recognises fences whose info string has more words, and keeps code and prose apart after them", () => {
    const md = [
      '```python title="app.py"',
      'print("hi")',
      "```",
      "",
      "Then run it:",
      "",
      "```js {1,3}",
      "const a = 1;",
      "```",
      "",
      "Done.",
    ].join("\n");
    expect(html(md)).toBe(
      [
        "<i>app.py</i>",
        '<pre><code class="language-python">print("hi")</code></pre>',
        "",
        "Then run it:",
        "",
        "<i>{1,3}</i>",
        '<pre><code class="language-js">const a = 1;</code></pre>',
        "",
        "Done.",
      ].join("\n"),
    );
  });

  it("recognises a fence on a list item's first line", () => {
    expect(html("1. ```bash\n   npm test\n   ```\n2. Check the output.")).toBe(
      '1.\n<pre><code class="language-bash">npm test</code></pre>\n2. Check the output.',
    );
  });

  it("leaves paths, URLs, globs and arithmetic exactly as written", () => {
    const md =
      "See https://example.com/_private_/path, match src/**/*.ts and lib/*.js, edit __init__.py, " +
      "2*3*4 = 24, O(n*m), call f(*args, **kwargs), use snake_case_name.";
    expect(html(md)).toBe(md);
    expect(html("**Note**: the __init__.py file—and **Claude**'s answer, *really*.")).toBe(
      "<b>Note</b>: the __init__.py file—and <b>Claude</b>'s answer, <i>really</i>.",
    );
  });

  it("bolds words joined by a symbol separately, as in **Ctrl**+**C**", () => {
    expect(html("Press **Ctrl**+**C** to stop.")).toBe("Press <b>Ctrl</b>+<b>C</b> to stop.");
    expect(html("Use **GET**/**POST** only")).toBe("Use <b>GET</b>/<b>POST</b> only");
    expect(html("**Pros**/**Cons**")).toBe("<b>Pros</b>/<b>Cons</b>");
    expect(html("**foo**=**bar**, **5**×**3**, **a**->**b**")).toBe(
      "<b>foo</b>=<b>bar</b>, <b>5</b>×<b>3</b>, <b>a</b>-&gt;<b>b</b>",
    );
    expect(html("*a*/*b* and **Save as**/**Open**/**Close**")).toBe(
      "<i>a</i>/<i>b</i> and <b>Save as</b>/<b>Open</b>/<b>Close</b>",
    );
  });

  it("leaves paths, globs and arithmetic next to those symbols as written", () => {
    for (const md of [
      "src/**/*.ts",
      "lib/**/*.js and src/**/*.ts",
      "__init__.py",
      "edit __pycache__/__init__.py and test*/*spec.ts",
      "2*3*4, foo*bar*, 5*6*78, a*b*/c, a*b*+*c*d, x**2+y**2",
      "https://example.com/_a_/_b_",
    ]) {
      expect(html(md)).toBe(md);
    }
  });

  it("bolds a phrase that touches a code span, as CommonMark does", () => {
    expect(html("**Path:**`src/app.ts`")).toBe("<b>Path:</b><code>src/app.ts</code>");
    expect(html("**bold**`code`**x**")).toBe("<b>bold</b><code>code</code><b>x</b>");
    expect(html("`a`**+**`b`")).toBe("<code>a</code><b>+</b><code>b</code>");
    expect(html("`cfg`*optional*")).toBe("<code>cfg</code><i>optional</i>");
    expect(html("`src/**/*.ts` and `a*b*c`")).toBe("<code>src/**/*.ts</code> and <code>a*b*c</code>");
  });

  it("bolds and italicises Chinese and Japanese, which have no spaces between words", () => {
    expect(html("请注意**重要**的事情。")).toBe("请注意<b>重要</b>的事情。");
    expect(html("**结论**：可以")).toBe("<b>结论</b>：可以");
    expect(html("我们，**重要**的是*这个*。")).toBe("我们，<b>重要</b>的是<i>这个</i>。");
    expect(html("「**注意**」と言った。ひらがなの*テスト*です")).toBe(
      "「<b>注意</b>」と言った。ひらがなの<i>テスト</i>です",
    );
    expect(html("这是一个 **重要** 的问题")).toBe("这是一个 <b>重要</b> 的问题");
  });

  it("links with titles and reference links, and shows entities as characters", () => {
    expect(html('[docs](https://example.com "The docs") and [spec][1].\n\n[1]: https://spec.commonmark.org')).toBe(
      '<a href="https://example.com">docs</a> and <a href="https://spec.commonmark.org">spec</a>.',
    );
    expect(textOf(html("A&nbsp;B &copy; &lt;tag&gt; &#128512;"))).toBe("A\u00a0B © <tag> 😀");
  });

  it("shows indented code as code, and table cells without Markdown syntax", () => {
    expect(html("Code:\n\n    indented = True\n    print(indented)\n")).toBe(
      "Code:\n\n<pre>indented = True\nprint(indented)</pre>",
    );
    expect(html("| File | Change |\n|---|---|\n| `src/app.ts` | **added** a [link](https://x.io) |\n")).toBe(
      "<pre>File       | Change\n-----------+----------------------------\nsrc/app.ts | added a link (https://x.io)</pre>",
    );
  });

  it("indents nested lists and shows task lists as boxes", () => {
    expect(html("- top\n  - nested **bold**\n    - deeper\n- [ ] todo\n- [x] done\n\n1. [ ] first")).toBe(
      "• top\n  ◦ nested <b>bold</b>\n    ▪ deeper\n☐ todo\n☑ done\n\n1. ☐ first",
    );
  });

  it("keeps a long answer with emoji sequences whole", () => {
    const line = "Family 👨‍👩‍👧‍👦, flags 🇩🇪🇫🇷, skin tones 👋🏽, keycaps 1️⃣ — **all** fine.";
    const md = Array.from({ length: 400 }, (_, i) => `${i}. ${line}`).join("\n");
    expect(textOf(html(md))).toContain(`399. ${line.replace(/\*\*/g, "")}`);
  });
});

describe("hostile inputs", () => {
  const cases: [string, string][] = [
    ["100 KB of [", "[".repeat(100_000)],
    ["100 KB of ![", "![".repeat(50_000)],
    ["100 KB of [a](", "[a](".repeat(25_000)],
    ["long runs of *", `${"*".repeat(50_000)}a${"*".repeat(50_000)}`],
    ["long runs of _", "_a".repeat(50_000)],
    ["alternating emphasis", "*a **b ".repeat(14_000)],
    ["100 KB of backticks", "` a ``".repeat(20_000)],
    ["a table of 5,000 rows", "|a|b|\n|-|-|\n" + "|1|2|\n".repeat(5_000)],
    ["lists 2,000 deep", Array.from({ length: 2_000 }, (_, i) => `${" ".repeat(i * 2)}- x`).join("\n")],
    ["8,000 nested >", `${">".repeat(8_000)} deep`],
    ["8,000 nested lists on one line", `${"- ".repeat(8_000)}x`],
  ];

  it.each(cases)("%s: renders (or falls back to the text as typed) in HTML Telegram accepts", (_, md) => {
    const rendered = renderTelegramMarkdown(md);
    expect(parseTelegramHtml(rendered.html).ok).toBe(true);
    const letters = (s: string): number => (s.match(/[\p{L}\p{N}]/gu) ?? []).length;
    expect(letters(textOf(rendered.html))).toBe(letters(md));
  });

  it("sends what it cannot parse as the text as typed, and says why", () => {
    const md = `${">".repeat(8_000)} deep`;
    const rendered = renderTelegramMarkdown(md);
    expect(rendered.fallback?.code).toBe("render.too_deep");
    expect(rendered.html).toBe(`${"&gt;".repeat(8_000)} deep`);
  });
});
