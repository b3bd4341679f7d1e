// The bridge's typed failure: not configured, started twice, or stopped before it could start.
export type BridgeErrorCode = "telegram.not_configured" | "telegram.already_started" | "telegram.start_aborted";

export class BridgeError extends Error {
  override readonly name = "BridgeError";
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
  }
}
