// Reads Bot API method parameters from any of the encodings the Bot API accepts (JSON body,
// query string, urlencoded or multipart form: then every value is a string) and builds the
// Bot API's error replies. No state here.

export type ApiErrorBody = {
  ok: false;
  error_code: number;
  description: string;
  parameters?: { retry_after?: number; migrate_to_chat_id?: number };
};

/** Thrown by a method handler; the server turns it into the Bot API's error reply. */
export class ApiFailure extends Error {
  constructor(
    readonly errorCode: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number; migrate_to_chat_id?: number },
  ) {
    super(description);
  }

  body(): ApiErrorBody {
    return {
      ok: false,
      error_code: this.errorCode,
      description: this.description,
      ...(this.parameters === undefined ? {} : { parameters: this.parameters }),
    };
  }
}

const OBJECT_PARAMS = new Set([
  "reply_markup",
  "reply_parameters",
  "entities",
  "caption_entities",
  "commands",
  "allowed_updates",
  "link_preview_options",
  "scope",
]);

export const badRequest = (what: string): ApiFailure => new ApiFailure(400, `Bad Request: ${what}`);

/** An uploaded file part of a multipart body. */
export type UploadedFile = { field: string; filename: string; mimeType: string; content: Buffer };

export class Params {
  constructor(
    private readonly values: Readonly<Record<string, unknown>>,
    readonly files: readonly UploadedFile[] = [],
  ) {}

  /** The parameters as received (object parameters decoded), uploads summarised: for the call log. */
  snapshot(): Record<string, unknown> {
    const copy: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(this.values)) {
      copy[name] = typeof value === "string" && OBJECT_PARAMS.has(name) ? this.tryJson(value) : value;
    }
    for (const file of this.files) copy[file.field] = { filename: file.filename, bytes: file.content.length };
    return copy;
  }

  private tryJson(value: string): unknown {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }

  has(name: string): boolean {
    return this.values[name] !== undefined && this.values[name] !== null;
  }

  raw(name: string): unknown {
    return this.values[name];
  }

  optionalString(name: string): string | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "string") return value;
    if (typeof value === "number" || typeof value === "boolean") return String(value);
    throw badRequest(`field "${name}" must be of type String`);
  }

  requiredString(name: string, missing: string): string {
    const value = this.optionalString(name);
    if (value === undefined) throw badRequest(missing);
    return value;
  }

  optionalInt(name: string): number | undefined {
    const value = this.values[name];
    if (value === undefined || value === null || value === "") return undefined;
    const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
    if (!Number.isInteger(number)) throw badRequest(`field "${name}" must be of type Integer`);
    return number;
  }

  requiredInt(name: string, missing: string): number {
    const value = this.optionalInt(name);
    if (value === undefined) throw badRequest(missing);
    return value;
  }

  optionalBool(name: string): boolean | undefined {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value === "boolean") return value;
    if (value === "true" || value === "1" || value === 1) return true;
    if (value === "false" || value === "0" || value === 0 || value === "") return false;
    throw badRequest(`field "${name}" must be of type Boolean`);
  }

  /** An object or array parameter: JSON bodies carry it as is, forms as a JSON string. */
  optionalJson(name: string): unknown {
    const value = this.values[name];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== "string") return value;
    try {
      return JSON.parse(value) as unknown;
    } catch {
      throw badRequest(`can't parse ${name} JSON object`);
    }
  }

  /** chat_id: the fake knows numeric ids only (usernames resolve to nothing). */
  chatId(name = "chat_id"): number {
    const value = this.values[name];
    if (value === undefined || value === null || value === "") throw badRequest("chat_id is empty");
    const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : NaN;
    if (!Number.isInteger(number)) throw badRequest("chat not found");
    return number;
  }
}
