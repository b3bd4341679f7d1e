// From what a person sent in Telegram (through the fake Bot API) to what the run gets: the
// right photo size inline, a PDF inline, a log saved in the project, a voice note as text.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import {
  buildRunContent,
  createTranscriber,
  DEFAULT_DENY_GLOBS,
  receiveDocument,
  receiveDocumentAsFile,
  receivePhoto,
  receiveVoice,
  refusalText,
  type TelegramFileSource,
  type UploadLimits,
} from "../../src/media/index.js";
import type { FakeBotApi } from "../support/fake-bot-api/index.js";
import { startFakeTranscription, transcriptionReply } from "../support/fake-transcription/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { makePdf, makePng } from "./samples.js";
import { ALICE, useTelegramFiles } from "./telegram-source.js";

const MB = 1024 * 1024;
const tempDir = useTempDirs("incoming");
const limits: UploadLimits = {
  maxFileBytes: 20 * MB,
  maxMessageBytes: 50 * MB,
  allowedTypes: ["*"],
  denyGlobs: DEFAULT_DENY_GLOBS,
};
const telegram = useTelegramFiles();
let tg: FakeBotApi;
let source: TelegramFileSource;
beforeEach(() => ({ tg, source } = telegram()));

function place() {
  const projectRoot = join(tempDir(), "project");
  mkdirSync(projectRoot);
  return { projectRoot, uploadsDir: ".telecode/uploads" };
}

describe("receivePhoto", () => {
  it("downloads the largest size within 2000 px and makes it the image block before the caption", async () => {
    const sizes = [
      { width: 90, height: 60, content: makePng(90, 60) },
      { width: 1280, height: 853, content: makePng(1280, 853) },
      { width: 2560, height: 1706, content: makePng(2560, 1706) },
    ];
    const id = tg.sendPhoto(ALICE, sizes, { caption: "what is wrong on this page?" });
    const message = tg.message(ALICE, id)!;
    const refs = message.photo!.map((s) => ({
      fileId: s.fileId,
      width: s.width,
      height: s.height,
      fileSizeBytes: s.content.length,
    }));
    const image = await receivePhoto(source, refs);
    if (!image.ok) throw new Error(refusalText(image.refusal));
    expect(image.value.info).toEqual({ mediaType: "image/png", width: 1280, height: 853 });
    expect(Buffer.from(image.value.bytes).equals(sizes[1]!.content)).toBe(true);
    expect(buildRunContent({ text: message.text, images: [image.value] })).toEqual([
      { type: "image", mediaType: "image/png", base64: sizes[1]!.content.toString("base64") },
      { type: "text", text: "what is wrong on this page?" },
    ]);
  });
});

describe("receiveDocument", () => {
  it("keeps a PDF inline, saves a log in the project, and takes an image file as an image", async () => {
    const where = place();
    const pdf = makePdf("spec");
    const sent = [
      tg.sendDocument(ALICE, { content: pdf, fileName: "spec.pdf", mimeType: "application/pdf" }),
      tg.sendDocument(ALICE, {
        content: Buffer.from("ERROR boom\n"),
        fileName: "../server.log",
        mimeType: "text/plain",
      }),
      tg.sendDocument(ALICE, { content: makePng(300, 200), fileName: "shot.png", mimeType: "image/png" }),
    ].map((id) => tg.message(ALICE, id)!.document!);
    const received = await Promise.all(
      sent.map((d) =>
        receiveDocument(source, where, limits, {
          fileId: d.fileId,
          fileName: d.fileName,
          mimeType: d.mimeType,
          sizeBytes: d.content.length,
        }),
      ),
    );
    expect(received.map((r) => (r.ok ? r.value.kind : r.refusal.code))).toEqual(["pdf", "saved", "image"]);
    const saved = received[1]!.ok && received[1]!.value.kind === "saved" ? received[1]!.value.saved : undefined;
    expect(saved).toEqual({ path: ".telecode/uploads/server.log", sizeBytes: 11, mediaType: "text/plain" });
    expect(readFileSync(join(where.projectRoot, saved!.path), "utf8")).toBe("ERROR boom\n");
  });

  it("saves a PDF over 10 MB instead of inlining it, and says why; as an answer, even a small PDF is saved", async () => {
    const where = place();
    const big = Buffer.concat([makePdf("big"), Buffer.alloc(11 * MB)]);
    const bigDoc = tg.message(
      ALICE,
      tg.sendDocument(ALICE, { content: big, fileName: "big.pdf", mimeType: "application/pdf" }),
    )!.document!;
    const received = await receiveDocument(source, where, limits, {
      fileId: bigDoc.fileId,
      fileName: "big.pdf",
      mimeType: "application/pdf",
    });
    expect(received.ok && received.value).toEqual({
      kind: "saved",
      saved: { path: ".telecode/uploads/big.pdf", sizeBytes: big.length, mediaType: "application/pdf" },
      notInline: "big.pdf is 11 MB, and PDFs over 10 MB are not shown to Claude whole.",
    });
    const small = tg.message(
      ALICE,
      tg.sendDocument(ALICE, { content: makePdf("s"), fileName: "s.pdf", mimeType: "application/pdf" }),
    )!.document!;
    const asFile = await receiveDocumentAsFile(source, where, limits, {
      fileId: small.fileId,
      fileName: "s.pdf",
      mimeType: "application/pdf",
    });
    expect(asFile.ok && asFile.value.path).toBe(".telecode/uploads/s.pdf");
  });

  it("refuses a 25 MB document with the 20 MB limit before downloading it", async () => {
    const id = tg.sendDocument(ALICE, {
      content: Buffer.alloc(25 * MB),
      fileName: "dump.bin",
      mimeType: "application/octet-stream",
    });
    const doc = tg.message(ALICE, id)!.document!;
    const bigLimits = { ...limits, maxFileBytes: 100 * MB, maxMessageBytes: 100 * MB };
    const result = await receiveDocument(source, place(), bigLimits, {
      fileId: doc.fileId,
      fileName: "dump.bin",
      mimeType: doc.mimeType,
      sizeBytes: doc.content.length,
    });
    expect(!result.ok && refusalText(result.refusal)).toBe(
      "dump.bin is 25 MB, over the 20 MB limit per file. Compress or split it and send it again.",
    );
    expect(tg.calls("getFile")).toEqual([]);
  });
});

describe("receiveVoice", () => {
  it("sends the voice note's bytes to the transcription server and returns the words", async () => {
    const server = await startFakeTranscription([transcriptionReply.text("add a test for the parser")]);
    try {
      const made = createTranscriber(
        { apiRoot: server.apiRoot, model: "whisper-1", apiKeyEnv: "", language: "", timeoutSeconds: 10 },
        {},
      );
      if (!made.ok) throw new Error(refusalText(made.refusal));
      const voice = Buffer.from("OggS opus frames");
      const id = tg.sendVoice(ALICE, { content: voice, durationS: 2 });
      const stored = tg.message(ALICE, id)!.voice!;
      const text = await receiveVoice(source, made.value, {
        fileId: stored.fileId,
        mimeType: stored.mimeType,
        sizeBytes: voice.length,
        durationS: 2,
      });
      expect(text).toEqual({ ok: true, value: "add a test for the parser" });
      expect(server.requests()[0]!.file!.bytes.equals(voice)).toBe(true);
    } finally {
      await server.close();
    }
  });
});
