// The typed error the session layer throws for what needs a live session it does not have.
// Callers decide on `code`; the message is what a person reads.
import { TypedError } from "../domain/index.js";

export type SessionsErrorCode = "sessions.no_process";

export class SessionsError extends TypedError<SessionsErrorCode> {
  override readonly name = "SessionsError";
}

/** The lane has no Claude Code process running now, for what needs one (a sign-in, a side question). */
export function isNoProcess(error: unknown): boolean {
  return error instanceof SessionsError && error.code === "sessions.no_process";
}
