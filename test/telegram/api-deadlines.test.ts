// Deadlines on Bot API calls, with grammY against the fake Bot API: a call the network swallows
// (the fake reads it and never answers) fails in its call's time, not grammY's 500 s; a long
// poll gets its own timeout and more; an upload gets time for its bytes. A call the computer
// slept through ends as it wakes, and one made before the network changed as that is seen.
import { Bot, InputFile } from "grammy";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSystemClock, watchForWakes, type WakeWatch } from "../../src/ports/index.js";
import {
  BotApiTimeout,
  DEFAULT_BOT_API_DEADLINES,
  deadlineMs,
  uploadFile,
  withDeadlines,
  type BotApiDeadlines,
} from "../../src/telegram/api-deadlines.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";
import { createSleepyClock, type SleepyClock } from "../support/sleepy-clock.js";

const ALICE = 1001;

describe("deadlineMs", () => {
  const deadlines = DEFAULT_BOT_API_DEADLINES;

  it("gives a call 30 s, and a long poll its timeout and 15 s more", () => {
    expect(deadlineMs("sendMessage", { chat_id: 1, text: "hi" }, deadlines)).toBe(30_000);
    expect(deadlineMs("getUpdates", { offset: 5, timeout: 25 }, deadlines)).toBe(40_000);
    expect(deadlineMs("getUpdates", { offset: 5 }, deadlines)).toBe(15_000);
  });

  it("gives an upload time for its bytes at 100 KiB/s, and one of unknown size Telegram's 50 MB worth", () => {
    const oneMiB = uploadFile(new Uint8Array(1024 * 1024), "build.log");
    expect(deadlineMs("sendDocument", { chat_id: 1, document: oneMiB }, deadlines)).toBe(30_000 + 10_240);
    const album = [
      { type: "photo", media: uploadFile(new Uint8Array(512 * 1024), "a.png") },
      { type: "photo", media: uploadFile(new Uint8Array(512 * 1024), "b.png") },
    ];
    expect(deadlineMs("sendMediaGroup", { chat_id: 1, media: album }, deadlines)).toBe(30_000 + 10_240);
    const unknown = new InputFile(new Uint8Array(10), "x.bin");
    expect(deadlineMs("sendDocument", { chat_id: 1, document: unknown }, deadlines)).toBe(30_000 + 512_000);
    // A file Telegram already has, named by its id, is no upload.
    expect(deadlineMs("sendDocument", { chat_id: 1, document: "BQACAgIAAxk" }, deadlines)).toBe(30_000);
  });
});

describe("withDeadlines", () => {
  const short: BotApiDeadlines = { callMs: 400, pollGraceMs: 400, uploadBytesPerSecond: 1024 * 1024 };
  let tg: FakeBotApi;
  let bot: Bot;

  beforeEach(async () => {
    tg = await startFakeBotApi();
    tg.addUser({ id: ALICE, firstName: "Alice" });
    bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    bot.api.config.use(withDeadlines(createSystemClock(), short));
  });
  afterEach(async () => {
    await tg.close();
  });

  it("ends a call nobody answers at its deadline, saying so; the next call goes through", async () => {
    tg.injectFault("sendMessage", { kind: "silent" });
    const started = Date.now();
    const failure = await bot.api.sendMessage(ALICE, "first").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect((failure as BotApiTimeout).message).toBe(
      "Telegram did not answer sendMessage within 400 ms (the connection may have dropped)",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    // Carries no error_code: the outbox and polling treat it as a dropped connection.
    expect(failure).not.toHaveProperty("error_code");
    const sent = await bot.api.sendMessage(ALICE, "second");
    expect(tg.botMessages(ALICE).map((m) => m.text)).toEqual(["second"]);
    expect(sent.text).toBe("second");
  });

  it("lets a long poll wait out its own timeout, longer than a call's deadline", async () => {
    const updates = await bot.api.getUpdates({ timeout: 1 });
    expect(updates).toEqual([]);
  });

  it("ends a long poll nobody answers once its timeout and the grace are over", async () => {
    tg.injectFault("getUpdates", { kind: "silent" });
    const started = Date.now();
    const failure = await bot.api.getUpdates({ timeout: 1 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1390);
  });

  it("ends an upload nobody answers once its bytes' time is over too", async () => {
    tg.injectFault("sendDocument", { kind: "silent" });
    const document = uploadFile(new Uint8Array(512 * 1024), "build.log");
    const started = Date.now();
    const failure = await bot.api.sendDocument(ALICE, document).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390 + 500);
  });

  it("a call its caller aborts ends as aborted, not as timed out", async () => {
    tg.injectFault("sendMessage", { kind: "silent" });
    const controller = new AbortController();
    const call = bot.api.sendMessage(ALICE, "never", {}, controller.signal as never).catch((error: unknown) => error);
    setTimeout(() => controller.abort(), 50);
    const failure = await call;
    expect(failure).toBeInstanceOf(Error);
    expect(failure).not.toBeInstanceOf(BotApiTimeout);
  });
});

describe("withDeadlines, when the computer sleeps", () => {
  /** Deadlines far beyond the test's own time: only the wake can end these calls. */
  const long: BotApiDeadlines = { callMs: 600_000, pollGraceMs: 600_000, uploadBytesPerSecond: 1024 * 1024 };
  let tg: FakeBotApi;
  let bot: Bot;
  let clock: SleepyClock;
  let wakes: WakeWatch;
  let addresses: string;

  beforeEach(async () => {
    tg = await startFakeBotApi();
    tg.addUser({ id: ALICE, firstName: "Alice" });
    clock = createSleepyClock();
    addresses = "192.168.1.20";
    wakes = watchForWakes(clock, { lookEveryMs: 20, addresses: () => addresses });
    bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    bot.api.config.use(withDeadlines(clock, long, wakes));
  });
  afterEach(async () => {
    wakes.stop();
    await tg.close();
  });

  it("ends a long poll the computer slept through as it wakes, saying so; the next poll goes through", async () => {
    tg.injectFault("getUpdates", { kind: "silent" });
    const poll = bot.api.getUpdates({ timeout: 1 }).catch((error: unknown) => error);
    await tg.waitFor(() => tg.calls("getUpdates").some((c) => c.description === "network fault: no answer"), {
      what: "a getUpdates left unanswered",
    });
    clock.sleep(8 * 3_600_000 + 3 * 60_000);
    const failure = await poll;
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect((failure as BotApiTimeout).message).toBe(
      "the computer slept 8 h 3 min while getUpdates waited for Telegram (its connection is taken for gone)",
    );
    expect(failure).not.toHaveProperty("error_code");
    expect(await bot.api.getUpdates({ timeout: 0 })).toEqual([]);
  });

  it("ends a long poll made before the network changed (another Wi-Fi, a VPN), saying so", async () => {
    tg.injectFault("getUpdates", { kind: "silent" });
    const poll = bot.api.getUpdates({ timeout: 1 }).catch((error: unknown) => error);
    await tg.waitFor(() => tg.calls("getUpdates").some((c) => c.description === "network fault: no answer"), {
      what: "a getUpdates left unanswered",
    });
    await new Promise((resolve) => setTimeout(resolve, 60));
    addresses = "10.8.0.2 192.168.1.20";
    const failure = await poll;
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect((failure as BotApiTimeout).message).toBe(
      "the network changed while getUpdates waited for Telegram (its connection is taken for gone)",
    );
  });

  it("leaves a call made after the wake alone", async () => {
    clock.sleep(3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 60));
    const sent = await bot.api.sendMessage(ALICE, "good morning");
    expect(sent.text).toBe("good morning");
  });
});
