// The typed error the session layer throws for what needs a live session it does not have.
// Callers decide on `code`; the message is what a person reads.
import { TypedError } from "../domain/index.js";

export type SessionsErrorCode = "sessions.no_process";

export class SessionsError extends TypedError<SessionsErrorCode> {
  override readonly name = "SessionsError";
}
