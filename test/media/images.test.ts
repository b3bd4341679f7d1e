// Image facts from headers, Telegram's photo sizes against the Messages API limits, and the
// user content a run starts with.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  answerWithFiles,
  buildRunContent,
  checkInlineImages,
  isInlinePdf,
  pickPhotoSize,
  readImageFiles,
  readImageInfo,
  refusalText,
  savedFilesText,
} from "../../src/media/index.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { makeGifHeader, makeJpegHeader, makePdf, makePng, makeWebpHeader } from "./samples.js";

const tempDir = useTempDirs("images");

describe("readImageInfo", () => {
  it("reads type and size from PNG, JPEG, GIF and the three WebP encodings", () => {
    expect(readImageInfo(makePng(640, 480))).toEqual({ mediaType: "image/png", width: 640, height: 480 });
    expect(readImageInfo(makeJpegHeader(4032, 3024))).toEqual({ mediaType: "image/jpeg", width: 4032, height: 3024 });
    expect(readImageInfo(makeJpegHeader(800, 600, 0xc2))).toEqual({ mediaType: "image/jpeg", width: 800, height: 600 });
    expect(readImageInfo(makeGifHeader(320, 200))).toEqual({ mediaType: "image/gif", width: 320, height: 200 });
    expect(readImageInfo(makeWebpHeader(1000, 750, "VP8 "))).toEqual({
      mediaType: "image/webp",
      width: 1000,
      height: 750,
    });
    expect(readImageInfo(makeWebpHeader(1000, 750, "VP8L"))).toEqual({
      mediaType: "image/webp",
      width: 1000,
      height: 750,
    });
    expect(readImageInfo(makeWebpHeader(9000, 300, "VP8X"))).toEqual({
      mediaType: "image/webp",
      width: 9000,
      height: 300,
    });
  });

  it("says undefined for other files and for headers cut short", () => {
    expect(readImageInfo(Buffer.from("%PDF-1.4 not an image"))).toBeUndefined();
    expect(readImageInfo(makePdf("x"))).toBeUndefined();
    expect(readImageInfo(makePng(10, 10).subarray(0, 20))).toBeUndefined();
    expect(readImageInfo(makeJpegHeader(10, 10).subarray(0, 12))).toBeUndefined();
    expect(readImageInfo(Buffer.alloc(0))).toBeUndefined();
  });

  it("never throws, whatever the bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom(0, 1, 2), (tail, kind) => {
        const head = [Buffer.from([0xff, 0xd8]), Buffer.from("RIFF\0\0\0\0WEBPVP8X"), Buffer.from("GIF89a")][kind]!;
        const info = readImageInfo(Buffer.concat([head, tail]));
        expect(info === undefined || (info.width > 0 && info.height > 0)).toBe(true);
      }),
    );
  });
});

describe("pickPhotoSize", () => {
  const sizes = [
    { fileId: "s", width: 90, height: 68, fileSizeBytes: 1_500 },
    { fileId: "m", width: 800, height: 600, fileSizeBytes: 60_000 },
    { fileId: "l", width: 1280, height: 960, fileSizeBytes: 150_000 },
    { fileId: "xl", width: 2560, height: 1920, fileSizeBytes: 600_000 },
  ];

  it("takes the largest size within 2000 px, so a long session stays under the API's many-images rule", () => {
    expect(pickPhotoSize(sizes)?.fileId).toBe("l");
    expect(pickPhotoSize([...sizes].reverse())?.fileId).toBe("l");
  });

  it("passes over a size whose bytes would exceed 5 MB as base64, and says undefined when nothing fits", () => {
    expect(
      pickPhotoSize([sizes[1]!, { fileId: "heavy", width: 1500, height: 1000, fileSizeBytes: 4_000_000 }])?.fileId,
    ).toBe("m");
    expect(pickPhotoSize([sizes[3]!])).toBeUndefined();
    expect(pickPhotoSize([])).toBeUndefined();
  });
});

describe("checkInlineImages", () => {
  it("accepts images within the limits, with their type and size", () => {
    const result = checkInlineImages([{ name: "a.png", bytes: makePng(800, 600) }]);
    expect(result.ok && result.value.map((i) => i.info)).toEqual([{ mediaType: "image/png", width: 800, height: 600 }]);
  });

  it("refuses an image over 8000 px, naming the size and the limit", () => {
    const result = checkInlineImages([{ name: "wide.jpg", bytes: makeJpegHeader(9000, 1000) }]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.refusal.code).toBe("media.image_too_large");
    expect(refusalText(result.refusal)).toBe(
      "wide.jpg is 9000×1000 pixels; Claude takes images up to 8000×8000. Scale it down first, or send it in Telegram as a photo (Telegram makes photos smaller).",
    );
  });

  it("applies 2000 px once a message holds more than 20 images, and refuses more than 100", () => {
    const image = { name: "shot.jpg", bytes: makeJpegHeader(2400, 1200) };
    expect(checkInlineImages(Array.from({ length: 20 }, () => image)).ok).toBe(true);
    const many = checkInlineImages(Array.from({ length: 21 }, () => image));
    expect(!many.ok && many.refusal.message).toContain("up to 2000×2000 when a message has more than 20");
    const tooMany = checkInlineImages(Array.from({ length: 101 }, () => ({ name: "s.png", bytes: makePng(2, 2) })));
    expect(!tooMany.ok && tooMany.refusal.code).toBe("media.too_many_images");
  });

  it("refuses bytes over 5 MB as base64 and files that are no image", () => {
    const big = Buffer.concat([makeJpegHeader(1000, 1000), Buffer.alloc(4 * 1024 * 1024)]);
    const heavy = checkInlineImages([{ name: "big.jpg", bytes: big }]);
    expect(!heavy.ok && heavy.refusal.message).toBe(
      "big.jpg is 4 MB; Claude takes images up to 3.8 MB (5 MB as base64).",
    );
    const text = checkInlineImages([{ name: "notes.txt", bytes: Buffer.from("hello") }]);
    expect(!text.ok && text.refusal.code).toBe("media.image_unreadable");
  });
});

