// Reads an image's type and pixel size from its first bytes (PNG, JPEG, GIF, WebP: the types
// the Messages API accepts), without decoding it. Pure: bytes in, facts out, never throws.
import type { ImageMediaType } from "../domain/index.js";

export type ImageInfo = Readonly<{ mediaType: ImageMediaType; width: number; height: number }>;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The type and size of an image, or undefined when the bytes are none of the four types (or cut short). */
export function readImageInfo(bytes: Uint8Array): ImageInfo | undefined {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const info = readPng(data) ?? readGif(data) ?? readWebp(data) ?? readJpeg(data);
  return info !== undefined && info.width > 0 && info.height > 0 ? info : undefined;
}

function readPng(data: Buffer): ImageInfo | undefined {
  if (data.length < 24 || !PNG_SIGNATURE.every((byte, i) => data[i] === byte)) return undefined;
  if (data.toString("latin1", 12, 16) !== "IHDR") return undefined;
  return { mediaType: "image/png", width: data.readUInt32BE(16), height: data.readUInt32BE(20) };
}

function readGif(data: Buffer): ImageInfo | undefined {
  const magic = data.toString("latin1", 0, 6);
  if (data.length < 10 || (magic !== "GIF87a" && magic !== "GIF89a")) return undefined;
  return { mediaType: "image/gif", width: data.readUInt16LE(6), height: data.readUInt16LE(8) };
}

function readWebp(data: Buffer): ImageInfo | undefined {
  if (data.length < 30 || data.toString("latin1", 0, 4) !== "RIFF" || data.toString("latin1", 8, 12) !== "WEBP") {
    return undefined;
  }
  const chunk = data.toString("latin1", 12, 16);
  if (chunk === "VP8 ") {
    // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
    if (data[23] !== 0x9d || data[24] !== 0x01 || data[25] !== 0x2a) return undefined;
    return { mediaType: "image/webp", width: data.readUInt16LE(26) & 0x3fff, height: data.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === "VP8L") {
    // Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each.
    if (data[20] !== 0x2f) return undefined;
    const bits = data.readUInt32LE(21);
    return { mediaType: "image/webp", width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === "VP8X") {
    // Extended: canvas width-1 and height-1 in 24 bits each.
    return { mediaType: "image/webp", width: data.readUIntLE(24, 3) + 1, height: data.readUIntLE(27, 3) + 1 };
  }
  return undefined;
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic); they carry the size. */
const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function readJpeg(data: Buffer): ImageInfo | undefined {
  if (data.length < 4 || data[0] !== 0xff || data[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 4 <= data.length) {
    if (data[offset] !== 0xff) return undefined;
    const marker = data[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return undefined; // end of image, or scan data before any frame
    const length = data.readUInt16BE(offset + 2);
    if (JPEG_SOF.has(marker)) {
      if (offset + 9 > data.length) return undefined;
      return { mediaType: "image/jpeg", width: data.readUInt16BE(offset + 7), height: data.readUInt16BE(offset + 5) };
    }
    if (length < 2) return undefined;
    offset += 2 + length;
  }
  return undefined;
}
