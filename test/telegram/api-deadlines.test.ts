// Deadlines on Bot API calls, with grammY against the fake Bot API: a call the network swallows
// (the fake reads it and never answers) fails in its call's time, not grammY's 500 s; a long
// poll gets its own timeout and more; an upload lives while its bytes move, however slowly, and
// ends once they stop. A call the computer slept through ends as it wakes, and one made before
// the network changed as that is seen.
import { Bot, InputFile, type ApiCallFn } from "grammy";
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
import { createFakeClock, type FakeClock } from "../support/fake-clock.js";
import { createSleepyClock, type SleepyClock } from "../support/sleepy-clock.js";

const ALICE = 1001;

describe("deadlineMs", () => {
  const deadlines = DEFAULT_BOT_API_DEADLINES;

  it("gives a call 30 s, and a long poll its timeout and 15 s more", () => {
    expect(deadlineMs("sendMessage", { chat_id: 1, text: "hi" }, deadlines)).toBe(30_000);
    expect(deadlineMs("getUpdates", { offset: 5, timeout: 25 }, deadlines)).toBe(40_000);
    expect(deadlineMs("getUpdates", { offset: 5 }, deadlines)).toBe(15_000);
  });

  it("gives an upload a call's 30 s without its bytes moving, and a file it cannot follow Telegram's 50 MB at 16 KiB/s", () => {
    const oneMiB = uploadFile(new Uint8Array(1024 * 1024), "build.log");
    expect(deadlineMs("sendDocument", { chat_id: 1, document: oneMiB }, deadlines)).toBe(30_000);
    const album = [
      { type: "photo", media: uploadFile(new Uint8Array(512 * 1024), "a.png") },
      { type: "photo", media: uploadFile(new Uint8Array(512 * 1024), "b.png") },
    ];
    expect(deadlineMs("sendMediaGroup", { chat_id: 1, media: album }, deadlines)).toBe(30_000);
    const unknown = new InputFile(new Uint8Array(10), "x.bin");
    expect(deadlineMs("sendDocument", { chat_id: 1, document: unknown }, deadlines)).toBe(30_000 + 3_200_000);
    // A file Telegram already has, named by its id, is no upload.
    expect(deadlineMs("sendDocument", { chat_id: 1, document: "BQACAgIAAxk" }, deadlines)).toBe(30_000);
  });
});

