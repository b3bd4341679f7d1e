// The typed error the webhook server throws when it cannot start. Callers decide on `code`;
// the message is what a person reads: what happened, then what to do.

export type TriggerErrorCode = "triggers.secret_missing" | "triggers.listen_failed" | "triggers.invalid_config";

export class TriggerError extends Error {
  override readonly name = "TriggerError";
  readonly code: TriggerErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: TriggerErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...options.details });
  }
}
