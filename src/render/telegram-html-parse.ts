// Parses Telegram's HTML parse mode the way the Bot API does (tags, entities, nesting) and
// measures the result: one validator shared by our renderer's tests and the fake Bot API.
// Stricter than Telegram where Telegram is lenient (bare "&" or ">", unknown attributes). Pure.

import {
  byteOffset,
  isSpace,
  NAMED_ENTITIES,
  tagArgument,
  TAGS,
  trimParsed,
  type TelegramEntity,
  type TelegramEntityType,
  type TelegramHtmlParse,
} from "./telegram-html-parts.js";

export type { TelegramEntity, TelegramEntityType, TelegramHtmlParse };

export const TELEGRAM_TEXT_LIMIT = 4096;
export const TELEGRAM_CAPTION_LIMIT = 1024;

export type TelegramHtmlProblem =
  { kind: "parse"; error: string } | { kind: "empty" } | { kind: "too_long"; length: number; limit: number };

type OpenTag = { name: string; argument: string | undefined; textOffset: number };

/**
 * Parses `html` as Telegram's HTML parse mode: returns the plain text (surrounding whitespace
 * trimmed, as Telegram does) with its entities, or the reason Telegram would reject it.
 */
export function parseTelegramHtml(html: string): TelegramHtmlParse {
  const parser = new HtmlParser(html);
  const error = parser.run();
  if (error !== undefined) return { ok: false, error };
  return trimParsed(parser.text, parser.entities);
}

/**
 * Checks what the Bot API checks before accepting a text (or caption, with its limit):
 * parse errors, empty text, and length after entity parsing. Undefined when it would pass.
 */
export function validateTelegramHtml(
  html: string,
  limit: number = TELEGRAM_TEXT_LIMIT,
): TelegramHtmlProblem | undefined {
  const parsed = parseTelegramHtml(html);
  if (!parsed.ok) return { kind: "parse", error: parsed.error };
  if (parsed.text.length === 0) return { kind: "empty" };
  if (parsed.text.length > limit) return { kind: "too_long", length: parsed.text.length, limit };
  return undefined;
}

/** The text a person reads once Telegram has parsed `html`; undefined if Telegram would reject it. */
export function telegramHtmlToText(html: string): string | undefined {
  const parsed = parseTelegramHtml(html);
  return parsed.ok ? parsed.text : undefined;
}

class HtmlParser {
  text = "";
  entities: TelegramEntity[] = [];
  private readonly open: OpenTag[] = [];
  private pos = 0;

  constructor(private readonly src: string) {}

  run(): string | undefined {
    const src = this.src;
    while (this.pos < src.length) {
      const ch = src[this.pos]!;
      if (ch === "&") {
        const error = this.entity();
        if (error !== undefined) return error;
      } else if (ch === ">") {
        return `Unescaped ">" at byte offset ${byteOffset(src, this.pos)}`;
      } else if (ch === "<") {
        const error = src[this.pos + 1] === "/" ? this.endTag() : this.startTag();
        if (error !== undefined) return error;
      } else {
        this.text += ch;
        this.pos++;
      }
    }
    const unclosed = this.open[this.open.length - 1];
    if (unclosed !== undefined) return `Can't find end tag corresponding to start tag "${unclosed.name}"`;
    return undefined;
  }

  private entity(): string | undefined {
    const rest = this.src.slice(this.pos, this.pos + 12);
    const named = /^&([a-z]+);/.exec(rest);
    const numeric = /^&#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}));/.exec(rest);
    let decoded: string | undefined;
    let length = 0;
    if (named !== null) {
      decoded = NAMED_ENTITIES[named[1]!];
      length = named[0].length;
    } else if (numeric !== null) {
      const code = numeric[1] !== undefined ? parseInt(numeric[1], 16) : parseInt(numeric[2]!, 10);
      if (code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) decoded = String.fromCodePoint(code);
      length = numeric[0].length;
    }
    if (decoded === undefined) return `Unescaped "&" at byte offset ${byteOffset(this.src, this.pos)}`;
    this.text += decoded;
    this.pos += length;
    return undefined;
  }

  private startTag(): string | undefined {
    const src = this.src;
    const tagStart = this.pos;
    const at = (): string => `at byte offset ${byteOffset(src, tagStart)}`;
    let end = tagStart + 1;
    while (end < src.length && !isSpace(src[end]!) && src[end] !== ">") end++;
    if (end >= src.length) return `Unclosed start tag ${at()}`;
    const name = src.slice(tagStart + 1, end).toLowerCase();
    if (!TAGS.has(name)) return `Unsupported start tag "${name}" ${at()}`;
    this.pos = end;
    const attributes = this.attributes(name, at);
    if (typeof attributes === "string") return attributes;
    this.pos++; // the ">"
    const argument = tagArgument(name, attributes);
    if (typeof argument === "object") return `${argument.error} ${at()}`;
    const nestingError = this.nestingError(name);
    if (nestingError !== undefined) return `${nestingError} ${at()}`;
    this.open.push({ name, argument, textOffset: this.text.length });
    return undefined;
  }

