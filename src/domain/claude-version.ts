// How the installed Claude Code stands against the versions Telecode is tested with: what
// `telecode doctor` prints after "Claude CLI", `telecode` logs at start, and /status shows.
// Types only.

/** "warn": outside the tested versions (never a refusal); `fix` says what to do then. */
export type VersionVerdict = Readonly<{ status: "ok" | "warn"; detail: string; fix?: string }>;

/**
 * What `telecode` learns at start: the verdict, or (`found: false`, a warning) why the CLI could
 * not be asked its version, in a sentence of its own.
 */
export type ClaudeVersionCheck = VersionVerdict & Readonly<{ found: boolean }>;
