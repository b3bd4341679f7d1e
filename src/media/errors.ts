// Media's two kinds of failure. A refusal is an expected outcome (a file too big, a name that
// is denied, a voice server that is down) carried as a value with what happened and what to
// do; a MediaError is an unexpected failure (the disk, Telegram's file server) with a code.

export type MediaRefusalCode =
  | "media.too_big"
  | "media.message_too_big"
  | "media.type_not_allowed"
  | "media.name_denied"
  | "media.image_unreadable"
  | "media.image_too_large"
  | "media.too_many_images"
  | "media.no_download"
  | "media.outside_project"
  | "media.symlink"
  | "media.not_found"
  | "media.not_a_file"
  | "media.bad_path"
  | "media.zip_too_big"
  | "media.project_missing"
  | "voice.not_configured"
  | "voice.no_api_key"
  | "voice.failed"
  | "voice.timeout"
  | "voice.empty";

/** Something Telecode will not do, said to a person: `message` what happened, `hint` what to do. */
export type MediaRefusal = Readonly<{ code: MediaRefusalCode; message: string; hint: string }>;

export type MediaResult<T> = { ok: true; value: T } | { ok: false; refusal: MediaRefusal };

export function refuse(code: MediaRefusalCode, message: string, hint: string): { ok: false; refusal: MediaRefusal } {
  return { ok: false, refusal: Object.freeze({ code, message, hint }) };
}

export function accept<T>(value: T): { ok: true; value: T } {
  return { ok: true, value };
}

/** The two sentences a person reads. */
export function refusalText(refusal: MediaRefusal): string {
  return `${refusal.message} ${refusal.hint}`;
}

export type MediaErrorCode = "media.download_failed" | "media.io_failed";

export class MediaError extends Error {
  override readonly name = "MediaError";
  readonly code: MediaErrorCode;

  constructor(code: MediaErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }
}

export function isMediaError(value: unknown, code?: MediaErrorCode): value is MediaError {
  return value instanceof MediaError && (code === undefined || value.code === code);
}
