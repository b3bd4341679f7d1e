// The typed error the store throws for failures nobody expects in normal use: a database
// from a newer Telecode, a row that does not read back as what was written, a failed open,
// a data directory another Telecode holds.

export type StoreErrorCode =
  | "store.open_failed"
  | "store.locked"
  | "store.too_new"
  | "store.corrupt_row"
  | "store.not_found"
  | "store.invalid_input";

export class StoreError extends Error {
  override readonly name = "StoreError";
  readonly code: StoreErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: StoreErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...options.details });
  }
}
