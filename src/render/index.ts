// The render layer's public surface: domain state -> text for a transport. Pure.

export {
  parseTelegramHtml,
  validateTelegramHtml,
  telegramHtmlToText,
  TELEGRAM_TEXT_LIMIT,
  TELEGRAM_CAPTION_LIMIT,
} from "./telegram-html-parse.js";
export type {
  TelegramEntity,
  TelegramEntityType,
  TelegramHtmlParse,
  TelegramHtmlProblem,
} from "./telegram-html-parse.js";
export {
  markdownToTelegramHtml,
  markdownToTelegramParts,
  renderTelegramMarkdown,
  escapeTelegramHtml,
} from "./telegram-html.js";
export type { TelegramMarkdown, RenderFallback } from "./telegram-html.js";
export { splitTelegramHtml } from "./telegram-split.js";
export type { SplitOptions } from "./telegram-split.js";
export { renderTerminalLine, TurnSteps } from "./terminal-lines.js";
export { resumeHint, terminalFailureText } from "./terminal-failure.js";
export type { Resumable } from "./terminal-failure.js";
export { displayWidth, fitColumns } from "./terminal-width.js";
export type { TerminalLineOptions } from "./terminal-lines.js";
export { renderProgressHtml, renderProgressSummaryHtml } from "./progress-telegram.js";
export type { ProgressRenderOptions } from "./progress-telegram.js";
export { renderFinalAnswer, answerFooterOf, renderRunErrorHtml } from "./telegram-final.js";
export { formatSessionMark, parseSessionMark } from "./session-footer.js";
export type { AnswerFooter, AnswerPart, FinalAnswer, RunErrorMessage } from "./telegram-final.js";
export { botRefusalOf, isWebhookConflict, webhookRemovedWords, webhookSite } from "./bot-refusal.js";
export { tlsRefusalWords } from "./tls-refusal.js";
