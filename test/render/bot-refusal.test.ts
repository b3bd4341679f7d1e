import { describe, expect, it } from "vitest";
import { botRefusalOf, isWebhookConflict, webhookSite } from "../../src/render/index.js";

describe("Telegram refusing the bot, in words", () => {
  it("names a token Telegram does not know, and leaves other errors to their own words", () => {
    expect(botRefusalOf({ error_code: 404, description: "Not Found" })).toBe(
      "Telegram knows no bot by this token (404: Not Found): it is mistyped, or the bot was deleted. Copy the bot's current token from @BotFather (/mybots, then API Token) into telegram.bot_token or TELECODE_BOT_TOKEN, and start Telecode again.",
    );
    expect(botRefusalOf({ error_code: 401 })).toMatch(/^Telegram refused the bot token \(401\): /);
    expect(botRefusalOf({ error_code: 400, description: "Bad Request: chat not found" })).toBeUndefined();
    expect(botRefusalOf(new Error("socket hang up"))).toBeUndefined();
    expect(botRefusalOf(undefined)).toBeUndefined();
  });

  it("tells a webhook's 409 from another poller's, and shows a webhook's site only", () => {
    expect(isWebhookConflict(409, "Conflict: can't use getUpdates method while webhook is active")).toBe(true);
    expect(isWebhookConflict(409, "Conflict: terminated by other getUpdates request")).toBe(false);
    expect(webhookSite("https://example.com:8443/bot/secret")).toBe("https://example.com:8443");
    expect(webhookSite("not a url")).toBe("an address that is not a URL");
  });
});
