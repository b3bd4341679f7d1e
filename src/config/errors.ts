// The typed error the config layer throws. Callers decide on `code`, never on message text;
// the message is what a person reads: what happened, then what to do.

export type ConfigErrorCode = "config.not_found" | "config.unreadable" | "config.invalid" | "config.incomplete";

export class ConfigError extends Error {
  override readonly name = "ConfigError";
  readonly code: ConfigErrorCode;
  /** The file the problem is about, when there is one. */
  readonly file: string | null;
  /** Every problem found, one sentence each ("config.toml: limits.drain_seconds must be …"). */
  readonly problems: readonly string[];

  constructor(
    code: ConfigErrorCode,
    message: string,
    details: { file: string | null; problems?: readonly string[]; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.file = details.file;
    this.problems = Object.freeze([...(details.problems ?? [])]);
  }
}
