// Decision prompts and notes as Telegram messages: the prompt's sections as HTML (split under
// the limit, room left for the outcome line), its choices as inline buttons (their data is
// choice-code.ts's), and the settled form. Pure: no Bot API calls.
import type { InlineKeyboardButton, InlineKeyboardMarkup } from "grammy/types";
import {
  diffHeading,
  diffLineText,
  isLocalLink,
  outcomeText,
  type DecisionOutcome,
  type DecisionPrompt,
  type InfoMessage,
  type PromptChoice,
  type PromptSection,
} from "../../policy/index.js";
import { excerpt } from "../../domain/index.js";
import {
  escapeTelegramHtml,
  markdownToTelegramHtml,
  splitTelegramHtml,
  TELEGRAM_TEXT_LIMIT,
} from "../../render/index.js";

/** Room kept in the part with the buttons for the outcome line added when it is settled. */
const OUTCOME_ROOM = 400;
const BUTTON_LABEL_CHARS = 60;

const KIND_ICONS: Readonly<Record<DecisionPrompt["kind"], string>> = { approval: "🔐", plan: "📋", question: "❓" };

/** The prompt as messages: every part but the last is plain; the last carries the buttons. */
export function renderPromptParts(
  prompt: DecisionPrompt,
  options: { awaitingText?: boolean; onlyFor?: { name: string } | undefined } = {},
): string[] {
  const blocks = [
    `<b>${KIND_ICONS[prompt.kind]} ${escapeTelegramHtml(prompt.title)}</b>`,
    ...prompt.sections.map(sectionHtml),
  ];
  if (prompt.caption) blocks.push(`<i>${escapeTelegramHtml(prompt.caption)}</i>`);
  const hint = [
    ...(options.awaitingText ? [] : [prompt.textReplyHint]),
    // A group where only who asked answers (telegram.group_approvals): said before anyone taps.
    ...(options.onlyFor === undefined ? [] : [`${onlyTheirs(options.onlyFor)}.`]),
  ];
  if (hint.length > 0) blocks.push(`<i>${escapeTelegramHtml(hint.join(" "))}</i>`);
  return splitTelegramHtml(blocks.join("\n\n"), TELEGRAM_TEXT_LIMIT - OUTCOME_ROOM);
}

/**
 * Who alone may answer a decision (telegram.group_approvals): said under its prompt, and to
 * anyone else who taps it or replies to it.
 */
export const onlyTheirs = (who: { name: string }): string => `Only ${who.name}, who asked for this, can answer it`;

/** `text` escaped, cut as text (never through "&amp;", which Telegram would refuse) to fit `maxChars` as HTML. */
function escapedWithin(text: string, maxChars: number): string {
  let html = escapeTelegramHtml(excerpt(text, maxChars));
  for (let keep = maxChars; html.length > maxChars;) {
    keep -= html.length - maxChars;
    html = escapeTelegramHtml(excerpt(text, keep));
  }
  return html;
}

/** The prompt's last part once decided: the outcome and who decided, in place of the buttons. */
export function renderSettledHtml(lastPart: string, outcome: DecisionOutcome): string {
  const line = escapedWithin(outcomeText(outcome), OUTCOME_ROOM - 40);
  return `${withoutHint(lastPart)}\n\n<b>${outcomeIcon(outcome)} ${line}</b>`;
}

/** ✅ allowed, ❌ refused, ↩️ asked for something else (an outline), ⏹ nobody's answer needed now. */
export function outcomeIcon(outcome: DecisionOutcome): string {
  if (outcome.decision === "allow") return "✅";
  if (outcome.decision === "deny") return outcome.steered === true ? "↩️" : "❌";
  return "⏹";
}

export function renderInfoParts(info: InfoMessage): string[] {
  const blocks = [`<b>ℹ️ ${escapeTelegramHtml(info.title)}</b>`, ...info.sections.map(sectionHtml)];
  return splitTelegramHtml(blocks.join("\n\n"), TELEGRAM_TEXT_LIMIT);
}