describe("withDeadlines", () => {
  const short: BotApiDeadlines = { callMs: 400, pollGraceMs: 400, slowLineBytesPerSecond: 1024 * 1024 };
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

  it("ends an upload nobody answers once its bytes are taken and what buffers hold had time to go out", async () => {
    tg.injectFault("sendDocument", { kind: "silent" });
    const document = uploadFile(new Uint8Array(512 * 1024), "build.log");
    const started = Date.now();
    const failure = await bot.api.sendDocument(ALICE, document).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect((failure as BotApiTimeout).message).toBe(
      "Telegram neither answered sendDocument nor took more of its file for 900 ms (the connection may have dropped)",
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(390 + 500);
  });

  it("lets an upload on a line slower than a call's deadline allows take as long as its bytes need", async () => {
    // 300 KiB at 150 KiB/s: two seconds, five times the call's 400 ms; old rule gave 0.7 s.
    const slowLine = { ...short, slowLineBytesPerSecond: 64 * 1024 };
    const slowBot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
    slowBot.api.config.use(withDeadlines(createSystemClock(), slowLine));
    tg.injectFault("sendDocument", { kind: "slow", bytesPerSecond: 150 * 1024 });
    const started = Date.now();
    const sent = await slowBot.api.sendDocument(ALICE, uploadFile(new Uint8Array(300 * 1024).fill(7), "trace.bin"));
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(sent.document?.file_name).toBe("trace.bin");
    expect(tg.calls("sendDocument")).toHaveLength(1);
  });

  it("ends an upload whose bytes stop moving, saying so; the next call goes through", async () => {
    tg.injectFault("sendDocument", { kind: "slow", bytesPerSecond: 150 * 1024, stallAfterBytes: 100 * 1024 });
    const document = uploadFile(new Uint8Array(300 * 1024), "trace.bin");
    const failure = await bot.api.sendDocument(ALICE, document).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect((failure as BotApiTimeout).message).toMatch(
      /^Telegram neither answered sendDocument nor took more of its file for \d+ ms \(the connection may have dropped\)$/,
    );
    expect(tg.calls("sendDocument")).toHaveLength(0);
    const again = await bot.api.sendDocument(ALICE, uploadFile(new Uint8Array(300 * 1024), "trace.bin"));
    expect(again.document?.file_name).toBe("trace.bin");
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

describe("withDeadlines, following an upload's bytes (a manual clock)", () => {
  // grammY's client stands in as a line that takes the file's pieces at `bytesPerSecond`, each
  // piece's time passing on the manual clock, and is answered `answerAfterMs` after the last.
  let clock: FakeClock;
  beforeEach(() => {
    clock = createFakeClock();
  });

  const aborted = (signal: AbortSignal | undefined, reject: (error: Error) => void): (() => void) => {
    const listener = (): void => reject(new Error("aborted"));
    signal?.addEventListener("abort", listener, { once: true });
    return () => signal?.removeEventListener("abort", listener);
  };
  const wait = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
    new Promise((resolve, reject) => {
      const forget = aborted(signal, (error) => (timer.cancel(), reject(error)));
      const timer = clock.setTimer(ms, () => (forget(), resolve()));
    });

  function line(bytesPerSecond: number, options: { stallAfterBytes?: number; answerAfterMs?: number } = {}): ApiCallFn {
    const call = async (_method: string, payload: unknown, signal?: AbortSignal) => {
      const file = (payload as { document: InputFile }).document;
      let taken = 0;
      for await (const piece of (await file.toRaw()) as AsyncIterable<Uint8Array>) {
        if (taken >= (options.stallAfterBytes ?? Infinity)) await new Promise((_, reject) => aborted(signal, reject));
        await wait((piece.byteLength / bytesPerSecond) * 1000, signal);
        taken += piece.byteLength;
      }
      await wait(options.answerAfterMs ?? 0, signal);
      return { ok: true, result: { message_id: 1 } };
    };
    return call as unknown as ApiCallFn;
  }

  /** Sends `bytes` on `through`, firing the clock's timers until the call settles. */
  async function upload(bytes: number, through: ApiCallFn): Promise<unknown> {
    const transformer = withDeadlines(clock, DEFAULT_BOT_API_DEADLINES);
    const document = uploadFile(new Uint8Array(bytes), "build.zip");
    let settled = false;
    const call = transformer(through, "sendDocument", { chat_id: ALICE, document }).then(
      (answer) => answer,
      (error: unknown) => error,
    );
    void call.finally(() => (settled = true));
    while (!settled) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!settled && !clock.runNext()) throw new Error("stuck: the call waits and no timer is set");
    }
    return call;
  }

  it("keeps an upload alive while a line slower than any rate assumed takes its bytes (2 MiB at 8 KiB/s)", async () => {
    const answer = await upload(2 * 1024 * 1024, line(8 * 1024));
    expect(answer).toEqual({ ok: true, result: { message_id: 1 } });
    expect(clock.now()).toBe(256_000);
  });

  it("ends it a call's 30 s after the line took its last piece, saying so", async () => {
    const failure = await upload(2 * 1024 * 1024, line(8 * 1024, { stallAfterBytes: 1024 * 1024 }));
    expect(failure).toBeInstanceOf(BotApiTimeout);
    expect((failure as BotApiTimeout).message).toBe(
      "Telegram neither answered sendDocument nor took more of its file for 30 s (the connection may have dropped)",
    );
    expect(clock.now()).toBe(128_000 + 30_000);
  });

  it("once every piece is taken, waits for the answer as long as what buffers hold needs on the slowest line", async () => {
    // 1 MiB taken in a second; what the connection may still hold of it needs 64 s at 16 KiB/s.
    expect(await upload(1024 * 1024, line(1024 * 1024, { answerAfterMs: 90_000 }))).toEqual({
      ok: true,
      result: { message_id: 1 },
    });
    const failure = await upload(1024 * 1024, line(1024 * 1024, { answerAfterMs: 200_000 }));
    expect((failure as BotApiTimeout).message).toBe(
      "Telegram neither answered sendDocument nor took more of its file for 94 s (the connection may have dropped)",
    );
    expect(clock.now()).toBe(91_000 + 1000 + 94_000);
  });
});

describe("withDeadlines, when the computer sleeps", () => {
  /** Deadlines far beyond the test's own time: only the wake can end these calls. */
  const long: BotApiDeadlines = { callMs: 600_000, pollGraceMs: 600_000, slowLineBytesPerSecond: 1024 * 1024 };
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
