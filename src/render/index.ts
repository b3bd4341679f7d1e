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
export { markdownToTelegramHtml, markdownToTelegramParts, escapeTelegramHtml } from "./telegram-html.js";
export { splitTelegramHtml } from "./telegram-split.js";
export { renderTerminalLine } from "./terminal-lines.js";
export type { TerminalLineOptions } from "./terminal-lines.js";
export { renderProgressHtml, renderProgressSummaryHtml } from "./progress-telegram.js";
export type { ProgressRenderOptions } from "./progress-telegram.js";
export { renderFinalAnswerParts, answerFooterOf, renderRunErrorHtml } from "./telegram-final.js";
export { formatSessionMark, parseSessionMark } from "./session-footer.js";
export type { AnswerFooter, RunErrorMessage } from "./telegram-final.js";
