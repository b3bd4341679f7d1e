// A person's message as Claude should read it. Telegram sends formatting apart from the
// text (entities), so a hyperlink's address, a pasted code block's fences and a quote's
// marks are not in `text` at all: they are written back here as Markdown. Formatting that
// only looks different (bold, spoilers…) stays plain text. Pure.

/** A Telegram message entity, as much of it as is read here. */
export type TextEntity = {
  readonly type: string;
  /** In UTF-16 code units, as JavaScript strings count. */
  readonly offset: number;
  readonly length: number;
  readonly url?: string;
  readonly language?: string;
};

const KEPT = new Set(["text_link", "code", "pre", "blockquote", "expandable_blockquote"]);
const BLOCKS = new Set(["pre", "blockquote", "expandable_blockquote"]);

type Span = { entity: TextEntity; start: number; end: number; inside: Span[] };

/** `text` with its links, code and quotes written as Markdown. */
export function markdownOfEntities(text: string, entities: readonly TextEntity[] | undefined): string {
  const spans = nest(text.length, entities ?? []);
  return spans.length === 0 ? text : new Writer(text).range(0, text.length, spans);
}

/** `text` as a Markdown block quote: each line starts with "> ". */
export function quoteBlock(text: string): string {
  return text
    .trim()
    .split("\n")
    .map((line) => (line.trim() === "" ? ">" : `> ${line}`))
    .join("\n");
}

/** The kept entities as a tree (Telegram's entities either nest or do not touch). */
function nest(textLength: number, entities: readonly TextEntity[]): Span[] {
  const sorted = entities
    .filter((e) => KEPT.has(e.type) && e.length > 0 && e.offset >= 0 && e.offset < textLength)
    .map((entity) => ({ entity, start: entity.offset, end: Math.min(textLength, entity.offset + entity.length) }))
    .sort((a, b) => a.start - b.start || b.end - a.end);
  const roots: Span[] = [];
  const open: Span[] = [];
  for (const { entity, start, end } of sorted) {
    while (open.length > 0 && open.at(-1)!.end <= start) open.pop();
    const parent = open.at(-1);
    const span: Span = { entity, start, end: parent === undefined ? end : Math.min(end, parent.end), inside: [] };
    // Code has no formatting inside it; a second block inside a block is not Telegram's either.
    if (parent !== undefined && (parent.entity.type === "pre" || parent.entity.type === "code")) continue;
    (parent?.inside ?? roots).push(span);
    open.push(span);
  }
  return roots;
}

class Writer {
  readonly #text: string;
  #out = "";
  /** A block just ended: what follows starts on a new line. */
  #afterBlock = false;

  constructor(text: string) {
    this.#text = text;
  }

  range(start: number, end: number, spans: readonly Span[]): string {
    let at = start;
    for (const span of spans) {
      this.#plain(this.#text.slice(at, span.start));
      this.#span(span);
      at = span.end;
    }
    this.#plain(this.#text.slice(at, end));
    return this.#out;
  }

  #plain(text: string): void {
    if (text === "") return;
    const next = this.#afterBlock ? text.replace(/^[ \t]+/, "") : text;
    if (this.#afterBlock && next !== "" && !next.startsWith("\n")) this.#out += "\n";
    this.#afterBlock &&= next === "";
    this.#out += next;
  }

  #span(span: Span): void {
    const { entity } = span;
    const inner = new Writer(this.#text).range(span.start, span.end, span.inside);
    if (!BLOCKS.has(entity.type)) {
      this.#plain(entity.type === "code" ? inlineCode(inner) : link(inner, entity.url));
      return;
    }
    this.#out = this.#out.replace(/[ \t]+$/, "");
    if (this.#out !== "" && !this.#out.endsWith("\n")) this.#out += "\n";
    this.#afterBlock = false;
    this.#out += entity.type === "pre" ? fenced(inner, entity.language) : quoteBlock(inner);
    this.#afterBlock = true;
  }
}

function link(label: string, url: string | undefined): string {
  if (url === undefined || label.trim() === url) return label;
  return `[${label}](${url})`;
}

function inlineCode(code: string): string {
  const ticks = "`".repeat(longestRun(code, "`") + 1);
  const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
  return `${ticks}${pad}${code}${pad}${ticks}`;
}

function fenced(code: string, language: string | undefined): string {
  const fence = "`".repeat(Math.max(3, longestRun(code, "`") + 1));
  return `${fence}${language ?? ""}\n${code.replace(/\n$/, "")}\n${fence}`;
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}
