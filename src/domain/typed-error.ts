// The shape of Telecode's typed errors: a string `code` callers decide on (never the message),
// details for the log, and a message a person reads (what happened, then what to do). Each
// area subclasses it with its own codes and name.

export type TypedErrorOptions = { cause?: unknown; details?: Record<string, unknown> };

export class TypedError<Code extends string> extends Error {
  readonly code: Code;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: Code, message: string, options: TypedErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...options.details });
  }
}
