// The typed error the log throws when its file cannot be opened (an unwritable or odd data
// directory). Callers decide on `code`; the message says what happened and what to do.
import { TypedError } from "../domain/index.js";

export type LogErrorCode = "log.open_failed";

export class LogError extends TypedError<LogErrorCode> {
  override readonly name = "LogError";
}
