// The typed error the scheduler throws for calls nobody should make in normal use (a negative
// cost, say). Refusals a person or the model can cause are values (Refusal), not errors.

/** `invalid_input`: a call nobody should make; `fire_failed`: a due run could not be started (its project is gone). */
export type ScheduleErrorCode = "schedule.invalid_input" | "schedule.fire_failed";

export class ScheduleError extends Error {
  override readonly name = "ScheduleError";
  readonly code: ScheduleErrorCode;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(
    code: ScheduleErrorCode,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = Object.freeze({ ...options.details });
  }
}
