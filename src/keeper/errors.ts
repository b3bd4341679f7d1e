// The keeper's typed failures. Callers decide on `code`, never on message text; messages are
// for people: what happened, then what to do.
import { ioErrorWords, TypedError } from "../domain/index.js";
import { KEEPER_PROTOCOL_VERSION } from "./protocol.js";

export type KeeperErrorCode =
  | "keeper.bad_spec"
  | "keeper.start_failed"
  | "keeper.unreachable"
  | "keeper.unsafe_dir"
  | "keeper.stale_fence"
  | "keeper.incompatible"
  | "keeper.refused"
  | "keeper.detached"
  | "keeper.stdin_closed"
  | "keeper.bad_line";

export class KeeperError extends TypedError<KeeperErrorCode> {
  override readonly name = "KeeperError";
}

export function isKeeperError(value: unknown, code?: KeeperErrorCode): value is KeeperError {
  return value instanceof KeeperError && (code === undefined || value.code === code);
}

/** The error for a keeper's `refused` answer to a hello. */
export function refusalError(code: string, reason: string, keeperVersion: number): KeeperError {
  if (code === "stale_fence") return new KeeperError("keeper.stale_fence", reason);
  if (code === "protocol_mismatch")
    return new KeeperError("keeper.incompatible", reason, {
      details: { keeperVersion, clientVersion: KEEPER_PROTOCOL_VERSION },
    });
  return new KeeperError("keeper.refused", reason);
}

/** `keeper.start_failed`: the keeper could not `what` ("write …/state.json"), with the I/O error in words. */
export function startFailedError(what: string, error: unknown): KeeperError {
  const errno = (error as { code?: unknown } | null)?.code;
  return new KeeperError("keeper.start_failed", `The keeper could not ${what} (${ioErrorWords(error)}).`, {
    cause: error,
    details: { errno: typeof errno === "string" ? errno : null },
  });
}
