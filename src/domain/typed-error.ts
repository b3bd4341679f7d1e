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

/** Whether `error` is Telecode's database failing: SQLite's own errors, or the store's ("store.…"). */
export function isDatabaseFailure(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string" || !(error instanceof Error)) return false;
  return code.startsWith("SQLITE_") || (error instanceof TypedError && code.startsWith("store."));
}

/**
 * What failed on the computer running Telecode, in words for a chat: the database's own message,
 * or, for anything else, the log event that has the rest (never a stack or a machine's path).
 * `whose` names Telecode ("its" where the sentence has named it already).
 */
export function hostFailureInWords(error: unknown, loggedAs: string, whose = "Telecode's"): string {
  return isDatabaseFailure(error)
    ? `${whose} database failed (${error.message})`
    : `an unexpected error (in ${whose} log as ${loggedAs})`;
}
