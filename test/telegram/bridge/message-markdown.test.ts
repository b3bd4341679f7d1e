import { describe, expect, it } from "vitest";
import { markdownOfEntities, quoteBlock, type TextEntity } from "../../../src/telegram/bridge/message-markdown.js";

/** An entity over the first `words` found in `text` (after `from`). */
function over(text: string, words: string, type: string, extra: Partial<TextEntity> = {}, from = 0): TextEntity {
  const offset = text.indexOf(words, from);
  if (offset < 0) throw new Error(`"${words}" is not in the text`);
  return { type, offset, length: words.length, ...extra };
}

describe("markdownOfEntities", () => {
  it("leaves text without kept entities as it is", () => {
    const text = "make the *title* bold";
    expect(markdownOfEntities(text, undefined)).toBe(text);
    expect(markdownOfEntities(text, [over(text, "title", "bold"), over(text, "make", "italic")])).toBe(text);
  });

  it("writes a link's address after its words, unless the words are the address", () => {
    const text = "see the spec and https://example.com/a";
    const entities = [
      over(text, "the spec", "text_link", { url: "https://example.com/spec" }),
      over(text, "https://example.com/a", "text_link", { url: "https://example.com/a" }),
    ];
    expect(markdownOfEntities(text, entities)).toBe(
      "see [the spec](https://example.com/spec) and https://example.com/a",
    );
  });

  it("counts offsets in UTF-16 units, as Telegram does (an emoji takes two)", () => {
    const text = "🚀 deploy with make ship";
    expect(markdownOfEntities(text, [over(text, "make ship", "code")])).toBe("🚀 deploy with `make ship`");
  });

  it("puts a code block on lines of its own, with its language, whatever surrounds it", () => {
    const text = "run this: npm ci && npm test please";
    const entities = [over(text, "npm ci && npm test", "pre", { language: "sh" })];
    expect(markdownOfEntities(text, entities)).toBe("run this:\n```sh\nnpm ci && npm test\n```\nplease");
    const alone = "x = 1\n";
    expect(markdownOfEntities(alone, [{ type: "pre", offset: 0, length: 6 }])).toBe("```\nx = 1\n```");
  });

  it("fences code that holds backticks with more of them", () => {
    const text = "a `b` c and md ```x``` here";
    const entities = [over(text, "a `b` c", "code"), over(text, "md ```x```", "pre")];
    expect(markdownOfEntities(text, entities)).toBe("``a `b` c`` and\n````\nmd ```x```\n````\nhere");
    const edge = "`tick`";
    expect(markdownOfEntities(edge, [{ type: "code", offset: 0, length: 6 }])).toBe("`` `tick` ``");
  });

  it("marks a quote's lines, with a link inside it kept", () => {
    const text = "They said:\nship it friday\nsee the plan\nok?";
    const quoted = over(text, "ship it friday\nsee the plan", "blockquote");
    const link = over(text, "the plan", "text_link", { url: "https://example.com/plan" });
    expect(markdownOfEntities(text, [link, quoted])).toBe(
      "They said:\n> ship it friday\n> see [the plan](https://example.com/plan)\nok?",
    );
    expect(markdownOfEntities("note", [{ type: "expandable_blockquote", offset: 0, length: 4 }])).toBe("> note");
  });

  it("reads nothing inside code as formatting, and clamps entities that run past the text", () => {
    const text = "call fetch(url) now";
    const entities = [
      over(text, "fetch(url)", "code"),
      over(text, "url", "text_link", { url: "https://x.example" }),
      { type: "code", offset: text.indexOf("now"), length: 99 },
      { type: "code", offset: 500, length: 2 },
      { type: "code", offset: 0, length: 0 },
    ];
    expect(markdownOfEntities(text, entities)).toBe("call `fetch(url)` `now`");
  });
});

describe("quoteBlock", () => {
  it("starts every line with '> ', blank lines with '>'", () => {
    expect(quoteBlock("\nfirst\n\n  second\n")).toBe("> first\n>\n>   second");
  });
});
