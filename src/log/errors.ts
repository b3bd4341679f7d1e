// The typed error the log throws when its file cannot be opened (an unwritable or odd data
// directory). Callers decide on `code`; the message says what happened and what to do.

export type LogErrorCode = "log.open_failed";

export class LogError extends Error {
  override readonly name = "LogError";
  readonly code: LogErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: LogErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...options.details });
  }
}
