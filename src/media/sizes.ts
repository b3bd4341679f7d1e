// Byte counts as a person reads them, and the size limits Telegram and the Messages API set.
// Pure.

export const MIB = 1024 * 1024;

/** Telegram: a bot downloads at most 20 MB per file through getFile (core.telegram.org/bots/api#getfile). */
export const TELEGRAM_DOWNLOAD_MAX_BYTES = 20 * MIB;
/** Telegram: a bot uploads at most 50 MB per file (sendDocument). */
export const TELEGRAM_UPLOAD_MAX_BYTES = 50 * MIB;
/** Telegram: sendPhoto takes at most 10 MB; bigger images go as documents. */
export const TELEGRAM_PHOTO_MAX_BYTES = 10 * MIB;

/** "512 B", "35.2 KB", "20 MB": binary units, at most one decimal, none when whole. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const [value, unit] =
    bytes < MIB ? [bytes / 1024, "KB"] : bytes < 1024 * MIB ? [bytes / MIB, "MB"] : [bytes / (1024 * MIB), "GB"];
  const rounded = Math.round(value * 10) / 10;
  return `${Number.isInteger(rounded) ? rounded.toFixed(0) : rounded.toFixed(1)} ${unit}`;
}

/** Length of the base64 text for `bytes` bytes (what the Messages API measures an image by). */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}
