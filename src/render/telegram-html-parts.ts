// The pieces of the Telegram HTML parser that hold no parsing state: the parse result's types,
// the tags and entities Telegram knows, tag attributes, Telegram's trimming, and byte offsets
// for its errors. Pure.
export type TelegramEntityType =
  | "bold"
  | "italic"
  | "underline"
  | "strikethrough"
  | "spoiler"
  | "code"
  | "pre"
  | "text_link"
  | "blockquote"
  | "expandable_blockquote";

/** A Bot API MessageEntity; offsets and lengths in UTF-16 code units. */
export type TelegramEntity = {
  type: TelegramEntityType;
  offset: number;
  length: number;
  url?: string;
  language?: string;
};

export type TelegramHtmlParse =
  | { ok: true; text: string; entities: TelegramEntity[] }
  /** `error` reads like Telegram's text after "Bad Request: can't parse entities: ". */
  | { ok: false; error: string };

/** Telegram's limits, in UTF-16 code units of the text after entity parsing. */
export const TAGS = new Set([
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "ins",
  "s",
  "strike",
  "del",
  "span",
  "tg-spoiler",
  "code",
  "pre",
  "blockquote",
]);

export const NAMED_ENTITIES: Readonly<Record<string, string>> = { lt: "<", gt: ">", amp: "&", quot: '"' };

/** The argument a tag's attributes give it (href, language, expandable), or an error. */
export function tagArgument(tag: string, attributes: Map<string, string>): string | undefined | { error: string } {
  const allowed: Readonly<Record<string, readonly string[]>> = {
    a: ["href"],
    code: ["class"],
    span: ["class"],
    blockquote: ["expandable"],
  };
  for (const name of attributes.keys()) {
    if (!(allowed[tag] ?? []).includes(name)) return { error: `Unsupported attribute "${name}" in the tag "${tag}"` };
  }
  switch (tag) {
    case "a": {
      const href = attributes.get("href");
      if (href === undefined || href.trim() === "") return { error: `Tag "a" must have a non-empty "href"` };
      return href;
    }
    case "code": {
      const cls = attributes.get("class");
      if (cls === undefined) return undefined;
      if (!cls.startsWith("language-") || cls.length === "language-".length) {
        return { error: `Tag "code" can have only class "language-…"` };
      }
      return cls.slice("language-".length);
    }
    case "span":
      if (attributes.get("class") !== "tg-spoiler") return { error: `Tag "span" must have class "tg-spoiler"` };
      return undefined;
    case "blockquote":
      return attributes.has("expandable") ? "expandable" : undefined;
    default:
      return undefined;
  }
}

/** Trims surrounding whitespace as Telegram does, keeping entities on the same characters. */
export function trimParsed(text: string, entities: readonly TelegramEntity[]): TelegramHtmlParse {
  // Scanned by hand: a regex anchored at the end is quadratic on text with long runs of spaces.
  let start = 0;
  while (start < text.length && isTrimmed(text.charCodeAt(start))) start++;
  let end = text.length;
  while (end > start && isTrimmed(text.charCodeAt(end - 1))) end--;
  const trimmed = text.slice(start, end);
  const kept: TelegramEntity[] = [];
  for (const entity of entities) {
    const from = Math.max(0, entity.offset - start);
    const to = Math.min(trimmed.length, entity.offset + entity.length - start);
    if (to > from) kept.push({ ...entity, offset: from, length: to - from });
  }
  kept.sort((a, b) => a.offset - b.offset || b.length - a.length);
  return { ok: true, text: trimmed, entities: kept };
}

function isTrimmed(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

export function isSpace(ch: string): boolean {
  return ch === " " || ch === "\n" || ch === "\t" || ch === "\r" || ch === "\f" || ch === "\v";
}

/** UTF-8 byte length of src[0, index): Telegram reports errors in bytes. */
export function byteOffset(src: string, index: number): number {
  let bytes = 0;
  for (let i = 0; i < index; i++) {
    const code = src.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < index) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
