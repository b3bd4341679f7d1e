// What Telegram's refusal of the bot itself means (its token, or its updates taken elsewhere),
// in words for the person running Telecode: getMe at start, getUpdates while polling. Pure.

const FROM_BOTFATHER =
  "Copy the bot's current token from @BotFather (/mybots, then API Token) into telegram.bot_token or TELECODE_BOT_TOKEN, and start Telecode again.";

/** Where a webhook pointed, without its path (which may hold a secret). */
export function webhookSite(url: string | undefined): string {
  if (url === undefined || url === "") return "an address Telegram did not say";
  try {
    return new URL(url).origin;
  } catch {
    return "an address that is not a URL";
  }
}

/** Said when Telecode removed a webhook it found on the bot (pointing at `site`). */
export function webhookRemovedWords(site: string): string {
  return `This bot had a webhook (${site}); Telegram sends a bot's messages to a webhook or to polling, not both, so Telecode removed it.`;
}

/** A 409 that a webhook set on the bot causes: Telegram delivers to one or the other. */
export function isWebhookConflict(code: unknown, description: unknown): boolean {
  return code === 409 && typeof description === "string" && /webhook/i.test(description);
}

/** What a Bot API error with this code says about the bot, and what to do; undefined for any other error. */
function botRefusalWords(code: unknown, description: unknown): string | undefined {
  const said = typeof description === "string" && description !== "" ? `: ${description}` : "";
  if (code === 401)
    return `Telegram refused the bot token (401${said}): it was revoked or replaced in @BotFather. ${FROM_BOTFATHER}`;
  if (code === 404)
    return `Telegram knows no bot by this token (404${said}): it is mistyped, or the bot was deleted. ${FROM_BOTFATHER}`;
  if (isWebhookConflict(code, description))
    return `This bot has a webhook, so Telegram sends its messages there, not to Telecode (409${said}); Telecode removes one it finds, but this one came back or could not be removed. Stop whatever program uses this token to set it, or give Telecode a bot of its own (@BotFather, /newbot), and start Telecode again.`;
  if (code === 409)
    return `Another program is taking this bot's messages (409${said}): another Telecode, here or on another computer, or another program using the same token. Stop it, or give this Telecode a bot of its own (@BotFather, /newbot), and start Telecode again.`;
  return undefined;
}

/** The words for a grammY error (error_code and description) from the bot's own calls; undefined when it is not a refusal. */
export function botRefusalOf(error: unknown): string | undefined {
  const { error_code: code, description } = (error ?? {}) as { error_code?: unknown; description?: unknown };
  return botRefusalWords(code, description);
}
