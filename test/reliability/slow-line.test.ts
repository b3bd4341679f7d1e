// A slow line between Telecode and Telegram (the laptop on a phone's hotspot with a weak signal,
// a plan throttled to a crawl): files take as long as their bytes need, both ways. A transfer is
// given up only once its bytes stop moving, so a file sent from the phone reaches Claude, and one
// Claude leaves in the outbox reaches the phone, each in one try, though they take several times
// a call's deadline (short here); what the chat is sent meanwhile does not wait behind an upload.
// The fake Bot API paces the bytes.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer, startRig, TEST_TUNING, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({
    tuning: {
      ...TEST_TUNING,
      botApiDeadlines: { callMs: 1000, pollGraceMs: 1500, slowLineBytesPerSecond: 32 * 1024 },
    },
  });
});
afterAll(async () => {
  await rig?.dispose();
});

/** 200 KiB at 50 KiB/s: four seconds a file, where a rate of 100 KiB/s assumed would allow three. */
const FILE_BYTES = 200 * 1024;
const LINE = { kind: "slow", bytesPerSecond: 50 * 1024 } as const;

/** How many requests of `method` reached the fake Bot API (a try cut midway is never logged as a call). */
const tries = (method: string): number => rig.tg.arrivals().filter((a) => a.method === method).length;

/** A build log's worth of text, `bytes` long. */
function buildLog(bytes: number): Buffer {
  const line = "INFO compiled module in 12 ms\n";
  return Buffer.from(line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
}

describe("on a slow line", () => {
  it("a file sent from the phone is fetched in one try and reaches Claude whole", async () => {
    const chat = rig.user(1001);
    const log = buildLog(FILE_BYTES);
    rig.script("[slow-in]", [reply.text("The build compiled every module.")]);
    rig.tg.injectFault("file", LINE);
    rig.tg.sendDocument(
      chat,
      { content: log, fileName: "build.log", mimeType: "text/plain" },
      { caption: "did it build? [slow-in]" },
    );
    await rig.botMessage(chat, isAnswer("The build compiled every module."));
    expect(readFileSync(join(rig.ws.cwd, ".telecode/uploads/build.log")).equals(log)).toBe(true);
    expect(tries("file")).toBe(1);
  });

  it("a file Claude leaves in the outbox reaches the phone in one try, and holds up nothing sent after it", async () => {
    const chat = rig.user(1002);
    const log = buildLog(2 * FILE_BYTES); // eight seconds on this line
    rig.script("[slow-out]", [
      reply.dynamic(() => {
        mkdirSync(join(rig.ws.cwd, ".telecode/outbox"), { recursive: true });
        writeFileSync(join(rig.ws.cwd, ".telecode/outbox/build.log"), log);
        return reply.text("The build log is in the outbox.");
      }),
    ]);
    rig.tg.injectFault("sendDocument", LINE);
    rig.tg.sendText(chat, "Send me the build log [slow-out]");
    await rig.botMessage(chat, isAnswer("The build log is in the outbox."));
    // While the log is on its way up, the next request's approval is asked, and answered.
    rig.script("[slow-next]", [
      reply.tool("Write", { file_path: join(rig.ws.cwd, "notes.md"), content: "flaky: auth.test.ts\n" }),
      reply.text("Noted."),
    ]);
    rig.tg.sendText(chat, "Note which test is flaky [slow-next]");
    const prompt = await rig.botMessage(chat, (m) => m.buttons.some((b) => b.text === "✅ Allow"));
    expect(rig.tg.botMessages(chat).filter((m) => m.document !== undefined)).toEqual([]);
    rig.tg.tapButton(chat, prompt.messageId, "✅ Allow");
    await rig.botMessage(chat, isAnswer("Noted."));
    const file = await rig.botMessage(chat, (m) => m.document?.fileName === "build.log");
    expect(file.document?.content.equals(log)).toBe(true);
    expect(tries("sendDocument")).toBe(1);
  });
});
