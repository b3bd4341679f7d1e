// Small real files for media tests, made in memory: PNG, JPEG, GIF and WebP headers of any
// size (a PNG is a complete, decodable image), a one-page PDF, and PDFs of many pages as
// pdf-lib writes them (by default with the page tree in compressed object streams).
import { deflateSync } from "node:zlib";
import { PDFDocument, StandardFonts } from "pdf-lib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A complete grey PNG of `width` × `height` pixels. */
export function makePng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  const row = Buffer.alloc(width + 1, 0x80);
  row[0] = 0; // filter: none
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk("IHDR", header),
    pngChunk("IDAT", pixels),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** The start of a baseline JPEG (SOI, a JFIF APP0 segment, SOF0) declaring `width` × `height`. */
export function makeJpegHeader(width: number, height: number, sof = 0xc0): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sofSegment = Buffer.from([0xff, sof, 0x00, 0x11, 8, 0, 0, 0, 0, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sofSegment.writeUInt16BE(height, 5);
  sofSegment.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sofSegment, Buffer.from([0xff, 0xd9])]);
}

export function makeGifHeader(width: number, height: number): Buffer {
  const header = Buffer.from("GIF89a\0\0\0\0\0\0\0", "latin1");
  header.writeUInt16LE(width, 6);
  header.writeUInt16LE(height, 8);
  return header;
}

/** A WebP RIFF header in one of its three encodings. */
export function makeWebpHeader(width: number, height: number, kind: "VP8 " | "VP8L" | "VP8X"): Buffer {
  const chunk = Buffer.alloc(30);
  chunk.write("RIFF", 0, "latin1");
  chunk.writeUInt32LE(22, 4);
  chunk.write("WEBP", 8, "latin1");
  chunk.write(kind, 12, "latin1");
  chunk.writeUInt32LE(10, 16);
  if (kind === "VP8 ") {
    chunk.set([0x9d, 0x01, 0x2a], 23);
    chunk.writeUInt16LE(width, 26);
    chunk.writeUInt16LE(height, 28);
  } else if (kind === "VP8L") {
    chunk[20] = 0x2f;
    const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
    chunk.writeUInt32LE(bits >>> 0, 21);
  } else {
    chunk.writeUIntLE(width - 1, 24, 3);
    chunk.writeUIntLE(height - 1, 27, 3);
  }
  return chunk;
}

/** A valid one-page PDF showing `text`. */
export function makePdf(text: string): Buffer {
  const stream = `BT /F1 24 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let body = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, "latin1");
}

/** A PDF of `pages` pages, each with a line of text, as pdf-lib saves it (object streams unless told not to). */
export async function makeLongPdf(pages: number, options: { objectStreams?: boolean } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) doc.addPage().drawText(`Page ${i}`, { font, x: 72, y: 720 });
  return Buffer.from(await doc.save({ useObjectStreams: options.objectStreams ?? true }));
}