describe("buildRunContent", () => {
  const png = makePng(4, 3);
  const image = { name: "photo.jpg", bytes: png, info: { mediaType: "image/png" as const, width: 4, height: 3 } };

  it("puts images first, then the caption as the text block", () => {
    expect(buildRunContent({ text: "what is wrong on this page?", images: [image] })).toEqual([
      { type: "image", mediaType: "image/png", base64: png.toString("base64") },
      { type: "text", text: "what is wrong on this page?" },
    ]);
  });

  it("says 'Here is an image.' without a caption, and counts several", () => {
    expect(buildRunContent({ text: " ", images: [image] })).toContainEqual({ type: "text", text: "Here is an image." });
    expect(buildRunContent({ text: "", images: [image, image, image] })).toContainEqual({
      type: "text",
      text: "Here are 3 images.",
    });
  });

  it("sends a small PDF as a document block with its name, and a big one is not inline", () => {
    const pdf = makePdf("hello");
    expect(buildRunContent({ text: "summarise", pdfs: [{ name: "spec.pdf", bytes: pdf }] })).toEqual([
      {
        type: "document",
        mediaType: "application/pdf",
        base64: pdf.toString("base64"),
        title: "spec.pdf",
      },
      { type: "text", text: "summarise" },
    ]);
    expect(isInlinePdf("application/pdf", "spec.pdf", 2_000_000)).toBe(true);
    expect(isInlinePdf(undefined, "SPEC.PDF", 2_000_000)).toBe(true);
    expect(isInlinePdf("application/pdf", "big.pdf", 11 * 1024 * 1024)).toBe(false);
    expect(isInlinePdf("text/plain", "notes.txt", 10)).toBe(false);
  });

  it("tells Claude the relative path, size and type of saved files, before the person's words", () => {
    const saved = [
      { path: ".telecode/uploads/server.log", sizeBytes: 36_045, mediaType: "text/plain" },
      { path: ".telecode/uploads/report_1.pdf", sizeBytes: 12 * 1024 * 1024, mediaType: "application/pdf" },
    ];
    expect(buildRunContent({ text: "why does it crash?", saved })).toBe(
      "I sent you 2 files; they are saved in the project:\n" +
        "- .telecode/uploads/server.log (35.2 KB, text/plain)\n" +
        "- .telecode/uploads/report_1.pdf (12 MB, application/pdf)\n\n" +
        "why does it crash?",
    );
    expect(savedFilesText([saved[0]!])).toBe(
      "I sent you a file; it is saved in the project at .telecode/uploads/server.log (35.2 KB, text/plain).",
    );
  });

  it("an answer with files tells Claude where they are and shows the person their names", () => {
    const saved = [
      { path: ".telecode/uploads/server.log", sizeBytes: 36_045, mediaType: "text/plain" },
      { path: ".telecode/uploads/photo_1.png", sizeBytes: 74, mediaType: "image/png" },
    ];
    expect(answerWithFiles("  this one ", saved)).toEqual({
      text: `this one\n\n${savedFilesText(saved)}`,
      shown: "this one 📎 server.log, photo_1.png",
    });
    expect(answerWithFiles("", [saved[1]!])).toEqual({ text: savedFilesText([saved[1]!]), shown: "📎 photo_1.png" });
    expect(answerWithFiles("just words", [])).toEqual({ text: "just words" });
  });
});

describe("readImageFiles (telecode run --image)", () => {
  it("reads images relative to the working directory, checked like photos", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "shots"));
    writeFileSync(join(dir, "shots/login.png"), makePng(1200, 800));
    const result = await readImageFiles(dir, ["shots/login.png"]);
    expect(result.ok && result.value.map((i) => [i.name, i.info.width, i.info.height])).toEqual([
      ["login.png", 1200, 800],
    ]);
  });

  it("names the file that is missing, is a folder, or is no image", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "notes.txt"), "hello");
    const missing = await readImageFiles(dir, ["nope.png"]);
    expect(!missing.ok && refusalText(missing.refusal)).toBe(
      "There is no image nope.png. Check the path given to --image.",
    );
    const folder = await readImageFiles(dir, ["."]);
    expect(!folder.ok && folder.refusal.code).toBe("media.not_a_file");
    const text = await readImageFiles(dir, ["notes.txt"]);
    expect(!text.ok && text.refusal.message).toBe("notes.txt is not a PNG, JPEG, GIF or WebP image I can read.");
  });
});
