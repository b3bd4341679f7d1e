// Downloading what a person sent, through the fake Bot API with grammY's getFile: the bytes
// arrive, on a slow line too; a file over the limit is refused with the limit in the message,
// before any download; a try whose bytes stop coming is made again.
// A `--local` server's absolute paths are read from disk, as that server serves no file URL.
import { appendFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  downloadTelegramFile,
  isMediaError,
  refusalText,
  TELEGRAM_DOWNLOAD_MAX_BYTES,
  type TelegramFile,
  type TelegramFileSource,
} from "../../src/media/index.js";
import { createSystemClock, watchForStall } from "../../src/ports/index.js";
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
    // A refusal is not asked again.
    expect(tg.calls("getFile").filter((c) => c.params["file_id"] === "forged")).toHaveLength(1);
  });

  it("asks again when Telegram fails or the connection drops, for the file and for its bytes", async () => {
    const id = tg.sendDocument(ALICE, {
      content: Buffer.from("ERROR boom\n"),
      fileName: "a.log",
      mimeType: "text/plain",
    });
    const fileId = tg.message(ALICE, id)!.document!.fileId;
    tg.injectFault("getFile", { kind: "network" });
    tg.injectFault("getFile", { kind: "error", code: 502, description: "Bad Gateway" });
    tg.injectFault("file", { kind: "network" });
    const result = await downloadTelegramFile(source, { fileId, name: "a.log", maxBytes: MB });
    expect(result.ok && result.value.toString()).toBe("ERROR boom\n");
    expect(tg.calls("getFile").map((c) => c.ok)).toEqual([false, false, true]);
    expect(tg.calls("file").map((c) => c.ok)).toEqual([false, true]);
  });

  /** The source with the bridge's stall watch, on a quiet spell of 300 ms. */
  const watched = (): TelegramFileSource => ({
    ...source,
    watchTransfer: (onStall) => watchForStall(createSystemClock(), 300, onStall),
  });

  it("tries again a download nobody answers, once nothing came for a while", async () => {
    const id = tg.sendDocument(ALICE, { content: Buffer.from("ok\n"), fileName: "a.log", mimeType: "text/plain" });
    const fileId = tg.message(ALICE, id)!.document!.fileId;
    tg.injectFault("file", { kind: "silent" });
    const result = await downloadTelegramFile(watched(), { fileId, name: "a.log", maxBytes: MB });
    expect(result.ok && result.value.toString()).toBe("ok\n");
    expect(tg.calls("file").map((c) => c.ok)).toEqual([false, true]);
  });

  it("lets a download on a slow line take as long as its bytes need, in one try", async () => {
    // 300 KiB at 150 KiB/s: two seconds, over six times the quiet spell.
    const content = Buffer.alloc(300 * 1024, 7);
    const id = tg.sendDocument(ALICE, { content, fileName: "trace.bin", mimeType: "application/octet-stream" });
    const fileId = tg.message(ALICE, id)!.document!.fileId;
    tg.injectFault("file", { kind: "slow", bytesPerSecond: 150 * 1024 });
    const started = Date.now();
    const result = await downloadTelegramFile(watched(), { fileId, name: "trace.bin", maxBytes: MB });
    expect(result.ok && result.value.equals(content)).toBe(true);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    expect(tg.calls("file")).toHaveLength(1);
  });

  it("tries again a download whose bytes stop coming midway", async () => {
    const content = Buffer.alloc(300 * 1024, 7);
    const id = tg.sendDocument(ALICE, { content, fileName: "trace.bin", mimeType: "application/octet-stream" });
    const fileId = tg.message(ALICE, id)!.document!.fileId;
    tg.injectFault("file", { kind: "slow", bytesPerSecond: 150 * 1024, stallAfterBytes: 100 * 1024 });
    const result = await downloadTelegramFile(watched(), { fileId, name: "trace.bin", maxBytes: MB });
    expect(result.ok && result.value.equals(content)).toBe(true);
    expect(tg.calls("file")).toHaveLength(2);
  });

  it("gives up after three tries, saying Telegram did not hand the file over", async () => {
    const id = tg.sendDocument(ALICE, { content: Buffer.from("x"), fileName: "a.log", mimeType: "text/plain" });
    const fileId = tg.message(ALICE, id)!.document!.fileId;
    tg.injectFault("getFile", { kind: "network" }, { times: 3 });
    const error = await downloadTelegramFile(source, { fileId, name: "a.log", maxBytes: MB }).catch((e: unknown) => e);
    expect(isMediaError(error, "media.download_failed") && error.message).toBe("Telegram did not hand over a.log.");
    expect(tg.calls("getFile")).toHaveLength(3);
  });
});

