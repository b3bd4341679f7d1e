// Downloading what a person sent, through the fake Bot API with grammY's getFile: the bytes
// arrive; a file over the limit is refused with the limit in the message, before any download.
import { beforeEach, describe, expect, it } from "vitest";
import {
  downloadTelegramFile,
  isMediaError,
  refusalText,
  TELEGRAM_DOWNLOAD_MAX_BYTES,
  type TelegramFileSource,
} from "../../src/media/index.js";
import type { FakeBotApi } from "../support/fake-bot-api/index.js";
import { makePng } from "./samples.js";
import { ALICE, useTelegramFiles } from "./telegram-source.js";

const MB = 1024 * 1024;
const telegram = useTelegramFiles();
let tg: FakeBotApi;
let source: TelegramFileSource;
beforeEach(() => ({ tg, source } = telegram()));

describe("downloadTelegramFile", () => {
  it("fetches the bytes of a photo size the person sent", async () => {
    const png = makePng(64, 48);
    const id = tg.sendPhoto(ALICE, png, { caption: "look" });
    const fileId = tg.message(ALICE, id)!.photo![0]!.fileId;
    const result = await downloadTelegramFile(source, {
      fileId,
      name: "photo.jpg",
      maxBytes: TELEGRAM_DOWNLOAD_MAX_BYTES,
    });
    expect(result.ok && result.value.equals(png)).toBe(true);
    expect(tg.calls("file").map((c) => c.ok)).toEqual([true]);
  });

  it("refuses a 25 MB file with its size and the 20 MB limit, without asking Telegram for it", async () => {
    const id = tg.sendDocument(ALICE, {
      content: Buffer.alloc(25 * MB),
      fileName: "dump.bin",
      mimeType: "application/octet-stream",
    });
    const document = tg.message(ALICE, id)!.document!;
    const result = await downloadTelegramFile(source, {
      fileId: document.fileId,
      name: "dump.bin",
      sizeBytes: 25 * MB,
      maxBytes: TELEGRAM_DOWNLOAD_MAX_BYTES,
    });
    expect(!result.ok && refusalText(result.refusal)).toBe(
      "dump.bin is 25 MB, over the 20 MB limit per file. Compress or split it and send it again.",
    );
    expect(tg.calls("getFile")).toEqual([]);
  });

  it("stops reading past a lower limit, and turns Telegram's refusal into a download error without the token", async () => {
    const id = tg.sendDocument(ALICE, { content: Buffer.alloc(3000), fileName: "a.log", mimeType: "text/plain" });
    const fileId = tg.message(ALICE, id)!.document!.fileId;
    const capped = await downloadTelegramFile(source, { fileId, name: "a.log", maxBytes: 1024 });
    expect(!capped.ok && capped.refusal.message).toBe("a.log is 2.9 KB, over the 1 KB limit per file.");
    const error = await downloadTelegramFile(source, { fileId: "forged", name: "x", maxBytes: MB }).catch(
      (e: unknown) => e,
    );
    expect(isMediaError(error, "media.download_failed")).toBe(true);
    expect(String((error as Error).message)).not.toContain(tg.token);
  });
});
