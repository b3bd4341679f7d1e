// A fake Bot API with one person in it, and the file source src/media downloads through
// (grammY's getFile against the fake), fresh for each test.
import { Bot } from "grammy";
import { afterEach, beforeEach } from "vitest";
import type { TelegramFileSource } from "../../src/media/index.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";

export const ALICE = 1001;

/** Call at module level; the returned function gives the current test's fake and source. */
export function useTelegramFiles(): () => { tg: FakeBotApi; source: TelegramFileSource } {
  let current: { tg: FakeBotApi; source: TelegramFileSource } | undefined;
  beforeEach(async () => {
    const tg = await startFakeBotApi();
    tg.addUser({ id: ALICE });
    const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    current = { tg, source: { apiRoot: tg.apiRoot, token: tg.token, getFile: (fileId) => bot.api.getFile(fileId) } };
  });
  afterEach(() => current?.tg.close());
  return () => {
    if (current === undefined) throw new Error("useTelegramFiles: no test is running");
    return current;
  };
}
