// The Telegram HTML validator both the renderer's tests and the fake Bot API rely on.

import { describe, expect, it } from "vitest";
import { parseTelegramHtml, validateTelegramHtml } from "../../src/render/index.js";

function error(html: string): string | undefined {
  const parsed = parseTelegramHtml(html);
  return parsed.ok ? undefined : parsed.error;
}

describe("parseTelegramHtml", () => {
  it("turns tags into entities with UTF-16 offsets and decodes the four named entities and numeric ones", () => {
    const parsed = parseTelegramHtml(
      '😀 <b>bold <i>both</i></b> &lt;x&gt; &amp; &quot; &#233; <a href="https://e.com/?a=1&amp;b=2">link</a>',
    );
    expect(parsed).toEqual({
      ok: true,
      text: '😀 bold both <x> & " é link',
      entities: [
        { type: "bold", offset: 3, length: 9 },
        { type: "italic", offset: 8, length: 4 },
        { type: "text_link", offset: 23, length: 4, url: "https://e.com/?a=1&b=2" },
      ],
    });
  });

  it("gives a pre block its language from the code tag inside it", () => {
    expect(parseTelegramHtml('<pre><code class="language-ts">const a = 1;</code></pre>')).toEqual({
      ok: true,
      text: "const a = 1;",
      entities: [{ type: "pre", offset: 0, length: 12, language: "ts" }],
    });
    expect(
      parseTelegramHtml(
        '<blockquote expandable>q</blockquote> <tg-spoiler>s</tg-spoiler> <span class="tg-spoiler">t</span>',
      ),
    ).toMatchObject({
      ok: true,
      entities: [{ type: "expandable_blockquote" }, { type: "spoiler" }, { type: "spoiler" }],
    });
  });

  it("trims surrounding whitespace like Telegram and keeps entities on their characters", () => {
    expect(parseTelegramHtml("\n\n  <b> hi</b>  \n")).toEqual({
      ok: true,
      text: "hi",
      entities: [{ type: "bold", offset: 0, length: 2 }],
    });
  });

  it("rejects what Telegram rejects, with Telegram's words and byte offsets", () => {
    expect(error("é<p>x</p>")).toBe('Unsupported start tag "p" at byte offset 2');
    expect(error("<b>x")).toBe('Can\'t find end tag corresponding to start tag "b"');
    expect(error("<b>x</i>")).toBe('Unmatched end tag at byte offset 4, expected "</b>", found "</i>"');
    expect(error("x</b>")).toBe("Unexpected end tag at byte offset 1");
    expect(error("a <b")).toBe("Unclosed start tag at byte offset 2");
    expect(error("<br/>")).toBe('Unsupported start tag "br/" at byte offset 0');
    expect(error('<span class="x">s</span>')).toBe('Tag "span" must have class "tg-spoiler" at byte offset 0');
  });

  it("is strict where Telegram is lenient: every <, > and & escaped, only known attributes, no forbidden nesting", () => {
    expect(error("a & b")).toBe('Unescaped "&" at byte offset 2');
    expect(error("&nbsp;")).toBe('Unescaped "&" at byte offset 0');
    expect(error("a > b")).toBe('Unescaped ">" at byte offset 2');
    expect(error('<b class="x">y</b>')).toBe('Unsupported attribute "class" in the tag "b" at byte offset 0');
    expect(error("<code><b>x</b></code>")).toBe('Tag "b" can\'t be nested in "code" at byte offset 6');
    expect(error("<pre>x<code>y</code></pre>")).toBe('Tag "code" can\'t be nested in "pre" at byte offset 6');
    expect(error("<blockquote><blockquote>x</blockquote></blockquote>")).toMatch(/can't be nested in "blockquote"/);
    expect(error('<a href="">x</a>')).toMatch(/must have a non-empty "href"/);
  });
});

describe("validateTelegramHtml", () => {
  it("measures the text after parsing, in UTF-16 code units", () => {
    expect(validateTelegramHtml(`<b>${"&amp;".repeat(4096)}</b>`)).toBeUndefined();
    expect(validateTelegramHtml("😀".repeat(2049))).toEqual({ kind: "too_long", length: 4098, limit: 4096 });
    expect(validateTelegramHtml("x".repeat(1025), 1024)).toMatchObject({ kind: "too_long" });
    expect(validateTelegramHtml(" <b> </b> ")).toEqual({ kind: "empty" });
  });
});
