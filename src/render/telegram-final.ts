// The messages that end a run in Telegram: the final answer (Markdown rendered and split,
// with a footer of cost, turns, duration and session) and the error message with its
// incident id. Pure; the bot decides when to send them.

import { formatDurationMs, formatUsd, runDurationMs, sentence, type ProgressState } from "../domain/index.js";
import { formatSessionMark } from "./session-footer.js";
import { escapeTelegramHtml, renderTelegramMarkdown, type RenderFallback } from "./telegram-html.js";
import { TELEGRAM_TEXT_LIMIT } from "./telegram-html-parse.js";
import { splitTelegramHtml } from "./telegram-split.js";

export type AnswerFooter = {
  costUsd: number;
  turns: number;
  durationMs: number;
  /** The CLI session the answer belongs to (the reply-to-continue target). */
  sessionId?: string;
};

/** The footer facts of a finished run's progress state. */
export function answerFooterOf(state: ProgressState): AnswerFooter {
  return {
    costUsd: state.costUsd,
    turns: state.turns,
    durationMs: runDurationMs(state, state.lastEventAtMs),
    ...(state.sessionId === undefined ? {} : { sessionId: state.sessionId }),
  };
}

/**
 * "$0.0421 · 3 turns · 2 min 5 s · session 1a2b3c4d — reply to continue", in italics. A run that
 * cost nothing (a local command such as /context) says no cost, as its progress line does.
 */
function renderAnswerFooterHtml(footer: AnswerFooter): string {
  const parts = [
    ...(footer.costUsd > 0 ? [formatUsd(footer.costUsd)] : []),
    footer.turns === 1 ? "1 turn" : `${footer.turns} turns`,
    formatDurationMs(footer.durationMs),
  ];
  const session = footer.sessionId === undefined ? "" : escapeTelegramHtml(formatSessionMark(footer.sessionId));
  return `<i>${parts.join(" · ")}${session}</i>`;
}

/** One message of a final answer; only the first notifies, so a long answer buzzes once. */
export type AnswerPart = { html: string; silent: boolean };

export type FinalAnswer = {
  parts: AnswerPart[];
  /** Set when the Markdown could not be rendered and went out as plain text (worth a log line). */
  fallback?: RenderFallback;
};

/**
 * The final answer as messages to send, in order: the Markdown rendered to Telegram HTML, the
 * footer at the end, each part's text within `limit` and labelled "(1/3)" when there are
 * several. An empty answer still says so. Never throws.
 */
export function renderFinalAnswer(
  answerMarkdown: string,
  footer: AnswerFooter,
  limit: number = TELEGRAM_TEXT_LIMIT,
): FinalAnswer {
  const rendered = renderTelegramMarkdown(answerMarkdown);
  const visible = rendered.html.replace(/<[^>]*>/g, "").trim() !== "";
  const html = `${visible ? rendered.html : "<i>(no text in the answer)</i>"}\n\n${renderAnswerFooterHtml(footer)}`;
  const parts = splitTelegramHtml(html, limit, { numbered: true }).map((part, index) => ({
    html: part,
    silent: index > 0,
  }));
  return rendered.fallback === undefined ? { parts } : { parts, fallback: rendered.fallback };
}

export type RunErrorMessage = {
  /** One sentence: what happened. */
  what: string;
  /** One sentence: what the person can do. */
  hint: string;
  /** Short id to find the details in the logs. */
  incidentId: string;
};

/** "❌ What happened. What to do. (incident ab12cd)" — never a stack trace. */
export function renderRunErrorHtml(error: RunErrorMessage): string {
  const text = `${sentence(clip(error.what))} ${sentence(clip(error.hint))}`.trim();
  return (
    splitTelegramHtml(
      `❌ ${escapeTelegramHtml(text)} <i>(incident ${escapeTelegramHtml(error.incidentId)})</i>`,
      TELEGRAM_TEXT_LIMIT,
    )[0] ?? "❌"
  );
}

function clip(text: string): string {
  return text.trim().slice(0, 1000);
}
