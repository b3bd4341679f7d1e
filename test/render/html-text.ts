// The text a person reads in Telegram HTML (entities dropped), through the fake Bot API's own
// parser; throws when Telegram would refuse the HTML.
import { parseTelegramHtml } from "../../src/render/index.js";

export function textOf(telegramHtml: string): string {
  const parsed = parseTelegramHtml(telegramHtml);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.text;
}