/**
 * Short labels share a row (Allow · Deny); long ones get a row each. A `link` to open comes
 * first, as a button that opens it, where Telegram takes it as one (`linkButtonUrl`).
 */
export function keyboardOf(
  choices: readonly PromptChoice[],
  dataFor: (choice: PromptChoice, index: number) => string,
  link?: string,
): InlineKeyboardMarkup {
  const url = link === undefined ? undefined : linkButtonUrl(link);
  const rows: InlineKeyboardButton[][] = url === undefined ? [] : [[{ text: "🔗 Open the link", url }]];
  let row: InlineKeyboardButton[] = [];
  let rowChars = 0;
  choices.forEach((choice, index) => {
    const label = labelOf(choice);
    const short = label.length <= 16;
    if (row.length > 0 && (!short || row.length >= 3 || rowChars + label.length > 32)) {
      rows.push(row);
      row = [];
      rowChars = 0;
    }
    row.push({ text: label, callback_data: dataFor(choice, index) });
    rowChars += label.length;
    if (!short) {
      rows.push(row);
      row = [];
      rowChars = 0;
    }
  });
  if (row.length > 0) rows.push(row);
  return { inline_keyboard: rows };
}

/**
 * `url` if Telegram takes it for a button: a web page on a named host. Telegram refuses a
 * message whose button links elsewhere ("Wrong HTTP URL" for localhost, "Unsupported URL
 * protocol"), and a loopback address would open on the phone, not where its server is. A link
 * this lets through and Telegram refuses all the same is sent again without its button (the
 * outbox's `link_refused`).
 */
export function linkButtonUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const web = parsed.protocol === "https:" || parsed.protocol === "http:";
  return web && parsed.hostname.includes(".") && !isLocalLink(url) ? url : undefined;
}

/** One button per row: for lists of options (modes, projects). */
export function columnKeyboard(buttons: readonly { label: string; data: string }[]): InlineKeyboardMarkup {
  return {
    inline_keyboard: buttons.map((b) => [{ text: b.label.slice(0, BUTTON_LABEL_CHARS), callback_data: b.data }]),
  };
}

function labelOf(choice: PromptChoice): string {
  // Telegram refuses a button without text.
  const label = choice.label.trim() || choice.id.trim() || "•";
  const marked =
    choice.tone === "allow" && /^(Allow|Approve|Continue)/.test(label)
      ? `✅ ${label}`
      : choice.tone === "deny" && (label === "Deny" || label === "Decline")
        ? `❌ ${label}`
        : label;
  return excerpt(marked, BUTTON_LABEL_CHARS);
}

function sectionHtml(section: PromptSection): string {
  switch (section.kind) {
    case "text":
      return section.label
        ? `<b>${escapeTelegramHtml(section.label)}:</b> ${escapeTelegramHtml(section.text)}`
        : escapeTelegramHtml(section.text);
    case "code":
      return `${section.label ? `<b>${escapeTelegramHtml(section.label)}</b>\n` : ""}<pre>${escapeTelegramHtml(section.text)}</pre>`;
    case "diff": {
      const heading = `<b>${escapeTelegramHtml(diffHeading(section))}</b>`;
      if (section.lines.length === 0) return heading;
      return `${heading}\n<pre>${escapeTelegramHtml(section.lines.map(diffLineText).join("\n"))}</pre>`;
    }
    case "markdown": {
      const body = markdownToTelegramHtml(section.text);
      return section.label ? `<b>${escapeTelegramHtml(section.label)}</b>\n${body}` : body;
    }
    case "fields":
      return section.fields
        .map((f) => `<b>${escapeTelegramHtml(f.name)}:</b> ${escapeTelegramHtml(f.value)}`)
        .join("\n");
  }
}

/** The "a typed reply …" hint no longer applies once the prompt is settled. */
function withoutHint(html: string): string {
  return html.replace(/\n\n<i>[^<]*<\/i>$/, "");
}
