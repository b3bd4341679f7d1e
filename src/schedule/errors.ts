// The typed error the scheduler throws for calls nobody should make in normal use (a negative
// cost, say). Refusals a person or the model can cause are values (Refusal), not errors.
import { TypedError } from "../domain/index.js";

/** `invalid_input`: a call nobody should make; `fire_failed`: a due run could not be started (its project is gone). */
export type ScheduleErrorCode = "schedule.invalid_input" | "schedule.fire_failed";

export class ScheduleError extends TypedError<ScheduleErrorCode> {
  override readonly name = "ScheduleError";
}
