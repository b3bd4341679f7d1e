// Telegram refusing the bot itself, with the real `telecode` as a process of its own: a token it
// refuses (at start, or revoked while running) and another program taking the bot's messages
// are said in words, with what to do, and end the bridge with exit 78 (which its service unit
// does not restart: it would fail alike); a webhook on the bot, which stops polling, is removed
// and said (its address's path, which may hold a secret, left out), unless it is set again soon
// after.
import { describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer } from "../telegram/bridge/rig.js";
import { USER_ID, useWorld } from "./helpers.js";

const newWorld = useWorld();

const FROM_BOTFATHER =
  "Copy the bot's current token from @BotFather (/mybots, then API Token) into telegram.bot_token or TELECODE_BOT_TOKEN, and start Telecode again.";

describe("a bot token Telegram refuses", () => {
  it("at start: says what it means and what to do", async () => {
    const world = await newWorld();
    await world.writeConfig();
    world.tg.injectFault("getMe", { kind: "error", code: 401, description: "Unauthorized" }, { times: 10 });
    const exit = await world.spawnTelecode(["--config", world.configPath]).exited;
    expect(exit.code).toBe(78);
    expect(exit.stderr).toBe(
      `telecode: could not start: Telegram refused the bot token (401: Unauthorized): it was revoked or replaced in @BotFather. ${FROM_BOTFATHER}\n`,
    );
  });

  it("revoked while running, or the bot's messages taken by another program: says which, and exits 78 (not restarted by the service)", async () => {
    const refusals = [
      {
        code: 401,
        description: "Unauthorized",
        said: `Telegram refused the bot token (401: Unauthorized): it was revoked or replaced in @BotFather. ${FROM_BOTFATHER}`,
      },
      {
        code: 409,
        description:
          "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
        said: "Another program is taking this bot's messages (409: Conflict: terminated by other getUpdates request; make sure that only one bot instance is running): another Telecode, here or on another computer, or another program using the same token. Stop it, or give this Telecode a bot of its own (@BotFather, /newbot), and start Telecode again.",
      },
    ];
    for (const { code, description, said } of refusals) {
      const world = await newWorld();
      await world.writeConfig();
      const serve = world.spawnTelecode(["--config", world.configPath]);
      await serve.started;
      world.tg.injectFault("getUpdates", { kind: "error", code, description }, { times: 10 });
      const exit = await serve.exited;
      expect(exit.code).toBe(78);
      expect(exit.stderr.split("\n").slice(1)).toEqual([`telecode: ${said}`, ""]);
    }
  });
});

describe("a webhook on the bot", () => {
  it("is removed, said without its path, and the bot's messages come to Telecode; set again soon after, it ends polling", async () => {
    const world = await newWorld([reply.text("Polling again.")]);
    await world.writeConfig();
    world.tg.addUser({ id: USER_ID });
    world.tg.setWebhook("https://hooks.example.com/bot/secret-path-123");
    const serve = world.spawnTelecode(["--config", world.configPath]);
    await serve.started;
    world.tg.sendText(USER_ID, "Are you there?");
    await world.tg.waitForBotMessage(USER_ID, isAnswer("Polling again."), { timeoutMs: 60_000 });
    expect(world.tg.webhookUrl).toBe("");
    expect(serve.stderr()).toContain(
      "telecode: This bot had a webhook (https://hooks.example.com); Telegram sends a bot's messages to a webhook or to polling, not both, so Telecode removed it.\n",
    );
    expect(serve.stderr()).not.toContain("secret-path");

    // Another program sets it again: Telecode does not fight it.
    world.tg.setWebhook("https://hooks.example.com/bot/secret-path-123");
    const exit = await serve.exited;
    expect(exit.code).toBe(78);
    expect(exit.stderr).toContain(
      "telecode: This bot has a webhook, so Telegram sends its messages there, not to Telecode (409: Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first); Telecode removes one it finds, but this one came back or could not be removed. Stop whatever program uses this token to set it, or give Telecode a bot of its own (@BotFather, /newbot), and start Telecode again.\n",
    );
    expect(world.tg.webhookUrl).toBe("https://hooks.example.com/bot/secret-path-123");
  }, 90_000);
});
