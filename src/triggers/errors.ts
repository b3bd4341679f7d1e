// The typed error the webhook server throws when it cannot start. Callers decide on `code`;
// the message is what a person reads: what happened, then what to do.
import { TypedError } from "../domain/index.js";

export type TriggerErrorCode = "triggers.secret_missing" | "triggers.listen_failed" | "triggers.invalid_config";

export class TriggerError extends TypedError<TriggerErrorCode> {
  override readonly name = "TriggerError";
}