  /** Reads attributes up to (not past) the closing ">"; a string is an error. */
  private attributes(tag: string, at: () => string): Map<string, string> | string {
    const src = this.src;
    const found = new Map<string, string>();
    for (;;) {
      while (this.pos < src.length && isSpace(src[this.pos]!)) this.pos++;
      if (this.pos >= src.length) return `Unclosed start tag "${tag}" ${at()}`;
      if (src[this.pos] === ">") return found;
      const nameStart = this.pos;
      while (this.pos < src.length && !isSpace(src[this.pos]!) && !"=>/\"'".includes(src[this.pos]!)) this.pos++;
      const name = src.slice(nameStart, this.pos).toLowerCase();
      if (name === "") return `Empty attribute name in the tag "${tag}" ${at()}`;
      while (this.pos < src.length && isSpace(src[this.pos]!)) this.pos++;
      if (src[this.pos] !== "=") {
        found.set(name, "");
        continue;
      }
      this.pos++;
      while (this.pos < src.length && isSpace(src[this.pos]!)) this.pos++;
      if (this.pos >= src.length) return `Unclosed start tag "${tag}" ${at()}`;
      const quote = src[this.pos]!;
      let value = "";
      if (quote === '"' || quote === "'") {
        this.pos++;
        while (this.pos < src.length && src[this.pos] !== quote) {
          if (src[this.pos] === "&") {
            const before = this.text;
            const error = this.entity();
            if (error !== undefined) return error;
            value += this.text.slice(before.length);
            this.text = before;
          } else {
            value += src[this.pos]!;
            this.pos++;
          }
        }
        if (this.pos >= src.length) return `Unclosed start tag "${tag}" ${at()}`;
        this.pos++;
      } else {
        const tokenStart = this.pos;
        while (this.pos < src.length && /[A-Za-z0-9.-]/.test(src[this.pos]!)) this.pos++;
        value = src.slice(tokenStart, this.pos).toLowerCase();
        if (this.pos >= src.length) return `Unclosed start tag "${tag}" ${at()}`;
        if (!isSpace(src[this.pos]!) && src[this.pos] !== ">") {
          return `Unexpected end of name token at byte offset ${byteOffset(src, this.pos)}`;
        }
      }
      found.set(name, value);
    }
  }

  /** Telegram's entity rules: nothing inside code or pre (but pre's one code), no quote in a quote, no link in a link. */
  private nestingError(name: string): string | undefined {
    const parent = this.open[this.open.length - 1];
    for (const tag of this.open) {
      if (tag.name === "code") return `Tag "${name}" can't be nested in "code"`;
      if (tag.name === "pre" && !(name === "code" && parent === tag && this.text.length === tag.textOffset)) {
        return `Tag "${name}" can't be nested in "pre"`;
      }
      if (tag.name === "blockquote" && name === "blockquote") return `Tag "blockquote" can't be nested in "blockquote"`;
      if (tag.name === "a" && name === "a") return `Tag "a" can't be nested in "a"`;
    }
    return undefined;
  }

  private endTag(): string | undefined {
    const src = this.src;
    const tagStart = this.pos;
    const top = this.open[this.open.length - 1];
    if (top === undefined) return `Unexpected end tag at byte offset ${byteOffset(src, tagStart)}`;
    let end = tagStart + 2;
    while (end < src.length && !isSpace(src[end]!) && src[end] !== ">") end++;
    const name = src.slice(tagStart + 2, end).toLowerCase();
    while (end < src.length && isSpace(src[end]!)) end++;
    if (src[end] !== ">") return `Unclosed end tag at byte offset ${byteOffset(src, tagStart)}`;
    if (name !== "" && name !== top.name) {
      return `Unmatched end tag at byte offset ${byteOffset(src, tagStart)}, expected "</${top.name}>", found "</${name}>"`;
    }
    this.pos = end + 1;
    this.open.pop();
    this.close(top);
    return undefined;
  }

  private close(tag: OpenTag): void {
    const offset = tag.textOffset;
    const length = this.text.length - offset;
    if (length <= 0) return;
    const last = this.entities[this.entities.length - 1];
    const sameRange = last !== undefined && last.offset === offset && last.length === length;
    switch (tag.name) {
      case "b":
      case "strong":
        this.entities.push({ type: "bold", offset, length });
        return;
      case "i":
      case "em":
        this.entities.push({ type: "italic", offset, length });
        return;
      case "u":
      case "ins":
        this.entities.push({ type: "underline", offset, length });
        return;
      case "s":
      case "strike":
      case "del":
        this.entities.push({ type: "strikethrough", offset, length });
        return;
      case "span":
      case "tg-spoiler":
        this.entities.push({ type: "spoiler", offset, length });
        return;
      case "a":
        this.entities.push({ type: "text_link", offset, length, url: tag.argument ?? "" });
        return;
      case "blockquote":
        this.entities.push({
          type: tag.argument === "expandable" ? "expandable_blockquote" : "blockquote",
          offset,
          length,
        });
        return;
      case "code":
        // <code class="language-x"> directly inside <pre> gives the pre its language.
        this.entities.push({
          type: "code",
          offset,
          length,
          ...(tag.argument === undefined ? {} : { language: tag.argument }),
        });
        return;
      case "pre":
        if (sameRange && last.type === "code") {
          last.type = "pre";
          return;
        }
        this.entities.push({ type: "pre", offset, length });
        return;
      default:
        return;
    }
  }
}
