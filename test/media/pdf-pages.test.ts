// Counting a PDF's pages from its page tree, as written plainly and as written in compressed
// object streams, and saying nothing when there is no page tree to read.
import { deflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { pdfPageCount } from "../../src/media/pdf-pages.js";
import { makeLongPdf, makePdf } from "./samples.js";

describe("pdfPageCount", () => {
  it("reads the page tree's count, whether its objects are plain or in compressed object streams", async () => {
    for (const objectStreams of [false, true])
      for (const pages of [1, 100, 101, 240])
        expect(pdfPageCount(await makeLongPdf(pages, { objectStreams })), `${pages}, ${objectStreams}`).toBe(pages);
    expect(pdfPageCount(makePdf("one page"))).toBe(1);
  });

  it("takes the root's count where the tree has levels, and not an outline's", () => {
    const text = [
      "%PDF-1.4",
      "1 0 obj << /Type /Catalog /Pages 2 0 R /Outlines 9 0 R >> endobj",
      "2 0 obj << /Kids [3 0 R 4 0 R] /Count 150 /Type /Pages >> endobj",
      "3 0 obj << /Type /Pages /Parent 2 0 R /Kids [5 0 R] /Count 100 >> endobj",
      "4 0 obj << /Type /Pages /Parent 2 0 R /Kids [6 0 R] /Count 50 >> endobj",
      "9 0 obj << /Type /Outlines /Count 900 >> endobj",
      "%%EOF",
    ].join("\n");
    expect(pdfPageCount(Buffer.from(text, "latin1"))).toBe(150);
  });

  it("says nothing when no page tree can be read: not a PDF, a cut file, a stream that does not inflate", () => {
    expect(pdfPageCount(Buffer.from("just some text"))).toBeUndefined();
    expect(pdfPageCount(Buffer.alloc(0))).toBeUndefined();
    const broken = `%PDF-1.5\n1 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>\nstream\nnot deflate data\nendstream\n`;
    expect(pdfPageCount(Buffer.from(broken, "latin1"))).toBeUndefined();
    const cut = deflateSync(Buffer.from("2 0 << /Type /Pages /Count 7 /Kids [3 0 R] >>")).subarray(0, 12);
    expect(
      pdfPageCount(
        Buffer.concat([
          Buffer.from("%PDF-1.5\n1 0 obj << /Type /ObjStm /Filter /FlateDecode >>\nstream\n", "latin1"),
          cut,
        ]),
      ),
    ).toBeUndefined();
  });
});