describe("downloadTelegramFile from a --local Bot API server", () => {
  let workDir: string;
  beforeEach(async () => {
    workDir = await mkdtemp(join(tmpdir(), "telecode-local-bot-api-"));
  });
  afterEach(() => rm(workDir, { recursive: true, force: true }));

  /**
   * The fake as `telegram-bot-api --local` answers getFile: it saves the file in its working
   * folder for the bot (named by the token, as the real one is) and gives that absolute path;
   * the fake, like the real server, answers 404 to a file URL with such a path. `then` changes
   * the answer or the disk afterwards.
   */
  function localSource(then: (file: TelegramFile) => Promise<TelegramFile> | TelegramFile = (file) => file) {
    return {
      ...source,
      getFile: async (fileId: string): Promise<TelegramFile> => {
        const file = await source.getFile(fileId);
        const response = await fetch(`${tg.apiRoot}/file/bot${tg.token}/${file.file_path}`);
        const path = join(workDir, tg.token, file.file_path!);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, Buffer.from(await response.arrayBuffer()));
        return then({ ...file, file_path: path });
      },
    } satisfies TelegramFileSource;
  }

  function sendLog(bytes: number): string {
    const id = tg.sendDocument(ALICE, { content: Buffer.alloc(bytes, "x"), fileName: "a.log", mimeType: "text/plain" });
    return tg.message(ALICE, id)!.document!.fileId;
  }

  it("reads the file from the absolute path getFile gave", async () => {
    const pdf = Buffer.from("%PDF-1.7 a report");
    const id = tg.sendDocument(ALICE, { content: pdf, fileName: "report.pdf", mimeType: "application/pdf" });
    const fileId = tg.message(ALICE, id)!.document!.fileId;
    const result = await downloadTelegramFile(localSource(), { fileId, name: "report.pdf", maxBytes: 2000 * MB });
    expect(result.ok && result.value.equals(pdf)).toBe(true);
  });

  it("refuses a file on disk over the limit, also when getFile gave no size or too small a one", async () => {
    const fileId = sendLog(3000);
    const unsized = await downloadTelegramFile(
      localSource(({ file_size: _size, ...file }) => file),
      { fileId, name: "a.log", maxBytes: 1024 },
    );
    expect(!unsized.ok && refusalText(unsized.refusal)).toBe(
      "a.log is 2.9 KB, over the 1 KB limit per file. Compress or split it and send it again.",
    );
    const grown = await downloadTelegramFile(
      localSource(async (file) => {
        await appendFile(file.file_path!, Buffer.alloc(2000));
        return file;
      }),
      { fileId, name: "a.log", maxBytes: 4096 },
    );
    expect(!grown.ok && grown.refusal.message).toBe("a.log is 4.9 KB, over the 4 KB limit per file.");
  });

  it("says what to do when the path is not on this machine, without the token or the path", async () => {
    const fileId = sendLog(100);
    let path = "";
    const error = await downloadTelegramFile(
      localSource(async (file) => {
        path = file.file_path!;
        await rm(path);
        return file;
      }),
      { fileId, name: "a.log", maxBytes: MB },
    ).catch((e: unknown) => e);
    expect(isMediaError(error, "media.download_failed")).toBe(true);
    const { message, cause } = error as Error;
    expect(message).toBe(
      "Could not read a.log where the Bot API server saved it (ENOENT). Run telegram-bot-api with --local " +
        "on the same machine as Telecode, its files readable by Telecode, and send the file again if the " +
        "server removed it.",
    );
    for (const text of [message, String(cause)]) {
      expect(text).not.toContain(tg.token);
      expect(text).not.toContain(path);
    }
  });
});
