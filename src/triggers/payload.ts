// The request bodies a webhook accepts: JSON (application/json or any +json type), GitHub's
// form encoding (application/x-www-form-urlencoded with the JSON in `payload=`), or nothing.

export type PayloadDecode =
  | Readonly<{ ok: true; payload: unknown }>
  /** 415: a content type we do not read; 400: a body that does not decode. */
  | Readonly<{ ok: false; status: 400 | 415 }>;

type BodyKind = "json" | "form" | "unsupported";

function mediaType(contentType: string): string {
  return (contentType.split(";", 1)[0] ?? "").trim().toLowerCase();
}

function kindOf(contentType: string): BodyKind {
  const type = mediaType(contentType);
  if (type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type)) return "json";
  if (type === "application/x-www-form-urlencoded") return "form";
  return "unsupported";
}

/** False when the header names a type no webhook reads; a missing header is decided with the body. */
export function isAcceptedContentType(contentType: string | undefined): boolean {
  return contentType === undefined || kindOf(contentType) !== "unsupported";
}

function parseJson(text: string): PayloadDecode {
  try {
    return { ok: true, payload: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400 };
  }
}

/** Decodes a body already read in full (and within the size cap). An empty body is `{}`. */
export function decodePayload(body: Uint8Array, contentType: string | undefined): PayloadDecode {
  if (body.length === 0) return { ok: true, payload: {} };
  const kind = contentType === undefined ? "unsupported" : kindOf(contentType);
  if (kind === "unsupported") return { ok: false, status: 415 };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(body);
  } catch {
    return { ok: false, status: 400 };
  }
  if (kind === "json") return parseJson(text);
  const payload = new URLSearchParams(text).get("payload");
  return payload === null ? { ok: false, status: 400 } : parseJson(payload);
}
