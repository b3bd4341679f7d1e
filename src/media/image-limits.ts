// The Messages API's image limits and the checks against them: which of Telegram's photo sizes
// to take, and whether image bytes may go inline. No resizing here (see README "Photos, files
// and voice": Telegram's own sizes always include one under the limits). Pure.
import { base64Length, formatBytes, MIB } from "./sizes.js";
import { accept, refuse, type MediaResult } from "./errors.js";
import { readImageInfo, type ImageInfo } from "./image-format.js";

/** platform.claude.com/docs/en/build-with-claude/vision, "General limits" (checked for this release). */
export const MESSAGES_API_IMAGE_LIMITS = Object.freeze({
  /** The base64 text of one image (5 MB); the raw bytes may be three quarters of it. */
  maxBase64Bytes: 5 * MIB,
  /** Width and height, each. */
  maxEdgePx: 8000,
  /** Width and height, each, once a request holds more than `manyImages` images. */
  maxEdgePxManyImages: 2000,
  manyImages: 20,
  /** Images in one request (models with a 200k-token context; others take more). */
  maxImagesPerRequest: 100,
});

/**
 * The longest edge Telecode takes from Telegram's photo sizes. A session keeps every image in
 * its history, so after 20 of them the API's 2000 px rule applies to all; the API scales
 * anything over 1568 px down anyway, so a smaller size loses little.
 */
export const PHOTO_EDGE_PX = MESSAGES_API_IMAGE_LIMITS.maxEdgePxManyImages;

/** One of the sizes Telegram offers for a photo (PhotoSize), as plain data. */
export type PhotoSizeRef = Readonly<{ fileId: string; width: number; height: number; fileSizeBytes?: number }>;

/**
 * The largest of Telegram's sizes for one photo that stays within PHOTO_EDGE_PX and the API's
 * per-image bytes; undefined when none does (Telegram always sends small sizes too).
 */
export function pickPhotoSize(sizes: readonly PhotoSizeRef[]): PhotoSizeRef | undefined {
  const fits = sizes.filter(
    (size) =>
      Math.max(size.width, size.height) <= PHOTO_EDGE_PX &&
      (size.fileSizeBytes === undefined ||
        base64Length(size.fileSizeBytes) <= MESSAGES_API_IMAGE_LIMITS.maxBase64Bytes),
  );
  return fits.reduce<PhotoSizeRef | undefined>(
    (best, size) => (best === undefined || size.width * size.height > best.width * best.height ? size : best),
    undefined,
  );
}

export type InlineImage = Readonly<{ name: string; bytes: Uint8Array; info: ImageInfo }>;

/**
 * Checks images for one user message against the API's limits: type readable, bytes and pixels
 * within bounds (the stricter bound when the message alone holds more than 20), count.
 */
export function checkInlineImages(
  images: readonly { name: string; bytes: Uint8Array }[],
): MediaResult<readonly InlineImage[]> {
  const limits = MESSAGES_API_IMAGE_LIMITS;
  if (images.length > limits.maxImagesPerRequest) {
    return refuse(
      "media.too_many_images",
      `${images.length} images are more than the ${limits.maxImagesPerRequest} Claude takes in one message.`,
      "Send fewer at a time.",
    );
  }
  const maxEdge = images.length > limits.manyImages ? limits.maxEdgePxManyImages : limits.maxEdgePx;
  const checked: InlineImage[] = [];
  for (const image of images) {
    const info = readImageInfo(image.bytes);
    if (info === undefined) {
      return refuse(
        "media.image_unreadable",
        `${image.name} is not a PNG, JPEG, GIF or WebP image I can read.`,
        "Send a PNG, JPEG, GIF or WebP image instead.",
      );
    }
    const encoded = base64Length(image.bytes.byteLength);
    if (encoded > limits.maxBase64Bytes) {
      return refuse(
        "media.image_too_large",
        `${image.name} is ${formatBytes(image.bytes.byteLength)}; Claude takes images up to ${formatBytes((limits.maxBase64Bytes * 3) / 4)} (5 MB as base64).`,
        "Scale it down first, or send it in Telegram as a photo (Telegram makes photos smaller).",
      );
    }
    if (info.width > maxEdge || info.height > maxEdge) {
      return refuse(
        "media.image_too_large",
        `${image.name} is ${info.width}×${info.height} pixels; Claude takes images up to ${maxEdge}×${maxEdge}${images.length > limits.manyImages ? ` when a message has more than ${limits.manyImages}` : ""}.`,
        "Scale it down first, or send it in Telegram as a photo (Telegram makes photos smaller).",
      );
    }
    checked.push({ name: image.name, bytes: image.bytes, info });
  }
  return accept(checked);
}
