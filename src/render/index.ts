// The render layer's public surface: domain state -> text for a transport. Pure.

export {
  parseTelegramHtml,
  validateTelegramHtml,
  telegramHtmlToText,
  TELEGRAM_TEXT_LIMIT,
  TELEGRAM_CAPTION_LIMIT,
} from "./telegram-html-parse.js";
export type { TelegramEntity, TelegramEntityType, TelegramHtmlParse, TelegramHtmlProblem } from "./telegram-html-parse.js";
